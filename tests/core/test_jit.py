"""``core.jit``: numba's cache files go when a kernel's sources change; a kernel compiles at
the LLVM level it asks for; every helper compiles once."""

import json
import os
from pathlib import Path

import numba
import numba.core.event
import pytest

from mathhammer.core import jit
from mathhammer.core.jit import clear_stale_caches, kernel_sources
from mathhammer.core.kernel_cache import cache_folder


def make_package(root, monkeypatch):
    """A package ``pkg`` whose kernel module imports a helper module two ways, beside a
    module no kernel imports, with numba's cache files of the kernel module where the
    package's locator puts them (a ``NUMBA_CACHE_DIR`` of the test's own)."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(root / "numba-cache"))
    package = root / "pkg"
    (package / "a").mkdir(parents=True)
    (package / "core").mkdir()
    (package / "core" / "jit.py").write_text("kernel = None\n")
    (package / "a" / "kernels.py").write_text(
        "from pkg.core.jit import kernel\nfrom pkg.a import (\n    steps,\n)\n")
    (package / "a" / "steps.py").write_text("from pkg.b import LIMIT\n")
    (package / "b.py").write_text("LIMIT = 2\n")
    (package / "charts.py").write_text("from pkg.b import LIMIT\nTITLE = 'x'\n")
    cache = cache_folder(package / "a")
    cache.mkdir(parents=True)
    (cache / "kernels.run-1.py311.nbi").write_text("index")
    (cache / "kernels.run-1.py311.1.nbc").write_text("code")
    (cache / "kernels.cpython-311.pyc").write_text("bytecode")
    return package, cache


def test_kernel_sources_follow_imports_through_modules(tmp_path, monkeypatch):
    package, _ = make_package(tmp_path, monkeypatch)
    names = [p.relative_to(package).as_posix() for p in kernel_sources(package)]
    assert names == ["a/kernels.py", "a/steps.py", "b.py", "core/jit.py"]


def test_caches_survive_while_sources_are_unchanged(tmp_path, monkeypatch):
    package, cache = make_package(tmp_path, monkeypatch)
    clear_stale_caches(package)               # first sight: no stamp, caches cleared
    (cache / "kernels.run-1.py311.nbi").write_text("index")
    assert clear_stale_caches(package) is False
    assert (cache / "kernels.run-1.py311.nbi").exists()


def test_a_change_in_a_module_no_kernel_imports_keeps_the_caches(tmp_path, monkeypatch):
    package, cache = make_package(tmp_path, monkeypatch)
    clear_stale_caches(package)
    (cache / "kernels.run-1.py311.nbi").write_text("index")
    (package / "charts.py").write_text("TITLE = 'y'\n")
    assert clear_stale_caches(package) is False
    assert (cache / "kernels.run-1.py311.nbi").exists()


def test_a_change_in_an_imported_module_clears_every_cache(tmp_path, monkeypatch):
    package, cache = make_package(tmp_path, monkeypatch)
    clear_stale_caches(package)
    (cache / "kernels.run-1.py311.nbi").write_text("index")
    (cache / "kernels.run-1.py311.1.nbc").write_text("code")
    (package / "b.py").write_text("LIMIT = 3\n")   # a constant two imports away changed
    assert clear_stale_caches(package) is True
    assert sorted(p.name for p in cache.iterdir()) == ["kernels.cpython-311.pyc"]


def test_an_earlier_versions_cache_inside_the_package_goes_at_first_sight(tmp_path,
                                                                         monkeypatch):
    # Cache files and a stamp inside the installed package (where versions before this one
    # kept them) outlive a ``pip uninstall`` and make the folder an empty namespace package:
    # the first process of this version removes them, and keeps its own out of the package.
    package, cache = make_package(tmp_path, monkeypatch)
    legacy = package / "a" / "__pycache__"
    legacy.mkdir()
    (legacy / "kernels.run-1.py311.nbi").write_text("index")
    (legacy / "kernels.cpython-311.pyc").write_text("bytecode")
    (package / "__pycache__").mkdir()
    (package / "__pycache__" / "numba-sources.sha256").write_text("old digest")
    assert clear_stale_caches(package) is True
    assert sorted(p.name for p in legacy.iterdir()) == ["kernels.cpython-311.pyc"]
    assert list((package / "__pycache__").iterdir()) == []
    assert (cache_folder(package) / "numba-sources.sha256").is_file()
    assert clear_stale_caches(package) is False


def test_the_stamp_falls_back_to_the_package_when_the_cache_cannot_be_written(tmp_path,
                                                                              monkeypatch):
    package, _ = make_package(tmp_path, monkeypatch)
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(blocked))   # no folder can be made under it
    assert clear_stale_caches(package) is True
    assert (package / "__pycache__" / "numba-sources.sha256").is_file()
    assert clear_stale_caches(package) is False            # read back from there


def _warmup_report(engines: list[str]) -> dict | None:
    """The report of the test session's warmup process that compiled ``engines`` from an
    empty cache (tests/conftest.py), or None when none did (a warm cache, one test run)."""

    from tests.conftest import COMPILE_REPORTS

    folder = os.environ.get(COMPILE_REPORTS)
    path = Path(folder or ".") / f"{'-'.join(engines)}.json"
    if not folder or not path.is_file():
        return None
    report = json.loads(path.read_text())
    return report if report["cold"] and report["engines"] == engines else None


def test_every_kernel_helper_compiles_once(tmp_path):
    # numba compiles a function once per tuple of argument types, a Python int literal being
    # a type of its own: a helper called with two literal table numbers compiled twice. In a
    # fresh cache, warm up the 40k engines and count each function's compiled versions.
    import os
    import subprocess
    import sys

    report = _warmup_report(["40k", "scenario"])
    if report is not None:   # the session's warmup compiled them cold: read what it saw
        assert _unintended(report["twice"]) == []
        return
    code = ("import gc, json, mathhammer as mh\n"
            "from numba.core.registry import CPUDispatcher\n"
            "mh.warmup(['40k', 'scenario'])\n"
            "print(json.dumps([[d.py_func.__module__, d.py_func.__name__,\n"
            "                   [str(s) for s in d.overloads]] for d in gc.get_objects()\n"
            "                  if isinstance(d, CPUDispatcher) and len(d.overloads) > 1]))\n")
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert _unintended(json.loads(done.stdout)) == []


#: The functions compiled in two versions on purpose: the scenario kernel and its batch step
#: with and without the rare rules' code (last argument ``none`` or ``bool``).
_TWO_VERSIONS = {("mathhammer.wh40k.scenario.kernels", "scenario_trials"),
                 ("mathhammer.wh40k.scenario.kernels", "_resolve_batch")}


def _unintended(twice: list) -> list:
    """The entries of a warmup's ``twice`` list other than the two intended versions."""
    def intended(module: str, name: str, signatures: list[str]) -> bool:
        rest = {s.rsplit(", ", 1)[0] for s in signatures}
        last = sorted(s.rsplit(", ", 1)[1] for s in signatures)
        return (module, name) in _TWO_VERSIONS and len(rest) == 1 and last == ["bool)",
                                                                                "none)"]
    return [entry for entry in twice if not intended(*entry)]


class _LevelsSeen(numba.core.event.Listener):
    """Records ``numba.config.OPT`` whenever a compiler pass starts."""

    def __init__(self) -> None:
        self.levels: list[int] = []

    def on_start(self, event) -> None:
        self.levels.append(int(numba.config.OPT))

    def on_end(self, event) -> None:
        pass


def test_optimised_at_level_lowers_the_level_only_while_its_kernel_compiles():
    @jit.optimised_at_level(1)
    @numba.njit
    def at_level_1(x):
        return x + 1

    @numba.njit
    def at_default(x):
        return x + 2

    before = int(numba.config.OPT)
    seen, seen_after = _LevelsSeen(), _LevelsSeen()
    with numba.core.event.install_listener("numba:run_pass", seen):
        assert at_level_1(1) == 2
    assert int(numba.config.OPT) == before
    with numba.core.event.install_listener("numba:run_pass", seen_after):
        assert at_default(1) == 3
    assert set(seen.levels) == {min(1, before)}
    assert set(seen_after.levels) == {before}


def test_optimised_at_level_refuses_a_level_llvm_has_not():
    with pytest.raises(ValueError, match="level 4"):
        jit.optimised_at_level(4)


def test_an_inlined_once_helper_is_copied_into_its_caller_not_compiled_on_its_own():
    @jit.inlined_once
    def doubled(x):
        return 2 * x

    @numba.njit
    def caller(x):
        return doubled(x) + 1

    assert caller(3) == 7
    assert len(doubled.overloads) == 0   # no library, no machine code of its own


def test_a_lean_inlining_kernel_has_the_helpers_compiled_for_it_inlined():
    # numba passes a caller's forceinline on to a helper that does not set its own: the
    # scenario kernel relies on it to have its whole trial loop as one function.
    @numba.njit(_nrt=False, no_cpython_wrapper=True, no_cfunc_wrapper=True)
    def step(x):
        return x - 1

    @numba.njit(_nrt=False, no_cpython_wrapper=True, no_cfunc_wrapper=True)
    def other_step(x):
        return x + 1

    @numba.njit
    def plain(x):
        return other_step(x)

    loop = jit.lean_inlining_kernel(lambda x: step(x) * 2)
    assert loop(5) == 8 and plain(5) == 6
    [step_ir] = step.inspect_llvm().values()
    [other_ir] = other_step.inspect_llvm().values()
    assert "alwaysinline" in step_ir and "alwaysinline" not in other_ir


def test_is_cached_reads_the_cache_index_without_compiling(tmp_path, monkeypatch):
    import importlib

    (tmp_path / "cached_kernel_module.py").write_text(
        "import numba\n\n@numba.njit(cache=True)\ndef plus_one(x):\n    return x + 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module("cached_kernel_module")
    assert jit.is_cached(module.plus_one) is False
    assert not module.plus_one.overloads          # asking compiled nothing
    assert module.plus_one(1) == 2
    assert jit.is_cached(module.plus_one) is True
    assert jit.is_cached(object()) is True        # no numba cache to read: run as always

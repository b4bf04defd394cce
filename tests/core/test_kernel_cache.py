"""``core.kernel_cache`` and the locator ``core.jit`` installs: the package's kernels are
cached outside the installed package (numba issue 9312: ``pip uninstall`` leaves numba's
files, and the folder left hides a later install), where numba itself would put them."""

import os
import subprocess
import sys
from pathlib import Path

import numba.core.caching
from numba.misc.appdirs import AppDirs

import mathhammer
from mathhammer.core import rng
from mathhammer.core.kernel_cache import cache_folder, cache_root, user_cache_root

PACKAGE = Path(mathhammer.__file__).resolve().parent


def test_the_user_cache_root_is_numbas_own(monkeypatch):
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    assert user_cache_root() == Path(AppDirs(appname="numba", appauthor=False).user_cache_dir)
    assert cache_root() == user_cache_root()
    monkeypatch.setenv("NUMBA_CACHE_DIR", "/somewhere/chosen")
    assert cache_root() == Path("/somewhere/chosen")


def test_a_folder_is_named_as_numba_names_it(tmp_path):
    source = tmp_path / "pkg" / "kernels.py"
    subpath = numba.core.caching.CacheImpl._locator_classes[0].get_suitable_cache_subpath(
        str(source))
    assert cache_folder(source.parent, tmp_path / "root") == tmp_path / "root" / subpath


def test_a_package_kernel_is_cached_outside_the_package():
    cache_path = Path(rng.d6._cache._cache_path)   # the locator numba chose for it
    assert cache_path == cache_folder(PACKAGE / "core")
    assert not cache_path.resolve().is_relative_to(PACKAGE)


def test_a_function_outside_the_package_keeps_numbas_default(tmp_path, monkeypatch):
    import importlib

    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    (tmp_path / "someone_elses_kernels.py").write_text(
        "import numba\n\n@numba.njit(cache=True)\ndef plus_one(x):\n    return x + 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module("someone_elses_kernels")
    assert Path(module.plus_one._cache._cache_path) == tmp_path / "__pycache__"


def test_a_compile_writes_nothing_inside_the_package(tmp_path):
    # A fresh process with a cache home of its own and no NUMBA_CACHE_DIR rolls a D6: the
    # compiled code lands in that home's numba folder, and no numba file appears in the
    # package (whose folders pip would otherwise leave behind on uninstall).
    before = sorted(PACKAGE.rglob("*.nb[ic]"))
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env.update(XDG_CACHE_HOME=str(tmp_path), HOME=str(tmp_path))
    code = ("import numpy as np\nfrom mathhammer.core import rng\n"
            "assert 1 <= rng.d6(np.array([1, 2, 3, 4, 0, 0], dtype=np.uint64)) <= 6\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert sorted(PACKAGE.rglob("*.nb[ic]")) == before
    written = cache_folder(PACKAGE / "core", tmp_path / "numba")
    assert any(written.glob("rng.d6-*.nbi")) and any(written.glob("rng.d6-*.nbc"))
    assert (cache_folder(PACKAGE, tmp_path / "numba") / "numba-sources.sha256").is_file()
    assert not (PACKAGE / "__pycache__" / "numba-sources.sha256").exists()

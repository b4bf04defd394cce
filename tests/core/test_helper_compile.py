"""A kernel's helpers compiled by another process into numba's cache (core/helper_compile.py):
recorded from a real compile, compiled from the file, then loaded, not compiled, by the
kernel's own compile. Fresh processes with their own empty caches, on a module written here."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

KERNELS = '''
import numba

@numba.njit(cache=True)
def helper(x):
    return x * 2.0 + 1.0

@numba.njit(cache=True)
def kernel(x):
    return helper(x) + helper(x + 1.0)
'''

#: In a fresh process: run ``kernel(1.5)``, print what compiled (module.name) and the answer.
RUN = '''
import json, sys
sys.path.insert(0, sys.argv[1])
from mathhammer.core.helper_compile import record_compiles, write_helper_file
import toy_kernels
answer = []
seen = record_compiles(lambda: answer.append(toy_kernels.kernel(1.5)))
if len(sys.argv) > 2:   # keep the helpers (all but the kernel), and the kernel apart
    write_helper_file(seen[1:], __import__("pathlib").Path(sys.argv[2]))
    write_helper_file(seen[:1], __import__("pathlib").Path(sys.argv[2] + ".kernel"))
print(json.dumps({"compiled": [c.name for c in seen], "answer": answer[0]}))
'''

COMPILE = '''
import sys
sys.path.insert(0, sys.argv[1])
from pathlib import Path
from mathhammer.core.helper_compile import compile_helpers
compile_helpers(Path(sys.argv[2]))
'''


def _python(code: str, *args: str | Path, cache: Path, path: Path | None = None) -> str:
    """Run ``code`` with ``args`` in a fresh process with numba's cache in ``cache`` and
    ``path`` (else the first argument: the folder of toy_kernels.py) importable."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(path or args[0]),
                                                      env.get("PYTHONPATH")]))
    done = subprocess.run([sys.executable, "-c", code, *map(str, args)], capture_output=True,
                          text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_helpers_compiled_by_another_process_are_loaded_not_compiled(tmp_path):
    (tmp_path / "toy_kernels.py").write_text(KERNELS)
    signatures = tmp_path / "helpers.pickle"
    first = json.loads(_python(RUN, tmp_path, signatures, cache=tmp_path / "recording"))
    assert first == {"compiled": ["kernel", "helper"], "answer": 10.0}   # (1.5*2+1) + (2.5*2+1), by hand

    cache = tmp_path / "cold"
    _python(COMPILE, tmp_path, signatures, cache=cache)   # the other process
    then = json.loads(_python(RUN, tmp_path, cache=cache))
    assert then == {"compiled": ["kernel"], "answer": 10.0}


def test_the_cache_index_is_found_where_numba_writes_it(tmp_path, monkeypatch):
    from mathhammer.core.helper_compile import cache_index_seen

    (tmp_path / "toy_kernels.py").write_text(KERNELS)
    _python(RUN, tmp_path, cache=tmp_path / "warm")
    source = tmp_path / "toy_kernels.py"
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "warm"))
    assert cache_index_seen(source, "kernel") and cache_index_seen(source, "helper")
    assert not cache_index_seen(source, "other")
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "empty"))
    assert not cache_index_seen(source, "kernel")


def test_the_process_compiles_nothing_when_the_kernel_is_cached(tmp_path):
    from mathhammer.core.helper_compile import _CHILD

    (tmp_path / "toy_kernels.py").write_text(KERNELS)
    signatures = tmp_path / "helpers.pickle"
    _python(RUN, tmp_path, signatures, cache=tmp_path / "recording")
    kernel_file = Path(f"{signatures}.kernel")
    cache = tmp_path / "cache"
    _python(COMPILE, tmp_path, signatures, cache=cache)        # "helper" cached
    marker = tmp_path / "marker"
    for unless, compiled in (("toy_kernels:helper", False), ("toy_kernels:kernel", True)):
        marker.touch()
        _python(_CHILD, marker, kernel_file, unless, cache=cache, path=tmp_path)
        assert not marker.exists()   # given up whatever happened
        assert any(cache.rglob("toy_kernels.kernel-*.nbi")) is compiled


def test_an_unreadable_file_gives_the_marker_up_and_changes_nothing(tmp_path):
    # another numba's pickle, a truncated file: the process ends, the command compiles as
    # always (its own compile never reads the file)
    from mathhammer.core.helper_compile import _CHILD

    (tmp_path / "toy_kernels.py").write_text(KERNELS)
    broken, marker = tmp_path / "helpers.pickle", tmp_path / "marker"
    broken.write_bytes(b"\x80\x04not a pickle")
    marker.touch()
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"), PYTHONPATH=str(tmp_path))
    done = subprocess.run([sys.executable, "-c", _CHILD, str(marker), str(broken),
                           "toy_kernels:kernel"], capture_output=True, text=True, env=env,
                          timeout=300)
    assert done.returncode != 0 and not marker.exists()
    assert json.loads(_python(RUN, tmp_path, cache=tmp_path / "cache"))["answer"] == 10.0

"""A first kernel call without numba's BLAS import, cffi parser or entry-point scan
(mathhammer.core.numba_startup), each checked in a fresh process: what a process imports
cannot be undone in the test's own."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from mathhammer.core.numba_startup import _may_call_numba_runtime, scipy_ships_blas

#: A fresh process: a cached kernel called once (the dice stream, compiled by any earlier
#: test or warmup; compiling it here is fine too), then what numba imported and started, then
#: the same after a compile, then numba's own BLAS check back for a jitted np.dot.
_FIRST_CALL = """
import json, sys
{before}
import numpy as np
from mathhammer.core.rng import d6, seed_streams
d6(seed_streams(1, 1)[0])
d6(seed_streams(1, 1)[0])   # cached now if it was compiled above
import numba.core.runtime

def modules(*names):
    return {{name: name in sys.modules for name in names}}

seen = {{"after_load": modules("scipy", "scipy.linalg", "yaml", "colorama", "numpy.ma",
                               "cffi", "numba.np.arraymath", "numba.core.typing.cffi_utils")}}
seen["after_load"]["runtime_started"] = numba.core.runtime.rtsys._init
numba.njit(lambda a: a + 1)(1)
seen["after_compile"] = modules("scipy.linalg", "cffi", "numba.np.arraymath",
                                "numba.core.typing.cffi_utils")
dot = numba.njit(lambda a, b: np.dot(a, b))
seen["dot"] = float(dot(np.ones(3), np.arange(3.0)))
import numba, numba.np.arraymath, numba.np.linalg, numba.core.entrypoints
seen["numbas_blas_check_back"] = numba.np.arraymath.ensure_blas is numba.np.linalg.ensure_blas
seen["have_blas"] = numba.np.arraymath._HAVE_BLAS
seen["entry_points_read"] = numba.core.entrypoints._already_initialized
import importlib.util
seen["cffi_installed"] = importlib.util.find_spec("cffi") is not None
seen["colorama_installed"] = importlib.util.find_spec("colorama") is not None
if seen["cffi_installed"]:
    import cffi   # still importable
import scipy, yaml   # still importable
from numba.core.typing import cffi_utils
seen["cffi_functions"] = cffi_utils.SUPPORTED
import numba.core.errors
seen["message_colours"] = type(numba.core.errors.termcolor()).__name__
masked = numba.njit(lambda a: a.sum())
try:
    masked(np.ma.masked_array([1, 2]))
    seen["masked_refused"] = False
except numba.core.errors.TypingError as error:
    seen["masked_refused"] = "MaskedArray" in str(error)
print(json.dumps(seen))
"""


def _first_call(before: str = "") -> dict:
    code = _FIRST_CALL.format(before=before)
    env = {k: v for k, v in os.environ.items()
           if k not in ("NUMBA_COLOR_SCHEME", "NUMBA_DISABLE_ERROR_MESSAGE_HIGHLIGHTING")}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=600, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_python_session_keeps_numbas_own_start_up_but_not_scipy_linalg():
    seen = _first_call()
    loaded = seen["after_load"]
    assert loaded["numba.np.arraymath"] and not loaded["scipy.linalg"]   # numba's own refresh
    assert loaded["scipy"] and loaded["runtime_started"]
    assert seen["have_blas"] is scipy_ships_blas() is True
    assert seen["numbas_blas_check_back"]
    assert seen["dot"] == 3.0   # BLAS through numba's own check, after the first call
    # a Python session keeps cffi support and reads other packages' numba extensions
    assert seen["cffi_functions"] is seen["cffi_installed"]
    assert seen["entry_points_read"]
    assert seen["message_colours"] != "NOPColorScheme" or not seen["colorama_installed"]
    assert seen["masked_refused"]


def test_the_command_line_loads_a_cached_kernel_without_numbas_start_up_work():
    seen = _first_call("from mathhammer.core.numba_startup import for_this_package_only\n"
                       "for_this_package_only()")
    loaded = seen["after_load"]
    assert not any(loaded[name] for name in ("scipy", "yaml", "colorama", "numpy.ma", "cffi",
                                             "numba.np.arraymath",
                                             "numba.core.typing.cffi_utils"))
    assert not loaded["runtime_started"]   # the dice kernel never calls numba's runtime
    compiled = seen["after_compile"]   # a compile readies numba as in a Python session...
    assert compiled["numba.np.arraymath"] and not compiled["scipy.linalg"]
    assert seen["numbas_blas_check_back"] and seen["dot"] == 3.0
    # ... without cffi support, other packages' extensions or coloured messages
    assert compiled["numba.core.typing.cffi_utils"] and not compiled["cffi"]
    assert not seen["cffi_functions"]
    assert seen["message_colours"] == "NOPColorScheme"
    assert seen["masked_refused"]   # masked arrays are refused as before, once they exist


#: A module with two cached kernels, one that allocates (calls numba's runtime) and one that
#: does not, compiled in one process and loaded from the cache in the next.
_KERNELS = """
import numba
import numpy as np

@numba.njit(cache=True)
def allocates(n):
    return np.arange(n).sum()

@numba.njit(cache=True)
def adds(a, b):
    return a + b
"""

_LOAD = """
import json, sys
sys.path.insert(0, {folder!r})
{before}
import mathhammer.core.jit   # installs mathhammer's numba start-up
import numba.core.runtime
import toy_kernels
seen = {{"adds": toy_kernels.adds(2, 3)}}
seen["runtime_after_adds"] = numba.core.runtime.rtsys._init
seen["allocates"] = int(toy_kernels.allocates(5))
seen["loaded_not_compiled"] = all(not d.stats.cache_misses for d in
                                  (toy_kernels.adds, toy_kernels.allocates))
print(json.dumps(seen))
"""


def test_a_cached_kernel_that_calls_numbas_runtime_starts_it_when_loaded(tmp_path):
    (tmp_path / "toy_kernels.py").write_text(_KERNELS)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    for before, loaded in [("", False), ("", True),
                           ("from mathhammer.core.numba_startup import for_this_package_only\n"
                            "for_this_package_only()", True)]:
        code = _LOAD.format(folder=str(tmp_path), before=before)
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              timeout=600, env=env, cwd=tmp_path)
        assert done.returncode == 0, done.stderr[-2000:]
        seen = json.loads(done.stdout.strip().splitlines()[-1])
        assert (seen["adds"], seen["allocates"]) == (5, 10)
        assert seen["loaded_not_compiled"] is loaded
    assert seen["runtime_after_adds"] is False   # the command line's: started when needed


@pytest.mark.parametrize("library, may_call", [
    (("name", "object", (b"\x7fELF ... NRT_MemInfo_alloc ...", b"")), True),
    (("name", "object", (b"\x7fELF ... numba_adapt_ndarray ...", b"")), False),
    (("name", "bitcode", b"..."), True),
    (None, True),
])
def test_a_cached_library_is_read_as_calling_numbas_runtime_unless_it_names_none(library,
                                                                                   may_call):
    assert _may_call_numba_runtime(library) is may_call


def test_a_warm_command_line_simulate_answers_as_the_python_call():
    """The 40k kernel loaded the command line's way (no registry refresh, no runtime, no
    ``numpy.ma``) gives the bytes ``main`` gives in this process, numba's own way."""
    import contextlib
    import io

    from mathhammer.main import main

    args = ["simulate", '10x Bolt rifle: 24" A2 BS3+ S4 AP-1 D1', "--target",
            "10x Guardsman: T3 Sv5+ W1", "--trials", "20000", "--seed", "7", "--json",
            "--sampler", "kernel"]
    here = io.StringIO()
    with contextlib.redirect_stdout(here):
        assert main(args) == 0   # compiles or loads the kernel into the shared cache
    done = subprocess.run([sys.executable, "-m", "mathhammer", *args], capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout == here.getvalue()
    answer = json.loads(done.stdout)
    assert answer["method"] == "monte-carlo" and "engine" not in answer   # the kernel

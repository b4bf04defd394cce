"""A first kernel call without numba's BLAS import, cffi parser or entry-point scan
(mathhammer.core.numba_startup), each checked in a fresh process: what a process imports
cannot be undone in the test's own."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from mathhammer.core.numba_startup import scipy_ships_blas

#: A fresh process: a cached kernel called once (the dice stream, compiled by any earlier
#: test or warmup; compiling it here is fine too), then what numba imported, and numba's own
#: BLAS check and a jitted np.dot still working afterwards.
_FIRST_CALL = """
import json, sys
{before}
import numpy as np
from mathhammer.core.rng import d6, seed_streams
d6(seed_streams(1, 1)[0])
seen = {{name: name in sys.modules for name in
        ("scipy.linalg", "cffi", "numba.np.arraymath", "numba.core.typing.cffi_utils")}}
import numba, numba.np.arraymath, numba.np.linalg, numba.core.entrypoints
seen["numbas_blas_check_back"] = numba.np.arraymath.ensure_blas is numba.np.linalg.ensure_blas
seen["have_blas"] = numba.np.arraymath._HAVE_BLAS
seen["entry_points_read"] = numba.core.entrypoints._already_initialized
import importlib.util
seen["cffi_installed"] = importlib.util.find_spec("cffi") is not None
seen["colorama_installed"] = importlib.util.find_spec("colorama") is not None
if seen["cffi_installed"]:
    import cffi   # still importable
from numba.core.typing import cffi_utils
seen["cffi_functions"] = cffi_utils.SUPPORTED
import numba.core.errors
seen["message_colours"] = type(numba.core.errors.termcolor()).__name__
dot = numba.njit(lambda a, b: np.dot(a, b))
seen["dot"] = float(dot(np.ones(3), np.arange(3.0)))
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


def test_a_first_kernel_call_leaves_scipy_linalg_alone():
    seen = _first_call()
    assert seen["numba.np.arraymath"] and not seen["scipy.linalg"]
    assert seen["have_blas"] is scipy_ships_blas() is True
    assert seen["numbas_blas_check_back"]
    assert seen["dot"] == 3.0   # BLAS through numba's own check, after the first call
    # a Python session keeps cffi support and reads other packages' numba extensions
    assert seen["cffi_functions"] is seen["cffi_installed"]
    assert seen["entry_points_read"]
    assert seen["message_colours"] != "NOPColorScheme" or not seen["colorama_installed"]


def test_the_command_line_leaves_out_cffi_and_other_packages_extensions():
    seen = _first_call("from mathhammer.core.numba_startup import for_this_package_only\n"
                       "for_this_package_only()")
    assert not seen["cffi"] and not seen["scipy.linalg"]
    assert seen["numba.core.typing.cffi_utils"] and not seen["cffi_functions"]
    assert seen["message_colours"] == "NOPColorScheme"   # numba's own switch, plain text
    assert seen["dot"] == 3.0

"""Where numba keeps the package's compiled kernels: the paths, without importing numba.

numba's default puts a kernel's machine code in the ``__pycache__`` folder beside its source,
inside the installed package. ``pip`` does not know those files, so ``pip uninstall`` leaves
the package's folders behind holding them; Python then imports the leftover folder as an
empty namespace package, which hides a later editable install (``pip install -e .``) and
makes ``import mathhammer`` succeed with nothing in it (numba issue 9312). The package's
kernels are therefore cached where numba caches a read-only installation's: the user's cache
folder for numba (``~/.cache/numba`` on Linux), or ``NUMBA_CACHE_DIR`` when it is set, in one
subfolder per source folder, named as numba names it. :mod:`mathhammer.core.jit` puts the
locator in place; these functions say where it looks, for the code that must know before
numba is imported (:func:`mathhammer.core.helper_compile.cache_index_seen`) and for the
stale-cache guard.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path


def user_cache_root() -> Path:
    """numba's user-wide cache folder, as numba's ``AppDirs("numba").user_cache_dir`` gives
    it on this platform (checked against numba by ``tests/core/test_kernel_cache.py``)."""
    if sys.platform == "win32":
        local = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
        return Path(local) / "numba" / "Cache"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "numba"
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "numba"


def cache_root() -> Path:
    """The folder holding the package's kernel caches: ``NUMBA_CACHE_DIR`` when set, else
    :func:`user_cache_root`."""
    chosen = os.environ.get("NUMBA_CACHE_DIR")
    return Path(chosen) if chosen else user_cache_root()


def cache_folder(source_folder: Path, root: Path | None = None) -> Path:
    """The folder under ``root`` (default :func:`cache_root`) where numba caches the
    kernels of the source files in ``source_folder``: the folder's name and the SHA-1 of its
    absolute path, as numba's ``get_suitable_cache_subpath`` names it."""
    folder = Path(os.path.abspath(source_folder))
    digest = hashlib.sha1(str(folder).encode()).hexdigest()
    return (root or cache_root()) / f"{folder.name}_{digest}"


def kernel_cache_folders(source_folder: Path) -> list[Path]:
    """Every folder where numba may have cached kernels of ``source_folder``'s files: the
    package's place (:func:`cache_folder`), then the ``__pycache__`` beside the sources (an
    earlier version's place, and numba's fallback when the cache root cannot be written)."""
    return [cache_folder(source_folder), Path(source_folder) / "__pycache__"]

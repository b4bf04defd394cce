"""Trials, seeds and chunks: the one place every Monte Carlo engine takes them from.

Trials are split into :data:`CHUNKS` chunks whatever the thread count, each chunk with its
own random stream, so a seed gives bit-identical results on 1 or 64 threads.

Default numbers of trials, the same in the Python API and on the command line:

- :data:`DEFAULT_TRIALS` (1,000,000) for one attack sequence (``simulate`` of every game);
- :data:`DEFAULT_GRID_TRIALS` (200,000) per cell of a comparison grid or sweep;
- :data:`DEFAULT_SCENARIO_TRIALS` (100,000) for a whole scenario (each trial plays every
  activation of every battle round).

numpy and numba load only when a function runs, so the command line can read the defaults
without paying for them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mathhammer.core.limits import MAX_TRIALS
from mathhammer.errors import OptionError

if TYPE_CHECKING:
    import numpy as np

CHUNKS = 64
DEFAULT_TRIALS = 1_000_000
DEFAULT_GRID_TRIALS = 200_000
DEFAULT_SCENARIO_TRIALS = 100_000

Seed = Any  # int or numpy.random.SeedSequence; numpy loads only when a run starts


def check_trials(trials: Any) -> int:
    """``trials`` as an int, or :class:`OptionError` for anything but a whole number >= 1."""
    import numpy as np

    if isinstance(trials, bool) or not isinstance(trials, (int, np.integer)):
        raise OptionError(f"trials={trials!r} must be a whole number of trials, e.g. 1_000_000")
    if trials < 1:
        raise OptionError(f"trials={trials} must be at least 1")
    if trials > MAX_TRIALS:
        raise OptionError(f"trials={trials:,} is too many: at most {MAX_TRIALS:,}")
    return int(trials)


def check_seed(seed: Any) -> Seed:
    """A non-negative int, or a fresh copy of a :class:`numpy.random.SeedSequence`.

    The copy matters: spawning children advances a SeedSequence, and the answer must depend
    only on its ``(entropy, spawn_key)``.
    """
    import numpy as np

    if isinstance(seed, np.random.SeedSequence):
        return np.random.SeedSequence(seed.entropy, spawn_key=seed.spawn_key,
                                      pool_size=seed.pool_size)
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise OptionError(f"seed={seed!r} must be a non-negative whole number")
    return int(seed)


def as_seed_sequence(seed: Any) -> Any:
    """``seed`` (an int or a :class:`numpy.random.SeedSequence`, checked as by
    :func:`check_seed`) as a fresh SeedSequence: the one way every engine turns a seed into
    random streams or spawned children.

    Examples
    --------
    >>> import numpy as np
    >>> child = np.random.SeedSequence(5).spawn(2)[1]
    >>> as_seed_sequence(5).entropy, as_seed_sequence(child).spawn_key
    (5, (1,))
    """
    import numpy as np

    seed = check_seed(seed)
    return seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)


def trials_per_chunk(trials: int, chunks: int = CHUNKS) -> np.ndarray:
    """``trials`` split as evenly as possible over ``chunks`` (the first ones get the extra)."""
    import numpy as np

    base, extra = divmod(trials, chunks)
    counts = np.full(chunks, base, dtype=np.int64)
    counts[:extra] += 1
    return counts

"""Random streams for the numba kernels.

Each stream is a ``uint64[6]`` array: the four words of a xoshiro256** generator, then a
buffer of unused D6 faces and how many faces it holds. One 64-bit draw below
``140 * 6**22`` carries 22 independent, exactly uniform D6 faces (a draw at or above that bound
is rejected, which happens with probability 0.55%), so rolling a D6 costs about a twentieth
of a generator step and is exact in law.

Streams are seeded from :class:`numpy.random.SeedSequence`: the work is split into a fixed
number of chunks that does not depend on the thread count, and chunk ``i`` gets words
``4i..4i+3`` of ``SeedSequence(seed).generate_state(4 n)``. One seed therefore gives the
same bits on any number of threads.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from mathhammer.core.jit import kernel, step_kernel
from mathhammer.core.trials import CHUNKS, Seed, as_seed_sequence, trials_per_chunk
from mathhammer.errors import OptionError

if TYPE_CHECKING:
    from collections.abc import Iterable

    import numpy.typing as npt

STREAM_WORDS = 6
_FACES_PER_DRAW = 22
_D6_LIMIT = np.uint64(140 * 6**22)
_SIX = np.uint64(6)
_ONE = np.uint64(1)


def seed_streams(seed: int | np.random.SeedSequence, n_streams: int) -> np.ndarray:
    """Independent stream states for ``n_streams`` chunks.

    Chunk ``i`` starts from words ``4i .. 4i+3`` of ``SeedSequence(seed).generate_state``:
    SeedSequence hashes its entropy into a stream of well-mixed words, and one call for all
    chunks costs microseconds (spawning 64 child sequences cost 2-3 ms per simulation).

    Parameters
    ----------
    seed
        Any non-negative integer, or a :class:`numpy.random.SeedSequence` (e.g. a child
        spawned for one cell of a comparison grid).
    n_streams
        Number of chunks. Must not depend on the thread count.

    Returns
    -------
    numpy.ndarray
        ``uint64`` array of shape ``(n_streams, 6)``.
    """
    root = as_seed_sequence(seed)
    states = np.zeros((n_streams, STREAM_WORDS), dtype=np.uint64)
    states[:, :4] = root.generate_state(4 * n_streams, np.uint64).reshape(n_streams, 4)
    for i in np.flatnonzero(~states[:, :4].any(axis=1)):
        states[i, 0] = 1  # xoshiro's one forbidden state; astronomically unlikely
    return states


def scripted_stream(faces: Iterable[int]) -> np.ndarray:
    """A stream that returns the given D6 faces in order, then fails: forced dice for tests.

    The kernels cannot tell it from a random stream (the script is consulted only when the
    face buffer runs empty, so random streams pay nothing for it).

    Examples
    --------
    >>> stream = scripted_stream([6, 1, 3])
    >>> [int(d6(stream)) for _ in range(3)]
    [6, 1, 3]
    """
    faces = [int(f) for f in faces]
    if any(not 1 <= f <= 6 for f in faces):
        raise ValueError(f"scripted D6 faces must be 1..6: {faces}")
    state = np.zeros(STREAM_WORDS + 1 + len(faces), dtype=np.uint64)
    state[STREAM_WORDS + 1:] = faces
    return state


def scripted_dice_used(stream: np.ndarray) -> int:
    """How many scripted faces a kernel consumed."""
    return int(stream[STREAM_WORDS])


class ScriptedDiceRanOut(OptionError, IndexError):
    """Fewer scripted faces than the dice rolled: the caller's ``faces`` are too few (an
    :class:`~mathhammer.errors.OptionError`, and an ``IndexError`` as it always was)."""


def check_script_not_exhausted(stream: np.ndarray) -> None:
    """Raise :class:`ScriptedDiceRanOut` if a kernel asked a scripted stream for more faces
    than it had.

    Kernels never raise (it would stop numba inlining the dice); past the end of its script
    a stream returns 1s and keeps counting, so the excess is visible here.
    """
    given = stream.shape[0] - STREAM_WORDS - 1
    used = scripted_dice_used(stream)
    if used > given:
        raise ScriptedDiceRanOut(f"faces: the scripted dice ran out: the scenario rolled "
                                 f"{used} dice but only {given} were given; give at least "
                                 f"{used} D6 results (1-6), in the order the kernel rolls")



# The generator's steps are called from kernels only: step kernels, without the Python entry
# point each @kernel compiles (about a third of a small helper's cold compile). d6 keeps
# one: tests and examples roll it from Python.
@step_kernel
def _rotl(x: np.uint64, k: np.int64) -> np.uint64:
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@step_kernel
def next_u64(state: npt.NDArray[np.uint64]) -> np.uint64:
    """One xoshiro256** output; advances ``state`` in place."""
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    result: np.uint64 = _rotl(s1 * np.uint64(5), np.int64(7)) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, np.int64(45))
    state[0], state[1], state[2], state[3] = s0, s1, s2, s3
    return result


@step_kernel
def uniform(state: npt.NDArray[np.uint64]) -> float:
    """A float in [0, 1) with 53 random bits."""
    bits: np.uint64 = next_u64(state)
    return (bits >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@step_kernel
def draw_bits(state: npt.NDArray[np.uint64]) -> np.int64:
    """The 53 random bits :func:`uniform` would scale to [0, 1), as an integer: the same
    step of the stream (see :func:`mathhammer.core.sampling.draw_thresholds`)."""
    bits: np.uint64 = next_u64(state)
    return np.int64(bits >> np.uint64(11))


@step_kernel
def _next_scripted_face(state: npt.NDArray[np.uint64]) -> None:
    # No ``raise`` here: a function that can raise is never inlined by LLVM, which made every
    # ``d6`` call five times slower. Past the end of the script the stream returns 1s and
    # keeps counting, and the Python caller raises (see :func:`check_script_not_exhausted`).
    position = state[STREAM_WORDS]
    if position < np.uint64(state.shape[0] - STREAM_WORDS - 1):
        state[4] = state[STREAM_WORDS + 1 + position] - _ONE
    else:
        state[4] = np.uint64(0)
    state[5] = _ONE
    state[STREAM_WORDS] = position + _ONE


@kernel
def d6(state: npt.NDArray[np.uint64]) -> np.int64:
    """One D6 face (1..6), exactly uniform."""
    if state[5] == 0:
        if state.shape[0] > STREAM_WORDS:
            _next_scripted_face(state)
        else:
            x = next_u64(state)
            while x >= _D6_LIMIT:
                x = next_u64(state)
            state[4] = x
            state[5] = np.uint64(_FACES_PER_DRAW)
    buffer = state[4]
    face = buffer % _SIX
    state[4] = buffer // _SIX
    state[5] = state[5] - _ONE
    return np.int64(face) + 1


@kernel
def d3(state: npt.NDArray[np.uint64]) -> np.int64:
    """One D3 (a D6 halved, rounded up)."""
    face: np.int64 = d6(state)
    return (face + 1) // 2


@step_kernel
def roll_dice(state: npt.NDArray[np.uint64], count: int, sides: int, constant: int) -> int:
    """Roll ``count`` D``sides`` (3 or 6) and add ``constant``."""
    total = constant
    for _ in range(count):
        face = d6(state)
        total += (face + 1) // 2 if sides == 3 else face
    return total


@kernel
def binomial(state: npt.NDArray[np.uint64], n: int, p: float) -> int:
    """A Binomial(n, p) draw by counting uniform successes (n is small in every game here)."""
    successes = 0
    for _ in range(n):
        if uniform(state) < p:
            successes += 1
    return successes


def chunk_streams(trials: int, seed: Seed, chunks: int = CHUNKS
                  ) -> tuple[np.ndarray, np.ndarray]:
    """Random stream states and trial counts of every chunk: ``(streams, per_chunk)``."""
    return seed_streams(seed, chunks), trials_per_chunk(trials, chunks)

"""``core.trials``: one chunk split, one seed and trials check for every engine."""

import numpy as np
import pytest

from mathhammer.core.rng import chunk_streams
from mathhammer.core.trials import (CHUNKS, as_seed_sequence, check_seed, check_trials,
                                    trials_per_chunk)
from mathhammer.errors import OptionError


@pytest.mark.parametrize("trials", [1, 63, 64, 65, 1_000_001])
def test_chunks_add_up_and_differ_by_at_most_one(trials):
    split = trials_per_chunk(trials)
    assert split.sum() == trials and len(split) == CHUNKS
    assert split.max() - split.min() <= 1
    assert (np.diff(split) <= 0).all()   # the first chunks take the extra trials


@pytest.mark.parametrize("bad", [0, -5, 1.5, "100", True, None])
def test_bad_trials_are_refused(bad):
    with pytest.raises(OptionError, match="trials"):
        check_trials(bad)


@pytest.mark.parametrize("bad", [-1, 2.0, "1", False])
def test_bad_seeds_are_refused(bad):
    with pytest.raises(OptionError, match="seed"):
        check_seed(bad)


def test_a_seed_sequence_is_copied_so_spawning_does_not_change_the_answer():
    root = np.random.SeedSequence(7)
    first = chunk_streams(100, check_seed(root))[0]
    root.spawn(3)
    again = chunk_streams(100, check_seed(root))[0]
    assert (first == again).all()


def test_streams_depend_on_the_seed_only():
    a, _ = chunk_streams(10, 1)
    b, _ = chunk_streams(10_000, 1)
    c, _ = chunk_streams(10, 2)
    assert (a == b).all() and not (a == c).all()


def test_one_seed_sequence_from_any_seed():
    child = np.random.SeedSequence(5).spawn(3)[2]
    again = as_seed_sequence(child)
    assert again is not child and (again.entropy, again.spawn_key) == (5, (2,))
    assert as_seed_sequence(7).entropy == 7 and as_seed_sequence(np.int64(7)).entropy == 7
    with pytest.raises(OptionError, match="seed=-1"):
        as_seed_sequence(-1)


def test_a_roster_analysis_takes_a_seed_sequence_like_every_entry_point():
    import mathhammer as mh
    from mathhammer.wh40k.roster.api import example

    army = mh.load_roster(example("marines"))
    child = np.random.SeedSequence(5)
    frame = army.compare("MEQ", seed=child, method="monte-carlo", trials=1_000,
                         phases=["shooting"])
    assert frame.attrs["seed"] == 5
    assert frame.equals(army.compare("MEQ", seed=5, method="monte-carlo", trials=1_000,
                                     phases=["shooting"]))

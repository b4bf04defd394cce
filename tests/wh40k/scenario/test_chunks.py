"""The scenario kernel's chunks and scratch (wh40k/scenario/chunks.py): forced dice counted by
hand, and chunk c on stream c whatever the threads."""

import numpy as np

from mathhammer.core.rng import scripted_stream, seed_streams
from mathhammer.wh40k.parse import parse_target, parse_weapon
from mathhammer.wh40k.scenario.activations import Activation
from mathhammer.wh40k.scenario.chunks import Histograms, run_chunks, run_trials, scratch_arrays
from mathhammer.wh40k.scenario.compile import compile_scenario
from mathhammer.wh40k.scenario.layout import U_MODEL_BINS
from mathhammer.wh40k.scenario.model import Scenario
from mathhammer.wh40k.scenario.units import CarriedWeapon, ModelGroup, Unit


def plan():
    flamer = CarriedWeapon.single(parse_weapon('Flamer: 12" A1 BSN/A S4 AP0 D1 [TORRENT]'))
    shooter = Unit("Shooter", (ModelGroup("Gunner", 2, parse_target("T4 Sv3+ W2"), (flamer,)),))
    target = Unit("Targets", (ModelGroup("Trooper", 10, parse_target("T4 Sv7+ W1")),))
    return compile_scenario(Scenario({"Shooter": shooter, "Targets": target},
                                     (Activation("shooting", "Shooter", "Targets"),)))


def destroyed(plan, hists, unit=1):
    start = plan.units[unit, U_MODEL_BINS]
    return hists.models[..., 0, start:start + 11]


def test_forced_dice_land_in_the_histograms():
    p = plan()
    out = Histograms.zeros(p)
    scratch = scratch_arrays(p, 1)
    # two automatic hits: wounds 4 and 2 (one wounds), then the save die 5 (Sv7+ fails)
    run_trials(p.kernel_arrays(use_counts=0), scripted_stream([4, 2, 5]), 1, out, scratch,
               p.rare_rules)
    counts = destroyed(p, out)
    assert counts[1] == 1 and counts.sum() == 1


def test_scratch_has_room_for_the_plan():
    p = plan()
    scratch = scratch_arrays(p, 7)
    assert scratch.losses.alive.shape == (p.subs.shape[0],)
    assert scratch.batch.pending_damage.shape == (14,)  # pairs: damage, Feel No Pain column
    assert Histograms.zeros(p, (3,)).models.shape[0] == 3


def test_chunk_c_is_stream_c():
    p = plan()
    streams = seed_streams(9, 4)
    trials = np.array([50, 50, 50, 50], dtype=np.int64)
    out = Histograms.zeros(p, (4,))
    run_chunks(p, streams.copy(), trials, out, 1)
    assert out.models.sum() == 200 * p.checkpoints * p.units.shape[0]
    for c in range(4):
        alone = Histograms.zeros(p)
        run_trials(p.kernel_arrays(), streams[c].copy(), 50, alone, scratch_arrays(p, 1),
                   p.rare_rules)
        assert np.array_equal(alone.models, out.models[c])


def test_the_version_without_the_rare_rules_counts_the_same_bits():
    # A plan that uses none of the rare rules runs the kernel compiled without their code;
    # the kernel with it takes the same branches on such a plan, so the same stream gives the
    # same counts.
    p = plan()
    assert not p.rare_rules
    counts = []
    for rare_rules in (False, True):
        out = Histograms.zeros(p)
        run_trials(p.kernel_arrays(), seed_streams(5, 1)[0], 2_000, out, scratch_arrays(p, 1),
                   rare_rules)
        counts.append(out)
    assert all(np.array_equal(a, b) for a, b in zip(*counts))

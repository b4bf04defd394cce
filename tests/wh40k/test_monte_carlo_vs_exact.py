"""Monte Carlo against the exact engine over a grid that crosses abilities.

For every case: the Monte Carlo mean of each outcome lies within 5 standard errors of the
exact mean, and the whole Monte Carlo histogram passes a chi-square goodness-of-fit test
against the exact pmf (cells with expected count below 5 pooled with their neighbours,
p > 1e-4). Seeds are fixed, so the test is deterministic.
"""

from __future__ import annotations

import numpy as np
import pytest

import mathhammer as mh
from tests.agreement import pooled_chisquare_pvalue

TRIALS = 200_000

CASES = {
    "bolt rifles v guardsmen": (['10x Bolt rifle: 24" A2 BS3+ S4 AP-1 D1 [ASSAULT, HEAVY]'],
                                "10x Guardsman: T3 Sv5+ W1", {"stationary": True}),
    "heavy bolters v MEQ": (['2x Heavy bolter: 36" A3 BS4+ S5 AP-1 D2 [HEAVY, SUSTAINED HITS 1]'],
                            "5x Intercessor: T4 Sv3+ W2", {"stationary": True}),
    "thunder hammers v TEQ": ([("5x Thunder hammer: Melee A3 WS3+ S8 AP-2 D2 "
                                "[DEVASTATING WOUNDS]")], "5x Terminator: T5 Sv2+ InSv4+ W3",
                              {}),
    "sustained+lethal": (["5x A2 BS3+ S5 AP-1 D1 [SUSTAINED HITS 1, LETHAL HITS]"],
                         "10x T5 Sv4+ W1", {}),
    "sustained+lethal, crits 5+": (["5x A2 BS3+ S4 AP0 D2 [SUSTAINED HITS 2, LETHAL HITS]"],
                                   "5x T6 Sv3+ W2", {"crit_hits": 5}),
    "devastating+anti": (["3x A3 BS3+ S4 AP-1 D2 [DEVASTATING WOUNDS, ANTI-INFANTRY 4+]"],
                         "5x T4 Sv3+ W2 [INFANTRY]", {}),
    "devastating, crit wounds 5+, noncrit rerolls": (
        ["4x A3 WS3+ S6 AP-1 DD3 [DEVASTATING WOUNDS]"], "5x T6 Sv2+ InSv4+ W3",
        {"crit_wounds": 5, "reroll_wounds": "noncrit", "reroll_hits": "noncrit"}),
    "melta+halved": (['2x Multi-melta: 18" A2 BS4+ S9 AP-4 DD6 [HEAVY, MELTA 2]'],
                     "T10 Sv3+ W12 [VEHICLE]", {"half_range": True, "damage_halved": True,
                                                "stationary": True}),
    "melta+minus, invuln": (['3x Meltagun: 12" A1 BS3+ S9 AP-4 DD6 [MELTA 2]'],
                            "2x T11 Sv3+ InSv5+ W12", {"half_range": True, "damage_minus": 1}),
    "fnp v bolters": (["10x Bolter: A2 BS3+ S4 AP0 D1"], "10x T4 Sv6+ W1 FNP5+", {}),
    "fnp, D2 v W3": (["4x A3 BS3+ S5 AP-1 D2"], "3x T5 Sv4+ W3 FNP5+", {}),
    "fnp mortal-only + devastating": (["3x A4 BS3+ S4 AP0 D2 [DEVASTATING WOUNDS]"],
                                      "4x T4 Sv3+ W2 FNP6+ FNP4+(mortal)", {"crit_wounds": 5}),
    "random A, blast": (['Battle cannon: 48" AD6+3 BS4+ S10 AP-1 D 3 [BLAST]'],
                        "10x Guardsman: T3 Sv5+ W1", {}),
    "random A and D, fnp": (["2x AD3 BS3+ S6 AP-1 DD3"], "3x T6 Sv3+ W3 FNP6+", {}),
    "thermal cannon": (['Thermal cannon: 24" A2D3 BS3+ S12 AP-4 DD6 [BLAST, MELTA 6]'],
                       "6x T5 Sv2+ InSv4+ W3", {"half_range": True}),
    "two batches carry over": (['10x Bolt rifle: 24" A2 BS3+ S4 AP-1 D1',
                                '2x Heavy bolter: 36" A3 BS4+ S5 AP-1 D2 [SUSTAINED HITS 1]'],
                               "5x Intercessor: T4 Sv3+ W2", {}),
    "supercharged plasma, hazardous": ([('5x Plasma gun: 24" A1 BS3+ S8 AP-3 D2 '
                                         '[RAPID FIRE 1, HAZARDOUS]')], "5x T4 Sv3+ W2",
                                       {"half_range": True}),
    "torrent, twin-linked, cover": ([("3x Flamer: 12\" AD6 BSN/A S4 AP0 D1 "
                                      "[TORRENT, TWIN-LINKED, IGNORES COVER]")],
                                    "10x T3 Sv5+ W1", {"cover": True}),
    "overwatch": (["5x A2 BS3+ S4 AP0 D1 [SUSTAINED HITS 1]"], "10x T4 Sv4+ W1",
                  {"overwatch": True}),
    "indirect": (["2x A6 BS3+ S5 AP0 D1 [INDIRECT FIRE]"], "10x T4 Sv5+ W1",
                 {"indirect": True, "stationary": True, "spotted": True}),
    "cleave, lance, capped mods": (["5x Melee A3 WS3+ S5 AP-1 D1 [CLEAVE 1, LANCE]"],
                                   "20x T4 Sv5+ W1", {"charged": True, "wound_mod": 1,
                                                      "hit_mod": -2}),
    "saves rerolled": (["10x A2 BS3+ S4 AP-1 D1"], "10x T4 Sv3+ W1", {"reroll_saves": "failed"}),
    # large batches: beyond the kernel's count-sampling tables (256 dice), dice by dice
    "horde, sustained 2, random A": (["10x AD6+3 BS4+ S5 AP0 D1 [SUSTAINED HITS 2]"],
                                     "20x T4 Sv5+ W1", {}),
    "300 attacks": (["30x Melee A10 WS3+ S4 AP0 D1"], "40x T4 Sv4+ W1", {}),
    "lascannons v vehicle": (["10x Lascannon: 48\" A1 BS3+ S12 AP-3 DD6+1"],
                             "T10 Sv3+ W12 [VEHICLE]", {}),
    # engine switches away from their defaults
    "sustained extra hits critical + lethal": (
        ["5x A2 BS3+ S4 AP0 D1 [SUSTAINED HITS 2, LETHAL HITS]"], "10x T8 Sv5+ W1",
        {"sustained_extra_are_crit": True}),
    "torrent in snap shooting rolls": (["3x AD6 BSN/A S4 AP0 D1 [TORRENT]"], "10x T4 Sv- W1",
                                       {"overwatch": True, "torrent_in_snap": False}),
    "indirect, crits 5+ beat the fail": (["3x A3 BS3+ S5 AP0 D2 [INDIRECT FIRE]"],
                                         "5x T4 Sv4+ W2",
                                         {"indirect": True, "crit_hits": 5,
                                          "indirect_fail_beats_crit": False}),
    "devastating at unit end, halving on target": (
        ["5x A2 BS3+ S5 AP-1 DD3+1 [DEVASTATING WOUNDS]"], "5x T5 Sv3+ W3 FNP5+",
        {"dw_timing": "unit_end", "crit_wounds": 5, "damage_halved": True,
         "damage_mod_trigger": "target"}),
    "lethal ev, W cap": (["5x A2 BS3+ S4 AP0 D4 [LETHAL HITS, DEVASTATING WOUNDS]"],
                         "5x T4 Sv3+ W2", {"lethal_policy": "ev", "damage_halved": True}),
    # 10th edition (spec Appendix A)
    "10e cover, stealth, save cap": (['10x Bolt rifle: 24" A2 BS3+ S4 AP-1 D1'],
                                     "10x T3 Sv5+ W1 [STEALTH]",
                                     {"edition": 10, "cover": True, "save_mod": 1}),
    "10e devastating after both batches": (
        ["5x Thunder hammer: Melee A3 WS3+ S8 AP-2 D2 [DEVASTATING WOUNDS]",
         "5x Power fist: Melee A3 WS3+ S8 AP-2 D2"], "5x T5 Sv2+ InSv4+ W3",
        {"edition": 10, "crit_wounds": 5}),
    "10e devastating launch text spills": (
        ["3x A3 BS3+ S4 AP-1 DD3+1 [DEVASTATING WOUNDS]", "4x A2 BS3+ S4 AP0 D1"],
        "5x T4 Sv3+ W2 FNP5+(mortal)",
        {"edition": 10, "devastating_text": "launch", "crit_wounds": 5}),
    "10e devastating, defender -1 damage": (
        ["3x A3 BS3+ S4 AP-1 D 3 [DEVASTATING WOUNDS, ANTI-INFANTRY 4+]"],
        "5x T4 Sv3+ W3 [INFANTRY]", {"edition": 10, "damage_minus": 1}),
    "10e lethal mandatory": (["5x A2 BS3+ S5 AP-1 D1 [SUSTAINED HITS 1, LETHAL HITS]"],
                             "10x T6 Sv4+ W1", {"edition": 10, "lethal_policy": "never"}),
    "10e indirect with re-rolls": (["2x A6 BS3+ S5 AP0 D1 [INDIRECT FIRE]"], "10x T4 Sv5+ W1",
                                   {"edition": 10, "indirect": True, "reroll_hits": "ones"}),
    "10e melta order": (['2x Multi-melta: 18" A2 BS4+ S9 AP-4 DD6 [HEAVY, MELTA 2]'],
                        "T10 Sv3+ W12 [VEHICLE]", {"edition": 10, "half_range": True,
                                                    "damage_halved": True, "damage_minus": 1}),
    "10e hazardous plasma": ([('5x Plasma gun: 24" A1 BS3+ S8 AP-3 D2 '
                               '[RAPID FIRE 1, HAZARDOUS]')], "5x T4 Sv3+ W2",
                             {"edition": 10, "half_range": True}),
    "10e conversion beyond 12": (['3x Beamer: 48" A2 BS3+ S6 AP-1 D2 [CONVERSION, LETHAL HITS]'],
                                 "5x T8 Sv3+ W3", {"edition": 10, "beyond_12": True}),
    "10e overwatch re-rolls": (["5x A2 BS3+ S4 AP0 D1 [SUSTAINED HITS 1]"], "10x T4 Sv4+ W1",
                               {"edition": 10, "overwatch": True, "reroll_hits": "failed"}),
    # Damage and Attacks re-rolls, random [BLAST X] and [MELTA X]
    "multi-melta D6, damage reroll low": (['2x Multi-melta: 18" A2 BS4+ S9 AP-4 DD6 [MELTA D6]'],
                                          "T10 Sv3+ W16 FNP6+",
                                          {"half_range": True, "reroll_damage": "low"}),
    "blast D3, attacks reroll ones": (['Battle cannon: 48" AD6+3 BS4+ S10 AP-1 D 3 [BLAST D3]'],
                                      "10x Guardsman: T3 Sv5+ W1", {"reroll_attacks": "ones"}),
    "damage reroll ones, devastating, fnp": (
        ["3x A2 BS3+ S5 AP-1 DD3 [DEVASTATING WOUNDS]"], "5x T5 Sv3+ W3 FNP5+",
        {"reroll_damage": "ones", "crit_wounds": 5}),
}


@pytest.mark.parametrize("name", list(CASES))
def test_monte_carlo_agrees_with_exact(name: str) -> None:
    lines, target, options = CASES[name]
    seed = 1000 + list(CASES).index(name)
    mc = mh.simulate(lines, target, trials=TRIALS, seed=seed, **options)
    ex = mh.exact(lines, target, **options)
    assert set(mc.distributions) == set(ex.distributions)
    for outcome in ex.distributions:
        exact_p = ex.distributions[outcome].probabilities
        mc_p = mc.distributions[outcome].probabilities
        size = max(len(exact_p), len(mc_p))
        exact_p = np.pad(exact_p, (0, size - len(exact_p)))
        counts = np.rint(np.pad(mc_p, (0, size - len(mc_p))) * TRIALS)
        assert counts.sum() == TRIALS
        # an outcome the exact engine calls impossible must never happen
        assert not np.any((exact_p == 0) & (counts > 0)), outcome
        stderr = mc.stderr(outcome)
        if stderr > 0:
            assert abs(mc.mean(outcome) - ex.mean(outcome)) < 5 * stderr, outcome
        else:
            assert mc.mean(outcome) == pytest.approx(ex.mean(outcome), abs=1e-12)
        assert pooled_chisquare_pvalue(counts, exact_p * TRIALS) > 1e-4, outcome
    p = ex.probability("unit_destroyed")
    assert abs(mc.probability("unit_destroyed") - p) < 5 * np.sqrt(p * (1 - p) / TRIALS) \
        + 1 / TRIALS

"""The exact engine against brute-force enumeration of the reference resolver.

:func:`tests.wh40k.oracle.reference_pmfs` walks every dice path of a plain,
independent resolver written from the rules reference; each path has probability
``6 ** -dice``. The exact engine (generating functions and a Markov chain) must give the same
pmfs to 1e-12 on every case. Cases are kept tiny (a handful of dice per path) because the
enumeration is exponential.
"""

from __future__ import annotations

import pytest

import mathhammer as mh
from tests.wh40k.oracle import reference_pmfs
from mathhammer.wh40k.parse import parse_target, parse_weapon

CASES = {
    "sustained+lethal": (["A2 BS3+ S4 AP0 D1 [SUSTAINED HITS 1, LETHAL HITS]"],
                         "3x T4 Sv- W1", {}),
    "sustained+lethal, saves": (["A1 BS3+ S4 AP0 D1 [SUSTAINED HITS 1, LETHAL HITS]"],
                                "2x T4 Sv4+ W1", {}),
    "crit-hits-5+ sustained": (["A1 BS4+ S4 AP0 D1 [SUSTAINED HITS 1]"], "3x T4 Sv5+ W1",
                               {"crit_hits": 5}),
    "crit-wounds-5+ devastating": (["A2 BS3+ S5 AP-1 D2 [DEVASTATING WOUNDS]"],
                                   "2x T4 Sv3+ W3", {"crit_wounds": 5}),
    "devastating+anti": (["A2 BS3+ S4 AP-1 D 3 [DEVASTATING WOUNDS, ANTI-INFANTRY 4+]"],
                         "2x T4 Sv3+ W2 [INFANTRY]", {}),
    "lethal+devastating": (["A2 BS3+ S4 AP0 D2 [LETHAL HITS, DEVASTATING WOUNDS]"],
                           "2x T5 Sv4+ W2", {}),
    "lethal never+devastating": (["A2 BS3+ S4 AP0 D2 [LETHAL HITS, DEVASTATING WOUNDS]"],
                                 "2x T5 Sv4+ W2", {"lethal_policy": "never"}),
    "reroll noncrit hits + sustained 2": (["A1 BS3+ S4 AP0 D1 [SUSTAINED HITS 2]"],
                                          "4x T4 Sv- W1", {"reroll_hits": "noncrit"}),
    "reroll noncrit wounds + devastating": (["A1 BS3+ S4 AP0 D2 [DEVASTATING WOUNDS]"],
                                            "2x T4 Sv4+ W2", {"reroll_wounds": "noncrit"}),
    "melta+halved+minus": (["A1 BS3+ S9 AP-4 DD6 [MELTA 2]"], "2x T10 Sv3+ InSv5+ W4",
                           {"half_range": True, "damage_halved": True, "damage_minus": 1}),
    "fnp": (["A1 BS3+ S5 AP0 D 3"], "2x T4 Sv5+ W2 FNP5+", {}),
    "fnp mortal-only + devastating": (["A1 BS3+ S4 AP0 D 3 [DEVASTATING WOUNDS]"],
                                      "2x T4 Sv4+ W2 FNP6+ FNP4+(mortal)", {"crit_wounds": 4}),
    "random A": (["AD3 BSN/A S4 AP0 D1 [TORRENT]"], "3x T4 Sv4+ W1", {}),
    "random D": (["A1 BS3+ S4 AP-1 DD3+1"], "2x T4 Sv3+ W3", {}),
    "random A and D": (["AD3 BSN/A S8 AP0 DD3 [TORRENT]"], "2x T4 Sv- W2", {}),
    "two batches carry over": (["A1 BS3+ S4 AP0 D2", "A2 BS3+ S4 AP0 D1"], "2x T4 Sv- W3",
                               {}),
    "torrent+twin-linked": (["A2 BSN/A S4 AP0 D1 [TORRENT, TWIN-LINKED]"], "3x T4 Sv4+ W1",
                            {}),
    "blast": (["A1 BS3+ S4 AP0 D1 [BLAST]"], "5x T4 Sv6+ W1", {}),
    "rapid fire at half range": (["A1 BS3+ S4 AP0 D1 [RAPID FIRE 1]"], "3x T3 Sv5+ W1",
                                 {"half_range": True}),
    "hazardous monster": (["A1 BS3+ S8 AP-3 D2 [HAZARDOUS]"], "T4 Sv3+ W2",
                          {"attacker_monster_vehicle": True}),
    "indirect spotted": (["A2 BS3+ S5 AP0 D1 [INDIRECT FIRE]"], "3x T4 Sv5+ W1",
                         {"indirect": True, "stationary": True, "spotted": True,
                          "reroll_hits": "failed"}),
    "overwatch crit 5+": (["A2 BS3+ S4 AP0 D1 [SUSTAINED HITS 1]"], "3x T4 Sv- W1",
                          {"overwatch": True, "crit_hits": 5}),
    "heavy + hit mod capped, cover": (["A2 BS4+ S4 AP0 D1 [HEAVY]"], "3x T4 Sv5+ W1",
                                      {"stationary": True, "hit_mod": 1, "cover": True}),
    "lance + wound mod, reroll ones": (["Melee A2 WS3+ S4 AP-1 D1 [LANCE]"], "2x T4 Sv- W1",
                                       {"charged": True, "wound_mod": 1,
                                        "reroll_hits": "ones"}),
    "defender rerolls failed saves": (["A1 BS3+ S4 AP-1 D2"], "2x T4 Sv3+ W1",
                                      {"reroll_saves": "failed"}),
    "sustained D3": (["A1 BS3+ S4 AP0 D1 [SUSTAINED HITS D3]"], "3x T4 Sv- W1",
                     {"crit_hits": 5}),
    "dw vs halving, always": (["A1 BS3+ S4 AP0 D4 [DEVASTATING WOUNDS]"], "2x T4 Sv4+ W3",
                              {"damage_halved": True, "defender_dmg_mods_vs_dw": "always",
                               "crit_wounds": 5}),
    "psychic drops cover and -1": (["A2 BS4+ S4 AP0 D1 [PSYCHIC]"], "3x T4 Sv5+ W1",
                                   {"cover": True, "hit_mod": -1}),
    "ranged-only invuln vs melee": (["Melee A2 WS3+ S6 AP-3 D1"],
                                    "2x T5 Sv3+ InSv4+(ranged) W1", {}),
    "ap, skill and strength mods": (["A2 BS4+ S4 AP0 D1"], "3x T5 Sv4+ W1",
                                    {"ap_mod": 1, "skill_mod": 1, "strength_mod": 2}),
    # engine switches of spec section 10, each away from its default
    "sustained extra hits critical + lethal": (
        ["A1 BS3+ S4 AP0 D1 [SUSTAINED HITS 1, LETHAL HITS]"], "3x T8 Sv- W1",
        {"sustained_extra_are_crit": True}),
    "torrent not in snap shooting": (["A2 BSN/A S4 AP0 D1 [TORRENT]"], "3x T4 Sv- W1",
                                     {"overwatch": True, "torrent_in_snap": False}),
    "indirect fail does not beat crit 5+": (["A2 BS3+ S5 AP0 D1 [INDIRECT FIRE]"],
                                            "3x T4 Sv- W1",
                                            {"indirect": True, "crit_hits": 5,
                                             "indirect_fail_beats_crit": False}),
    "no roll modifier cap": (["A2 BS5+ S4 AP0 D1"], "3x T5 Sv- W1",
                             {"hit_mod": 2, "wound_mod": 2, "roll_mod_cap": False}),
    "defender mods on dw by trigger": (["A1 BSN/A S4 AP0 D4 [TORRENT, DEVASTATING WOUNDS]"],
                                       "2x T4 Sv5+ W3", {"damage_halved": True,
                                                         "damage_minus": 1, "crit_wounds": 5,
                                                         "damage_mod_trigger": "target"}),
    "dw at unit end, one batch": (["A2 BSN/A S4 AP0 D2 [TORRENT, DEVASTATING WOUNDS]"],
                                  "2x T4 Sv- W3", {"dw_timing": "unit_end", "crit_wounds": 5}),
    "stealth, psychic, hazardous x2": (["2x A1 BS4+ S4 AP0 D1 [PSYCHIC, HAZARDOUS]"],
                                       "2x T4 Sv- W1 [STEALTH]", {"hit_mod": 1}),
    "two batches, devastating first": (["A1 BSN/A S4 AP0 D 3 [TORRENT, DEVASTATING WOUNDS]",
                                        "A2 BSN/A S4 AP0 D1 [TORRENT]"], "2x T4 Sv- W2",
                                       {"crit_wounds": 5}),
    "hazard rolled after a wipe": (["A1 BSN/A S8 AP0 D1 [TORRENT]",
                                    "A1 BS3+ S4 AP0 D1 [HAZARDOUS]"], "T4 Sv- W1", {}),
    # Damage and Attacks re-rolls, random [BLAST X] and [MELTA X]
    "damage reroll ones": (["A1 BS3+ S4 AP0 DD3"], "2x T4 Sv5+ W2", {"reroll_damage": "ones"}),
    "damage reroll low, fnp": (["A1 BSN/A S4 AP0 DD3+1 [TORRENT]"], "T4 Sv- W4 FNP5+",
                               {"reroll_damage": "low"}),
    "attacks reroll low": (["AD3 BSN/A S4 AP0 D1 [TORRENT]"], "3x T4 Sv4+ W1",
                           {"reroll_attacks": "low"}),
    "attacks reroll ones": (["AD3 BSN/A S8 AP0 D1 [TORRENT]"], "2x T4 Sv- W1",
                            {"reroll_attacks": "ones"}),
    "blast D3": (["A1 BSN/A S4 AP0 D1 [BLAST D3, TORRENT]"], "5x T4 Sv- W1", {}),
    "cleave D3+1": (["A1 BSN/A S4 AP0 D1 [CLEAVE D3+1, TORRENT]"], "5x T4 Sv- W1", {}),
    # fixed [BLAST 1] beside a random [CLEAVE D3]: both bonuses add up on one weapon (with
    # two random ones the enumeration walks 1.6 million dice paths, 45 s for one test)
    "blast 1 and cleave D3": (["A1 BSN/A S4 AP0 D1 [BLAST 1, CLEAVE D3, TORRENT]"],
                              "5x T4 Sv- W2", {}),
    "melta D3, damage reroll, devastating": (
        ["A1 BS3+ S4 AP0 DD3 [MELTA D3, DEVASTATING WOUNDS]"], "2x T4 Sv4+ W3",
        {"half_range": True, "reroll_damage": "ones", "crit_wounds": 5}),
    "psychic fnp, mortal fnp, devastating": (
        ["A1 BSN/A S4 AP0 D2 [TORRENT, PSYCHIC, DEVASTATING WOUNDS]"],
        "2x T4 Sv5+ W2 FNP6+ FNP5+(mortal) FNP4+(psychic)", {"crit_wounds": 5}),
    "psychic fnp, not psychic, then psychic": (
        ["A1 BSN/A S4 AP0 D2 [TORRENT]", "A1 BSN/A S4 AP0 D2 [TORRENT, PSYCHIC]"],
        "2x T4 Sv- W2 FNP5+ FNP3+(psychic)", {}),
    "10e melta D3 halved: D halved before X is added": (
        ["A1 BSN/A S8 AP0 DD3 [MELTA D3, TORRENT]"], "2x T4 Sv- W4",
        {"half_range": True, "damage_halved": True, "edition": 10}),
}


def _dense(pmf: dict, length: int) -> list[float]:
    return [float(pmf.get(k, 0)) for k in range(length)]


@pytest.mark.parametrize("name", list(CASES))
def test_exact_matches_bruteforce(name: str) -> None:
    lines, target_line, options = CASES[name]
    weapons = [parse_weapon(line) for line in lines]
    target = parse_target(target_line)
    expected = reference_pmfs(weapons, target, **options)
    result = mh.exact(weapons, target, **options)
    outcomes = ["damage", "models_destroyed"]
    if "attacker_mortal_wounds" in result.distributions:
        outcomes.append("attacker_mortal_wounds")
    for outcome in outcomes:
        got = list(result.distributions[outcome].probabilities)
        length = max(len(got), max(expected[outcome]) + 1)
        got += [0.0] * (length - len(got))
        assert got == pytest.approx(_dense(expected[outcome], length), abs=1e-12, rel=0), \
            outcome

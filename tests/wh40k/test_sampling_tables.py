"""The Monte Carlo kernel's sampling tables and shortcuts (wh40k/sampling_tables.py)."""

import numpy as np
import pytest

from mathhammer.wh40k.plan_columns import (A_CONST, A_COUNT, A_SIDES, AUTO_HIT, BATCH_COLUMNS,
                                           CHAIN, CHAIN_KILLS, CHAIN_SPLIT, CHAIN_SUSTAINED,
                                           D_CONST, D_COUNT, D_SIDES, D_TABLE,
                                           DAMAGE_RECIPROCAL, DEVASTATING, DICE_TABLE,
                                           FIXED_DAMAGE, FIXED_DICE, FNP_COLUMN,
                                           FNP_MORTAL_COLUMN, G_FNP, G_FNP_MORTAL, G_WOUNDS,
                                           KILL_RECIPROCAL, LETHAL, N_WEAPONS, NO_CHAIN, NO_FNP,
                                           SUS_CONST, SUS_COUNT)
from mathhammer.wh40k.sampling_tables import batch_shortcuts as _batch_shortcuts
from mathhammer.wh40k.sampling_tables import split_probabilities, table_size


def row(**fields):
    out = [0] * BATCH_COLUMNS
    names = {"n": N_WEAPONS, "a_const": A_CONST, "a_count": A_COUNT, "a_sides": A_SIDES,
             "dev": DEVASTATING, "lethal": LETHAL, "sus_const": SUS_CONST,
             "sus_count": SUS_COUNT, "auto_hit": AUTO_HIT, "fnp_column": FNP_COLUMN,
             "fnp_mortal_column": FNP_MORTAL_COLUMN, "d_const": D_CONST, "d_count": D_COUNT,
             "d_sides": D_SIDES, "d_table": D_TABLE}
    for name, value in fields.items():
        out[names[name]] = value
    return out


def groups(wounds=2, fnp=NO_FNP, count=1, fnp_mortal=NO_FNP):
    out = np.zeros((count, 8), dtype=np.int64)
    out[:, G_WOUNDS] = wounds
    out[:, G_FNP] = fnp
    out[:, G_FNP_MORTAL] = fnp_mortal
    return out


def batch_shortcuts(rows, target, limit, damage_maps=None, mortals_at_once=True):
    """The function under test, with damage maps that change nothing unless given."""
    if damage_maps is None:
        damage_maps = np.tile(np.arange(13), (len(rows), 2, 1))
    return _batch_shortcuts(rows, target, limit, damage_maps, mortals_at_once)


def test_table_size_covers_the_largest_pool():
    # 5 weapons of A2 = 10 dice; with [SUSTAINED HITS 1] each may become 2 wound dice
    assert table_size([row(n=5, a_const=2), row(n=5, a_const=2, sus_const=1)]) == 20
    assert table_size([row(n=1000, a_const=10)]) == 256  # capped at the table limit


def test_split_probabilities():
    # per attack die: hit 1/2 (not critical), critical hit 1/6, wound 1/3, critical wound
    # 1/6, save fails 1/2
    hit, crit, wound, crit_wound, failed = 1 / 2, 1 / 6, 1 / 3, 1 / 6, 1 / 2
    plain = split_probabilities(row(), hit, crit, wound, crit_wound, failed)
    assert plain == pytest.approx((0.0, (2 / 3) * (1 / 2) * (1 / 2)))
    dev = split_probabilities(row(dev=1), hit, crit, wound, crit_wound, failed)
    assert dev == pytest.approx(((2 / 3) * (1 / 6), (2 / 3) * (1 / 3) * (1 / 2)))
    # [LETHAL HITS]: a critical hit wounds automatically (a save, never a critical wound)
    lethal = split_probabilities(row(lethal=1), hit, crit, wound, crit_wound, failed)
    assert lethal == pytest.approx((0.0, (1 / 6 + (1 / 2) * (1 / 2)) * (1 / 2)))


def test_batch_shortcuts():
    fixed, random = row(n=2, a_const=3), row(n=1, a_count=1, a_sides=6)
    out = batch_shortcuts([fixed, random], groups(), 256)
    assert out[:, FIXED_DICE].tolist() == [6, -1]
    assert out[1, DICE_TABLE] == 1
    assert out[:, CHAIN].tolist() == [CHAIN_SPLIT, CHAIN_SPLIT]
    # one-wound models with Feel No Pain and fixed damage: models killed in one draw
    kills = batch_shortcuts([row(n=2, a_const=3, fnp_column=G_FNP)], groups(1, fnp=5), 256)
    assert kills[0, CHAIN] == CHAIN_KILLS
    sustained = batch_shortcuts([row(n=2, a_const=3, sus_const=1)], groups(), 256)
    assert sustained[0, CHAIN] == CHAIN_SUSTAINED
    # several allocation groups: saves differ between them, no chain
    assert batch_shortcuts([fixed], groups(count=2), 256)[0, CHAIN] == NO_CHAIN


def test_fixed_damage_only_where_every_failure_and_mortal_wound_does_the_same():
    plain = dict(n=5, a_const=3, d_const=2, fnp_column=G_FNP, fnp_mortal_column=G_FNP_MORTAL)

    def fixed_damage(target=None, damage_maps=None, mortals_at_once=True, **changes):
        one = row(**{**plain, **changes})
        return int(batch_shortcuts([one], groups(3) if target is None else target, 256,
                                   damage_maps, mortals_at_once)[0, FIXED_DAMAGE])

    assert fixed_damage() == 2
    assert fixed_damage(dev=1) == 2                                # D2 mortal wounds too
    assert fixed_damage(d_count=1, d_sides=3) == 0                 # random damage
    assert fixed_damage(d_table=1) == 0                            # a damage roll to draw
    assert fixed_damage(target=groups(3, fnp=5)) == 0              # Feel No Pain
    assert fixed_damage(target=groups(3, fnp_mortal=5)) == 2       # ... against mortals only
    assert fixed_damage(target=groups(3, fnp_mortal=5), dev=1) == 0
    assert fixed_damage(dev=1, mortals_at_once=False) == 0         # held, or spilling over
    assert fixed_damage(mortals_at_once=False) == 2
    reduced = np.tile(np.arange(13), (1, 2, 1))
    reduced[0, 0, 2:] -= 1                                         # -1 Damage, not to mortals
    assert fixed_damage(damage_maps=reduced) == 1
    assert fixed_damage(damage_maps=reduced, dev=1) == 0
    assert fixed_damage(target=groups(3, count=2)) == 0            # two allocation groups


def test_the_reciprocals_only_for_damage_below_w_and_small_numbers():
    def columns(wounds, damage):
        one = row(n=5, a_const=3, d_const=damage, fnp_column=G_FNP)
        out = batch_shortcuts([one], groups(wounds), 256,
                              np.tile(np.arange(damage + 1), (1, 2, 1)))
        return out[0, [FIXED_DAMAGE, DAMAGE_RECIPROCAL, KILL_RECIPROCAL]].tolist()

    assert columns(3, 2) == [2, 2 ** 31, 2 ** 31]            # two attacks a model
    assert columns(10, 3) == [3, 1431655766, 2 ** 30]        # ceil(2**32 / 3); 4 attacks
    assert columns(2, 2) == [2, 0, 0] and columns(1, 3) == [3, 0, 0]   # a model an attack
    assert columns(2 ** 16 - 3, 3) == [3, 0, 0]              # past 2**16: it divides


def test_multiplying_by_the_reciprocal_divides_exactly_below_2_16():
    # x * ceil(2**32 / n) >> 32 == x // n for every n < 2**16 at the x < 2**16 where the
    # rounding of the reciprocal weighs most (the largest x of remainder n - 1), and 2**16 - 1
    n = np.arange(1, 2 ** 16, dtype=np.int64)
    reciprocal = -(-2 ** 32 // n)
    for x in ((2 ** 16 - 1) // n * n - 1, np.full_like(n, 2 ** 16 - 1), n - 1, n, 2 * n - 1):
        ok = (x >= 0) & (x < 2 ** 16)
        assert ((x * reciprocal >> 32) == x // n)[ok].all()
    # the bound matters: far past it the same reciprocals fail
    far = (2 ** 24 - 1) // n * n - 1
    assert not ((far * reciprocal >> 32) == far // n).all()

"""Focus and fury: compare ways of spending k points, and count attacks needed to kill.

A :class:`FocusPolicy` is a fixed spending plan for one attacking model: boost the attack
rolls of its first ``boost_attacks`` attacks, keep ``boost_damage`` points for damage boosts
(spent only on hits, first hits first), and buy ``buy_attacks`` extra attacks. Each policy
becomes an ordinary attack line (``ATTACK BOOSTS``, ``DAMAGE BOOSTS``, more attacks), so the
comparison runs on the same engines as everything else.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from mathhammer.core.inputs import refuse_unordered, whole_number
from mathhammer.core.limits import MAX_NUMBER
from mathhammer.core import game as contract
from mathhammer.core.game import Cell, SeedLike
from mathhammer.core.signatures import AUTO, check_method, old_spellings
from mathhammer.core.result import EXACT, Distribution, Result
from mathhammer.core.trials import DEFAULT_GRID_TRIALS
from mathhammer.errors import OptionError, UnsupportedError
from mathhammer.warmachine.api import GAME, AttackLike, TargetLike, as_attacks, as_targets, plan
from mathhammer.warmachine.comparisons import target_label
from mathhammer.warmachine.exact_engine import Chain
from mathhammer.warmachine.profiles import Attack, Rules

#: The attacks-to-kill series stops once P(target still standing) falls below this.
SURVIVAL_TOLERANCE = 1e-12
MAX_ATTACKS_TO_KILL = 10_000


@dataclass(frozen=True, slots=True)
class FocusPolicy:
    """How one model spends its focus or fury on one weapon's attacks.

    Parameters
    ----------
    boost_attacks
        Boost the attack rolls of this many attacks (the first ones, bought attacks last).
    boost_damage
        Points kept for damage boosts, spent on the first hits whose damage is not boosted
        already (a charge attack's damage is).
    buy_attacks
        Extra attacks bought, made after the initial ones.
    """

    boost_attacks: int = 0
    boost_damage: int = 0
    buy_attacks: int = 0

    def __post_init__(self) -> None:
        for name in ("boost_attacks", "boost_damage", "buy_attacks"):
            if getattr(self, name) < 0:
                raise OptionError(f"{name} = {getattr(self, name)} must not be negative")

    @property
    def points(self) -> int:
        """Points committed (damage boosts may stay unspent)."""
        return self.boost_attacks + self.boost_damage + self.buy_attacks

    @property
    def name(self) -> str:
        parts = []
        for count, text in ((self.boost_attacks, "boost attack"),
                            (self.boost_damage, "boost damage"),
                            (self.buy_attacks, "buy attack")):
            if count:
                parts.append(text if count == 1 else f"{count}x {text}")
        return " + ".join(parts) if parts else "no spend"

    def apply(self, attack: Attack) -> Attack:
        """The attack line this policy turns ``attack`` into."""
        count = attack.count + self.buy_attacks
        if self.boost_attacks > count:
            raise OptionError(f"cannot boost {self.boost_attacks} attack rolls with only "
                              f"{count} attacks")
        if attack.boosted_attack and self.boost_attacks:
            raise OptionError("the weapon's attack rolls are boosted already")
        return replace(attack, count=count, attack_boosts=self.boost_attacks,
                       damage_boosts=attack.damage_boosts + self.boost_damage)


def focus_policies(points: int, attacks: int = 1) -> list[FocusPolicy]:
    """Every way to commit at most ``points`` points to one weapon with ``attacks`` attacks.

    A roll is boosted at most once, so neither kind of boost exceeds the number of attacks.

    Examples
    --------
    >>> [p.name for p in focus_policies(1)]
    ['no spend', 'boost damage', 'boost attack', 'buy attack']
    """
    points = whole_number(points, "points (focus or fury to spend)", 0, MAX_FOCUS)
    attacks = whole_number(attacks, "attacks (of the weapon)", 1, MAX_NUMBER)
    out = []
    for total in range(points + 1):
        for buy, boost_a in itertools.product(range(total + 1), repeat=2):
            boost_d = total - buy - boost_a
            if 0 <= boost_d <= attacks + buy and boost_a <= attacks + buy:
                out.append(FocusPolicy(boost_a, boost_d, buy))
    return out


#: Most focus or fury :func:`compare_focus` spends (a caster holds a handful; each point
#: multiplies the policies to compare).
MAX_FOCUS = 30


@old_spellings(positional=("rules", "method"))
def compare_focus(attack: AttackLike, target: TargetLike, points: int, *,
                  rules: Rules | None = None, method: str = AUTO,
                  trials: int = DEFAULT_GRID_TRIALS, seed: SeedLike = 1,
                  policies: list[FocusPolicy] | None = None,
                  progress: bool | None = None) -> pd.DataFrame:
    """Rank ways of spending ``points`` focus/fury on one weapon against one target.

    A ranking read from :func:`focus_frame`, the policies as cells of core's comparison
    (:func:`mathhammer.core.game.compare`), every cell on the same dice (common random
    numbers, so the ranking is not noise).

    Parameters
    ----------
    attack, target
        One attack line (its ``count`` initial attacks) and the target unit.
    points
        Focus or fury available; policies commit up to this many.
    method
        ``"auto"`` (default; exact where the exact engine can follow the attacks),
        ``"exact"`` or ``"monte-carlo"``.
    trials, seed
        Monte Carlo trials per policy and the seed every policy's run starts from.
    policies
        Policies to compare (default: all of :func:`focus_policies`).
    progress
        A progress bar on stderr, one step per policy, when the comparison runs longer than
        about 2 s: ``None`` (default) when stderr is a terminal or in a notebook,
        ``True``/``False`` to force it. It never changes the table.

    Returns
    -------
    pandas.DataFrame
        One row per policy, sorted by P(kill) then E[damage] (best first): ``policy``,
        ``boost_attacks``, ``boost_damage``, ``buy_attacks``, ``mean_damage``, ``p_kill``,
        ``expected_spent``, ``expected_unspent``, ``rank_p_kill``, ``rank_damage``.

    Examples
    --------
    >>> table = compare_focus("Fist: MAT6 POW12", "Jack: DEF13 ARM14 BOXES30", points=1)
    >>> list(table["policy"])
    ['buy attack', 'boost damage', 'boost attack', 'no spend']
    >>> round(float(table["mean_damage"].iloc[0]), 4)  # two attacks: 2 * 21/36 * 5
    5.8333
    """
    frame = focus_frame(attack, target, points, rules=rules, method=method, trials=trials,
                        seed=seed, policies=policies, progress=progress)
    value = frame.set_index(["attacker", "metric"])["value"]
    rows = []
    for label, cell in frame.groupby("attacker", sort=False):
        first = cell.iloc[0]
        on_damage = value.get((label, "expected_boosts_spent"), 0.0)
        spent = int(first["boost_attacks"]) + int(first["buy_attacks"]) + on_damage
        rows.append({"policy": first["policy"], "points": int(first["points"]),
                     "boost_attacks": int(first["boost_attacks"]),
                     "boost_damage": int(first["boost_damage"]),
                     "buy_attacks": int(first["buy_attacks"]),
                     "mean_damage": value[(label, "expected_damage")],
                     "p_kill": value[(label, "p_unit_destroyed")],
                     "expected_spent": spent,
                     "expected_unspent": int(first["points"]) - spent})
    table = pd.DataFrame(rows)
    table["rank_p_kill"] = table["p_kill"].rank(ascending=False, method="min").astype(int)
    table["rank_damage"] = table["mean_damage"].rank(ascending=False, method="min").astype(int)
    return table.sort_values(["p_kill", "mean_damage"], ascending=False,
                             kind="stable").reset_index(drop=True)


@old_spellings(positional=("rules", "method"))
def focus_frame(attack: AttackLike, target: TargetLike, points: int, *,
                rules: Rules | None = None, method: str = AUTO,
                trials: int = DEFAULT_GRID_TRIALS, seed: SeedLike = 1,
                policies: list[FocusPolicy] | None = None,
                progress: bool | None = None) -> pd.DataFrame:
    """The focus policies of :func:`compare_focus` as the tidy frame every game returns.

    One cell per policy (``attacker`` is the policy's name, numbered if it repeats), with
    setting columns ``policy``, ``points``, ``boost_attacks``, ``boost_damage`` and
    ``buy_attacks``; metrics as :func:`mathhammer.warmachine.comparisons.compare`.
    """
    points = whole_number(points, "points (focus or fury to spend)", 0, MAX_FOCUS)
    base = _one_attack(attack)
    targets = as_targets(target)
    method = check_method(method)
    chosen = _policies(policies) if policies is not None else \
        focus_policies(points, base.count)
    label = target_label(targets)
    labels = contract.labelled([p.name for p in chosen], (), "give at least one policy", str)
    cells = [Cell(name, label, [policy.apply(base)], targets, {"rules": rules},
                  {"policy": policy.name, "points": policy.points,
                   "boost_attacks": policy.boost_attacks, "boost_damage": policy.boost_damage,
                   "buy_attacks": policy.buy_attacks})
             for (name, _), policy in zip(labels, chosen)]
    return contract.compare(GAME, cells, method=method, trials=trials, seed=seed,
                            progress=progress, common_random_numbers=True,
                            describe="focus policies", unit="policy")


def attacks_to_kill(attack: AttackLike, target: TargetLike, rules: Rules | None = None
                    ) -> Result:
    """Distribution of the number of attacks needed to destroy every model of ``target``.

    The attacks are i.i.d. copies of one attack of ``attack`` (no charge bonus; damage boosts
    are per attack). The exact chain runs until P(still standing) < ``SURVIVAL_TOLERANCE``;
    the mean is ``sum_k P(still standing after k attacks)`` over the same range.

    Returns
    -------
    Result
        Exact result with the distribution ``attacks``.

    Raises
    ------
    UnsupportedError
        When the attack can never finish the target (or needs more than 10,000 attacks).

    Examples
    --------
    >>> r = attacks_to_kill("Sword: MAT6 POW10", "Solo: DEF13 ARM13 BOXES1")
    >>> round(r.mean("attacks"), 4)  # 1 / (21/36 * 33/36) = 144/77
    1.8701
    """
    single = replace(_one_attack(attack), count=1, charge=False)
    compiled = plan([single], target, rules)
    chain = Chain(compiled)
    dist = chain.initial()
    row = compiled.rows[0]
    pmf = [0.0]
    standing = 1.0
    while standing >= SURVIVAL_TOLERANCE:
        if len(pmf) > MAX_ATTACKS_TO_KILL:
            raise UnsupportedError(f"'{single}' needs more than {MAX_ATTACKS_TO_KILL:,} "
                                   "attacks (or can never destroy the target)")
        dist = chain.step(dist, row)
        killed = sum(p for s, p in dist.items() if chain.all_destroyed(s))
        dist = {s: p for s, p in dist.items() if not chain.all_destroyed(s)}
        pmf.append(killed)
        new_standing = sum(dist.values())
        if killed == 0 and abs(new_standing - standing) < 1e-15 and len(pmf) > 50 \
                and _stuck(chain, dist, row):
            raise UnsupportedError(f"'{single}' can never destroy the target")
        standing = new_standing
    return Result(method=EXACT,
                  distributions={"attacks": Distribution.from_pmf(np.array(pmf))},
                  inputs={"attack": str(single), "targets": [str(t) for t in compiled.targets],
                          "rules": compiled.rule_set.as_dict(),
                          "rule_changes": list(compiled.rule_set.changes()),
                          "survival_tolerance": SURVIVAL_TOLERANCE},
                  labels={"attacks": "attacks to destroy"}, game="warmachine")


def _one_attack(attack: AttackLike) -> Attack:
    """The one attack line ``attack`` names (a list of one is fine; of none or two, not)."""
    attacks = as_attacks(attack)
    if len(attacks) != 1:
        raise OptionError(f"attack must be one attack line such as 'Fist: MAT6 POW12', not "
                          f"{len(attacks)} of them")
    return attacks[0]


def _policies(policies: object) -> list[FocusPolicy]:
    """``policies`` as a list of :class:`FocusPolicy` (from :func:`focus_policies`), or an
    :class:`OptionError` naming what is not one."""
    if isinstance(policies, (str, bytes, FocusPolicy)) or not isinstance(policies, Iterable):
        raise OptionError(f"policies must be a list of FocusPolicy (see focus_policies()), "
                          f"not {type(policies).__name__} {policies!r:.40}")
    refuse_unordered(policies, "policies")
    chosen = list(policies)
    if not chosen:
        raise OptionError("policies must hold at least one FocusPolicy (see focus_policies())")
    for policy in chosen:
        if not isinstance(policy, FocusPolicy):
            raise OptionError(f"each of policies must be a FocusPolicy (see "
                              f"focus_policies()), not {type(policy).__name__} {policy!r:.40}")
    return chosen


def _stuck(chain: Chain, dist: dict, row: np.ndarray) -> bool:
    """True when one more attack leaves every state exactly where it was."""
    after = chain.step(dist, row)
    return set(after) == set(dist)

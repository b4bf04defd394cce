"""What a Leader gives the weapons of the unit it leads (issue 35), read from its ability text.

A sentence of an ability is read when, after "While this model is leading a unit," (or a
bodyguard's "While a CHARACTER model is leading this unit,"), the whole rest is one of:

========================================================================  ===================
text (any case; melee / ranged optional)                                  buff
========================================================================  ===================
"[melee] weapons equipped by models in that unit have the [LETHAL HITS]   ``[LETHAL HITS] to
ability" (several: "the [A] and [B] abilities")                           MELEE weapons``
"each time a model in that unit makes a [ranged] attack, add 1 to the     ``+1 to hit to
Hit roll" (Wound roll)                                                    RANGED weapons``
"..., re-roll a Hit roll of 1" / "you can re-roll the Hit roll"           ``re-roll hits of 1``
                                                                          / ``re-roll hits``
"..., that attack has the [SUSTAINED HITS 1] ability"                     an ability
"..., add 1 to the Strength characteristic of that attack" (Attacks,      ``+1 strength``
Damage; "improve the Armour Penetration characteristic of that attack
by 1")
"add 1 to the Strength characteristic of [melee] weapons equipped by      ``+1 strength to
models in that unit" (improve AP ... by 1)                                MELEE weapons``
"..., an unmodified Hit roll of 5+ scores a Critical Hit"                 ``critical hits on
                                                                          5+``
========================================================================  ===================

"models in that unit" is every model of the attached unit, the Leader included; "this model"
(``weapons equipped by this model``, ``each time this model makes an attack``) is the Leader
alone. "if that unit made a charge move this turn" / "remained stationary this turn" /
"the target is within half range" become the buff's condition (``when charged`` ...).

Each read sentence becomes a :class:`LeaderGrant` whose :class:`~mathhammer.wh40k.buffs.Buff`
the list applies (:class:`~mathhammer.wh40k.roster.api.Roster`); a sentence of that kind that
does not read in full becomes a note naming the ability, never a different number.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from mathhammer.errors import MathhammerError
from mathhammer.wh40k.buff_reader import Buff, parse_buff
from mathhammer.wh40k.buffs import LINE_KINDS, apply_buffs
from mathhammer.wh40k.parse import parse_target
from mathhammer.wh40k.profiles import Modifiers, Situation
from mathhammer.wh40k.roster.keywords import clean
from mathhammer.wh40k.scenario.units import ModelGroup, Unit

__all__ = ["Granted", "LeaderGrant", "about_attacks", "granted", "on_lines", "read_grants"]

#: A stand-in target for putting grants on lines (line grants never read it).
_ANY_TARGET = parse_target("T4 Sv4+ W1")

#: "While this model is leading a unit," (the Leader's) and the bodyguard's own wording.
_LEADING = re.compile(r"^while this model is leading a unit,\s*")
_LED = re.compile(r"^while (?:a|this) character model is leading this unit,\s*|"
                  r"^while this unit is being led,\s*")
_UNIT = r"models? in (?:that|this) unit"
_PHASE = {"melee ": "MELEE", "ranged ": "RANGED", "": None}
_ABILITIES = r"(?P<abs>.+?) abilit(?:y|ies)"
_HAVE = re.compile(r"(?P<kind>melee |ranged |)weapons equipped by (?P<who>" + _UNIT +
                   r"|this model) (?:have|has) the " + _ABILITIES)
_EACH = re.compile(r"each time (?P<who>a model in (?:that|this) unit|this model) makes an? "
                   r"(?P<kind>melee |ranged |)attack, (?P<rest>.+)")
_STAT = re.compile(r"(?:add (?P<n>\d) to the (?P<stat>strength|attacks|damage) characteristic|"
                   r"improve the armour penetration characteristic) of (?P<kind>melee |ranged |)"
                   r"weapons equipped by (?P<who>" + _UNIT + r"|this model)(?: by (?P<ap>\d))?")
_CONDITION = (r"(?:that|this) unit (?:made a charge move|charged) this turn|"
              r"(?:that|this) unit remained stationary this turn|"
              r"the target is within half range(?: of that weapon)?")
_CONDITIONED = (re.compile(r"(?P<a>.+?),? if (?P<cond>" + _CONDITION + r")"),
                re.compile(r"(?P<lead>each time [^,]+, )if (?P<cond>" + _CONDITION +
                           r"), (?P<b>.+)"))
_CONDITION_WORDS = {"charge": "charged", "charged": "charged", "stationary": "stationary",
                    "half": "half range"}
_ON_ATTACK = (
    (re.compile(r"(?:you can )?add (\d) to (?:the|that attack's) (hit|wound) roll"),
     lambda m: f"+{m[1]} to {m[2]}"),
    (re.compile(r"(?:you can )?re-roll (?:a|the|that attack's) (hit|wound) roll of 1"),
     lambda m: f"re-roll {m[1]}s of 1"),
    (re.compile(r"(?:you can )?re-roll (?:the|that attack's) (hit|wound) roll"),
     lambda m: f"re-roll {m[1]}s"),
    (re.compile(r"that attack has the " + _ABILITIES), lambda m: _abilities(m["abs"])),
    (re.compile(r"add (\d) to the (strength|attacks|damage) characteristic of that attack"),
     lambda m: f"+{m[1]} {m[2]}"),
    (re.compile(r"improve the armour penetration characteristic of that attack by (\d)"),
     lambda m: f"+{m[1]} AP"),
    (re.compile(r"an unmodified (hit|wound) roll of ([2-6])\+ scores a critical (?:hit|wound)"),
     lambda m: f"critical {m[1]}s on {m[2]}+"),
)
_ATTACK_WORDS = re.compile(r"\b(?:weapons? equipped|makes an? (?:melee |ranged )?attack|hit "
                           r"roll|wound roll|strength characteristic|attacks characteristic|"
                           r"armour penetration)\b")
_DEFENSIVE = re.compile(r"\b(?:targets|allocated to|made against) (?:a model in )?(?:that|this) "
                        r"(?:unit|model)")


@dataclass(frozen=True)
class LeaderGrant:
    """One sentence of a Leader's (or a bodyguard's) ability, read as a buff.

    Attributes
    ----------
    ability
        The ability's name as printed.
    buff
        What it grants, with its weapon scope and condition.
    who
        ``unit``: every model of the attached unit (the Leader included); ``leader``: the
        Leader's own weapons.
    when
        ``leading``: the Leader's ability, met in the unit it leads; ``led``: the
        bodyguard's, met when a Leader is attached to it.
    """

    ability: str
    buff: Buff
    who: str
    when: str

    def describe(self) -> str:
        """``[LETHAL HITS] to MELEE weapons, on every model of the unit`` and the like."""
        whose = "the Leader's own weapons" if self.who == "leader" else \
            "the weapons of every model of the attached unit"
        return f"{_grant_text(self.buff)} ({whose})"


def read_grants(texts: list[tuple[str, str]]) -> tuple[tuple[LeaderGrant, ...],
                                                       tuple[str, ...]]:
    """The grants of ``texts`` (``(ability name, text)`` pairs) and a note for each sentence
    of that kind that cannot be read.

    Examples
    --------
    >>> grants, notes = read_grants([("Veteran Eye", "While this model is leading a unit, "
    ...     "ranged weapons equipped by models in that unit have the [LETHAL HITS] ability.")])
    >>> grants[0].describe()
    '[LETHAL HITS] to RANGED weapons (the weapons of every model of the attached unit)'
    """
    grants: list[LeaderGrant] = []
    notes: list[str] = []
    for name, text in texts:
        for sentence in _sentences(text):
            found = _read(clean(name), sentence)
            if found is not None:
                grants.append(found)
            elif about_attacks(sentence):
                notes.append(f"'{clean(name)}': \"{sentence[:120]}\" cannot be read as a grant "
                             "to the attached unit's weapons; not applied")
    return tuple(dict.fromkeys(grants)), tuple(dict.fromkeys(notes))


def about_attacks(sentence: str) -> bool:
    """Whether ``sentence`` (lower case) is a Leader's or a bodyguard's "while leading" rule
    about the unit's own attacks (read here, or noted here when it cannot be)."""
    lowered = sentence.lower()
    return bool((_LEADING.match(lowered) or _LED.match(lowered))
                and _ATTACK_WORDS.search(lowered) and not _DEFENSIVE.search(lowered))


def _sentences(text: str) -> list[str]:
    return [s.strip().lower() for s in re.split(r"(?<=[.;])\s+|\n", clean(text)[:4_000])
            if s.strip()]


def _read(name: str, sentence: str) -> LeaderGrant | None:
    """The grant of one sentence, or None when it is not one we read in full."""
    head = _LEADING.match(sentence) or _LED.match(sentence)
    if head is None:
        return None
    when = "leading" if head.re is _LEADING else "led"
    body, condition = _condition(sentence[head.end():].rstrip(" ."))
    read = _body(body)
    if read is None:
        return None
    who, text = read
    if who == "leader" and when == "led":
        return None
    try:
        buff = parse_buff(text + condition, name=name)
    except MathhammerError:
        return None
    return LeaderGrant(name, buff, who, when)


def _body(body: str) -> tuple[str, str] | None:
    """``(who, buff text)`` of a sentence's body, or None."""
    match = _HAVE.fullmatch(body)
    if match:
        return _who(match["who"]), _abilities(match["abs"]) + _scope(match["kind"])
    match = _STAT.fullmatch(body)
    if match and bool(match["stat"]) != bool(match["ap"]):
        grant = f"+{match['n']} {match['stat']}" if match["stat"] else f"+{match['ap']} AP"
        return _who(match["who"]), grant + _scope(match["kind"])
    match = _EACH.fullmatch(body)
    if match:
        for pattern, write in _ON_ATTACK:
            effect = pattern.fullmatch(match["rest"])
            if effect:
                return _who(match["who"]), write(effect) + _scope(match["kind"])
    return None


def _condition(body: str) -> tuple[str, str]:
    """The body without a charge / stationary / half-range condition, and that condition as a
    buff's ``when ...`` ("" without one)."""
    for pattern in _CONDITIONED:
        match = pattern.fullmatch(body)
        if match:
            parts = match.groupdict()
            rest = parts["a"] if "a" in parts else parts["lead"] + parts["b"]
            word = next(w for k, w in _CONDITION_WORDS.items() if k in match["cond"])
            return rest, f" when {word}"
    return body, ""


def _who(words: str) -> str:
    return "leader" if words == "this model" else "unit"


def _scope(kind: str) -> str:
    phase = _PHASE[kind]
    return f" to {phase} weapons" if phase else ""


def _abilities(words: str) -> str:
    """``the [a] and [b]`` or ``a`` -> ``[A], [B]`` (a text that is not only abilities and
    their separators gives a grant the buff reader refuses)."""
    words = words.strip()
    if "[" not in words:
        return f"[{words.upper()}]"
    items = re.findall(r"\[([^\]]+)\]", words)
    rest = re.sub(r"\[[^\]]+\]", "", words)
    if re.sub(r",|\band\b|\s", "", rest):
        return f"[{words.upper()}] ?"
    return ", ".join(f"[{i.upper()}]" for i in items)


def _grant_text(buff: Buff) -> str:
    text = ", ".join(str(g) for g in buff.grants)
    if buff.weapons:
        text += f" to {buff.weapons} weapons"
    if buff.conditions:
        text += " when " + " and ".join(c.replace("_", " ") for c in buff.conditions)
    return text


# -- applying them in an attached unit ----------------------------------------------------------
@dataclass(frozen=True)
class Granted:
    """What the grants of an attached unit's Leaders (and its bodyguard) change.

    Attributes
    ----------
    lines
        Per entry name: buffs whose abilities and characteristics go on that entry's weapon
        lines (unconditional ones; applied as if typed there).
    per_unit
        Buffs the analysis applies to the attached unit's cells: roll modifiers, re-rolls,
        critical thresholds, and any grant with a condition (read from the situation).
    notes
        One line per grant applied, and per grant that cannot be (naming it and the unit).
    """

    lines: dict[str, tuple[Buff, ...]]
    per_unit: tuple[Buff, ...]
    notes: tuple[str, ...]

    def on_units(self, units: list[Unit]) -> list[Unit]:
        """``units`` (the bodyguard and its Leaders, each named after its entry) with
        :attr:`lines` on their weapon lines."""
        return [replace(u, groups=on_lines(u.groups, self.lines.get(u.name, ())))
                for u in units]


def granted(bodyguard: str, own: tuple[LeaderGrant, ...],
            leaders: list[tuple[str, tuple[LeaderGrant, ...]]]) -> Granted:
    """Sort the grants met in an attached unit: the Leaders' "while leading" ones and the
    bodyguard's ``own`` "while led" ones (see :class:`Granted`)."""
    everyone = [bodyguard] + [name for name, _ in leaders]
    met = [(g, name) for name, grants in leaders for g in grants if g.when == "leading"]
    met += [(g, bodyguard) for g in own if g.when == "led"]
    lines: dict[str, list[Buff]] = {}
    per_unit: list[Buff] = []
    notes: list[str] = []
    for grant, owner in met:
        whose = everyone if grant.who == "unit" else [owner]
        line, roll = _split(grant.buff)
        if grant.who == "leader" and (roll.grants or grant.buff.conditions):
            notes.append(f"{bodyguard}: '{grant.ability}' of {owner} ({_grant_text(grant.buff)}"
                         ", its own attacks only) is not applied: the analysis takes it for "
                         "every model of the attached unit or none")
            continue
        if grant.buff.conditions:
            per_unit.append(grant.buff)
        else:
            for name in whose if line.grants else ():
                lines.setdefault(name, []).append(line)
            if roll.grants:
                per_unit.append(roll)
        notes.append(f"{bodyguard}: '{grant.ability}' of {owner} applied: {grant.describe()}")
    return Granted({k: tuple(v) for k, v in lines.items()}, tuple(per_unit), tuple(notes))


def _split(buff: Buff) -> tuple[Buff, Buff]:
    return (replace(buff, grants=tuple(g for g in buff.grants if g.kind in LINE_KINDS)),
            replace(buff, grants=tuple(g for g in buff.grants if g.kind not in LINE_KINDS)))


def on_lines(groups: tuple[ModelGroup, ...], buffs: tuple[Buff, ...]
             ) -> tuple[ModelGroup, ...]:
    """``groups`` with the abilities and characteristics of ``buffs`` on their weapon lines
    (each buff's weapon scope picks the lines), as if typed there."""
    if not buffs:
        return groups
    out = []
    for group in groups:
        weapons = tuple(replace(c, profiles=apply_buffs(buffs, c.profiles, _ANY_TARGET,
                                                        Situation(), Modifiers()).weapons)
                        for c in group.weapons)
        out.append(replace(group, weapons=weapons))
    return tuple(out)

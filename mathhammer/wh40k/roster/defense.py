"""Defensive rules printed on a datasheet: which the text grants, and on what condition.

An ability's text (10th- or 11th-edition wording, BattleScribe or New Recruit) is split into
sentences; each sentence that grants one of the defensive effects we model becomes an
:class:`Effect`:

==================  =============================================================  =========
kind                example text                                                   applied
==================  =============================================================  =========
``invuln``          "Models in this unit have a 4+ invulnerable save."             per model
``fnp``             "...have the Feel No Pain 5+ ability." / "roll one D6: on a 5+, per model
                    that wound is not lost"
``fnp_mortal``      "...Feel No Pain 4+ ability against mortal wounds."            per model
``fnp_psychic``     "...Feel No Pain 4+ ability against Psychic Attacks."          per model
``wounds_plus``     "Add 1 to the Wounds characteristic of models in this unit."   per model
``stealth``         an ability named Stealth, or "...have the Stealth ability."    per model
``damage_minus``    "Each time an attack is allocated to this model, subtract 1    unit
                    from that attack's Damage characteristic."
``damage_halved``   "...halve the Damage characteristic of that attack."           unit
``hit_minus``       "Each time a ranged attack targets this unit, subtract 1 from  unit
                    that attack's Hit roll."
``wound_minus``     "Each time an attack targets this unit, subtract 1 from that   unit
                    attack's Wound roll."
==================  =============================================================  =========

A sentence whose only triggers are the standard ones ("each time an attack is allocated to
this model", "each time a ranged attack targets this unit", "each time this model would
lose a wound", "models in this unit have") is unconditional. Any other condition ("while
this model is leading a unit", "if this unit is within range of an objective marker", "once
per battle", "until the end of the phase") is kept as the effect's ``condition``: a Leader's
"while this model is leading a unit" applies when it is attached; the others are notes
naming the condition, applied only when the user assumes them (``--assume``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from mathhammer.wh40k.profiles import TargetProfile
from mathhammer.wh40k.roster.keywords import clean

#: Effects that our target lines carry per model; the others are the whole unit's.
PER_MODEL = ("invuln", "fnp", "fnp_mortal", "fnp_psychic", "wounds_plus", "stealth")
PER_UNIT = ("damage_minus", "damage_halved", "hit_minus", "wound_minus")
MAX_TEXT = 4_000  # characters of one ability read (real ones are a few hundred)


@dataclass(frozen=True)
class Effect:
    """One defensive effect granted by an ability.

    Attributes
    ----------
    kind
        One of :data:`PER_MODEL` or :data:`PER_UNIT`.
    value
        The roll (2..6) for ``invuln`` and Feel No Pain, the amount for ``damage_minus``,
        ``wounds_plus``, ``hit_minus`` and ``wound_minus``; 1 for the others.
    scope
        ``all``, ``ranged`` or ``melee``: which attacks it works against.
    ability
        The ability's name as printed.
    condition
        ``""`` when unconditional, else the condition's words ("while this model is
        leading a unit").
    """

    kind: str
    value: int
    scope: str
    ability: str
    condition: str = ""

    @property
    def leading(self) -> bool:
        """True for a Leader's "while this model is leading a unit" condition (met in the
        unit it is attached to)."""
        return bool(re.search(r"\bthis model is (?:leading|attached to)\b|\bleading a unit\b",
                              self.condition))

    @property
    def led(self) -> bool:
        """True for a bodyguard's "while a CHARACTER model is leading this unit" condition
        (met when a Leader is attached to it)."""
        return bool(re.search(r"\bleading this unit\b|\bthis unit is (?:being )?led\b|"
                              r"\battached to this unit\b", self.condition)) and not self.leading

    def describe(self) -> str:
        """``Feel No Pain 5+ against mortal wounds`` and the like."""
        words = {"invuln": f"{self.value}+ invulnerable save",
                 "fnp": f"Feel No Pain {self.value}+",
                 "fnp_mortal": f"Feel No Pain {self.value}+ against mortal wounds",
                 "fnp_psychic": f"Feel No Pain {self.value}+ against psychic attacks",
                 "wounds_plus": f"+{self.value} Wounds", "stealth": "Stealth",
                 "damage_minus": f"-{self.value} Damage", "damage_halved": "halve Damage",
                 "hit_minus": f"-{self.value} to be hit", "wound_minus":
                 f"-{self.value} to be wounded"}[self.kind]
        return words + ("" if self.scope == "all" else f" ({self.scope} attacks)")


_NUMBER = r"(\d|one|two)"
_NUMBERS = {"one": 1, "two": 2}
_ATTACK_DAMAGE = (r"(?:the damage(?: characteristic)? of (?:that|the) attack|that attack's "
                  r"damage(?: characteristic)?|the damage(?: characteristic)?)")
_PATTERNS: tuple[tuple[str, re.Pattern], ...] = (
    ("damage_minus", re.compile(r"(?:subtract|reduce|worsen) " + _NUMBER + r" from "
                                + _ATTACK_DAMAGE + r"|(?:reduce|worsen) " + _ATTACK_DAMAGE
                                + r" by " + _NUMBER)),
    ("damage_halved", re.compile(r"halve " + _ATTACK_DAMAGE)),
    ("hit_minus", re.compile(r"subtract " + _NUMBER + r" from (?:that attack's hit roll|the "
                             r"hit roll)")),
    ("wound_minus", re.compile(r"subtract " + _NUMBER + r" from (?:that attack's wound roll|"
                               r"the wound roll)")),
    ("wounds_plus", re.compile(r"add " + _NUMBER + r" to the wounds characteristic|\+"
                               + _NUMBER + r" wounds\b(?! roll)")),
    ("invuln", re.compile(r"(\d)\+ invulnerable save|invulnerable save of (\d)\+")),
    ("fnp", re.compile(r"feel no pain (\d)\+|roll one d6: on a (\d)\+, that (?:mortal )?"
                       r"wound is not lost|roll one d6: if the result (?:is|equals or exceeds) "
                       r"(\d)\+?(?: or more)?, that (?:mortal )?wound is not lost")),
    ("stealth", re.compile(r"(?:has|have) the stealth ability")),
)
#: The standard triggers of unconditional defensive rules; what remains is a condition.
_TRIGGERS = re.compile(
    r"each time (?:an?|a ranged|a melee) (?:ranged |melee )?attack (?:is allocated to|targets|"
    r"is made against) (?:a model in )?(?:this|that) (?:unit|model)(?: or this model)?"
    r"|each time (?:this model|a model in this unit) would (?:lose|suffer) (?:a|one) "
    r"(?:wound|mortal wound)s?(?: as the result of a mortal wound)?"
    r"|each time (?:this model|a model in this unit) is allocated an attack"
    r"|roll one d6: (?:if the result (?:is|equals or exceeds) \d\+?(?: or more)?|on a \d\+)"
    r"|each time a model (?:in this unit |with this ability )?would (?:lose|suffer) (?:a|one) "
    r"(?:mortal )?wound")
_CONDITION = re.compile(
    r"\b(?:while|whilst|if|until|when|during|once per|within|in (?:your|the) [a-z]+ phase|"
    r"instead|select|after|at the (?:start|end)|leading|led by|attached|unless|aura|"
    r"excluding|except|with an? (?:strength|ap|armour penetration|damage)|greater than|"
    r"less than|or more|or less)\b")


def effects(name: str, text: str) -> list[Effect]:
    """The defensive effects of one ability (``name``, its text).

    Examples
    --------
    >>> [e.describe() for e in effects("Tough", "Models in this unit have the Feel No Pain "
    ...                                 "5+ ability against mortal wounds.")]
    ['Feel No Pain 5+ against mortal wounds']
    >>> effects("Bodyguard", "While this model is leading a unit, models in that unit "
    ...         "have the Feel No Pain 5+ ability.")[0].condition
    'while this model is leading a unit'
    """
    name = clean(name)
    out: list[Effect] = []
    lowered = clean(text)[:MAX_TEXT].lower()
    if name.lower() == "stealth" or name.lower().startswith("stealth "):
        out.append(Effect("stealth", 1, "ranged", name))
    named = re.match(r"(?i)(feel no pain|invulnerable save)\W*(\d)\+", name)
    if named and not re.search(r"feel no pain \d|invulnerable save", lowered):
        lowered = f"this model has the {name.lower()} ability. {lowered}"
    if name.lower().startswith("invulnerable save") and re.fullmatch(r"\(?(\d)\+\)?\.?",
                                                                      lowered.strip()):
        lowered = f"this model has a {lowered.strip(' ().')} invulnerable save."
    choice = _CHOICE.search(lowered)
    for sentence in _sentences(lowered):
        found = _sentence_effects(name, sentence)
        if choice and not _CHOICE.search(sentence):
            # "select one of the following. ■ Models in this unit have..." : the choice holds
            found = [e if e.condition else replace(e, condition=choice.group(0))
                     for e in found]
        out += found
    return out


#: A condition on the whole ability: a choice or a once-per-battle use.
_CHOICE = re.compile(r"\b(?:select one|choose one|one of the following|once per "
                     r"(?:battle|turn|phase|round))\b[^.:;]*")


_LEADING = re.compile(r"\bwhile this model is leading a unit\b")


def unmodelled(name: str, text: str) -> list[str]:
    """Sentences of an ability that change how the unit is attacked, or what the unit a
    Leader leads does, but grant none of the effects we model (they become notes).

    Examples
    --------
    >>> unmodelled("Tough Hide", "Each time an attack targets this unit, worsen the "
    ...            "Armour Penetration characteristic of that attack by 1.")[0][:52]
    'each time an attack targets this unit, worsen the ar'
    """
    out = []
    for sentence in _sentences(clean(text)[:MAX_TEXT].lower()):
        if (_DEFENSIVE.search(sentence) or _LEADING.search(sentence)) and \
                not _sentence_effects(clean(name), sentence):
            out.append(sentence)
    return out


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=[.;])\s+|\n", text) if s.strip()]


_DEFENSIVE = re.compile(r"\b(?:targets|made against|allocated to|against|allocate[sd]?) "
                        r"(?:a model in )?(?:this|that) (?:unit|model)|\ballocated to "
                        r"(?:a model in )?(?:this|that)")


def _sentence_effects(name: str, sentence: str) -> list[Effect]:
    out = []
    condition = _condition(sentence)
    for kind, pattern in _PATTERNS:
        match = pattern.search(sentence)
        if match is None:
            continue
        if kind in PER_UNIT and not _DEFENSIVE.search(sentence):
            continue  # the unit's own attacks ("subtract 1 from the Hit roll"): not defence
        value = _value(match, kind)
        kinds = [_fnp_kind(sentence)] if kind == "fnp" else [kind]
        if kinds == ["fnp_mortal_psychic"]:
            kinds = ["fnp_mortal", "fnp_psychic"]
        out += [Effect(k, value, _scope(sentence, k), name, condition) for k in kinds]
    return out


def _value(match: re.Match, kind: str) -> int:
    if kind in ("damage_halved", "stealth"):
        return 1
    word = next(g for g in match.groups() if g)
    return _NUMBERS.get(word, 0) or int(word)


def _fnp_kind(sentence: str) -> str:
    tail = sentence[sentence.find("feel no pain"):] if "feel no pain" in sentence else sentence
    if "feel no pain" in sentence:
        mortal = "mortal wound" in tail and "including" not in tail
    else:
        mortal = bool(re.search(r"\b(?:against|result of|from|by|to|caused by) (?:a |any )?"
                                r"mortal wounds?\b", sentence)) and "including" not in sentence
    psychic = "psychic" in tail
    if mortal and not psychic:
        return "fnp_mortal"
    if psychic and not mortal:
        return "fnp_psychic"
    if mortal and psychic:
        return "fnp_mortal_psychic"
    return "fnp"


def _scope(sentence: str, kind: str) -> str:
    if kind == "stealth":
        return "ranged"
    if re.search(r"\branged attacks?\b", sentence):
        return "ranged"
    if re.search(r"\bmelee attacks?\b", sentence):
        return "melee"
    return "all"


def _condition(sentence: str) -> str:
    """The sentence's condition in its own words, or ``""`` when it has none beyond the
    standard triggers."""
    rest = _TRIGGERS.sub(" ", sentence)
    match = _CONDITION.search(rest)
    if match is None:
        return ""
    clause = re.split(r"[,:.;]", rest[match.start():], maxsplit=1)[0]
    return " ".join(clause.split())[:100]


# -- applying effects ---------------------------------------------------------------------
def apply_to_profile(profile: TargetProfile, found: list[Effect]) -> TargetProfile:
    """``profile`` with the per-model effects of ``found`` (the best invulnerable save and
    Feel No Pain of each kind, added Wounds, Stealth); the others are ignored here.

    Examples
    --------
    >>> from mathhammer.wh40k.parse import parse_target
    >>> p = apply_to_profile(parse_target("T4 Sv3+ W2"), [Effect("fnp", 5, "all", "Tough"),
    ...                                                    Effect("wounds_plus", 1, "all", "Big")])
    >>> str(p)
    'T4 Sv3+ W3 FNP5+'
    """
    changes: dict = {}
    for effect in found:
        kind, value = effect.kind, effect.value
        if kind in ("fnp", "fnp_mortal", "fnp_psychic"):
            old = changes.get(kind, getattr(profile, kind))
            changes[kind] = value if old is None else min(old, value)
        elif kind == "wounds_plus":
            changes["wounds"] = changes.get("wounds", profile.wounds) + value
        elif kind == "stealth":
            changes["keywords"] = frozenset(changes.get("keywords", profile.keywords)) | {
                "STEALTH"}
        elif kind == "invuln":
            changes.update(_better_invuln(changes.get("invuln", profile.invuln),
                                          changes.get("invuln_scope", profile.invuln_scope),
                                          value, effect.scope))
    return replace(profile, **changes) if changes else profile


def _better_invuln(old: int | None, old_scope: str, value: int, scope: str) -> dict:
    """Keep one invulnerable save: one against every attack beats a scoped one; the lower
    roll of the same scope wins."""
    if old is None or (scope == "all" and old_scope != "all") or \
            (scope == old_scope and value < old):
        return {"invuln": value, "invuln_scope": scope}
    return {}


def unit_defense(found: list[Effect]) -> dict[str, int | bool]:
    """The whole-unit effects of ``found``: ``damage_minus`` (the largest), ``damage_halved``,
    and the hit and wound roll penalties by scope (``hit_minus_all``, ``hit_minus_ranged``,
    ``wound_minus_melee``...)."""
    out: dict[str, int | bool] = {}
    for effect in found:
        if effect.kind == "damage_minus":
            out["damage_minus"] = max(int(out.get("damage_minus", 0)), effect.value)
        elif effect.kind == "damage_halved":
            out["damage_halved"] = True
        elif effect.kind in ("hit_minus", "wound_minus"):
            key = f"{effect.kind}_{effect.scope}"
            out[key] = max(int(out.get(key, 0)), effect.value)
    return out

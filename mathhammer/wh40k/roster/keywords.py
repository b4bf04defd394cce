"""Roster text to our syntax: weapon characteristics and keywords, unit statlines,
invulnerable saves and Feel No Pain given as abilities or rules.

Everything here turns the strings of a roster file into the weapon and target lines of
:mod:`mathhammer.wh40k.parse` (and parses them with it), so a roster profile means exactly
what the same line typed by hand means. What we cannot model becomes a note, never an error
and never silently dropped.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from mathhammer.errors import ProfileError
from mathhammer.wh40k.parse import parse_target, parse_weapon
from mathhammer.wh40k.profiles import TargetProfile, Weapon

_DASHES = str.maketrans({"\u2011": "-", "\u2010": "-", "\u2013": "-", "\u2014": "-",
                         "\u2212": "-", "\u201d": '"', "\u2033": '"', "\u201c": '"',
                         "\u00a0": " "})
_MODE_MARK = re.compile(r"^[\s\u27a4\u25ba\u2192>\-]+")
_RANGE = re.compile(r'^(\d+)\s*(?:"|\'\'|in\.?|inches)?$', re.IGNORECASE)
_ROLL = re.compile(r"^(\d)\s*\+")  # a roll at the start of an ability's text
_CONDITIONAL = re.compile(r"\b(while|each time|if|until|when|whilst|leading|attached|within|"
                          r"aura|once per|instead|select|roll)\b", re.IGNORECASE)
_INVULN_TEXT = re.compile(r"(\d)\s*\+\s*invulnerable save|invulnerable save of (\d)\s*\+",
                          re.IGNORECASE)
_FNP_TEXT = re.compile(r"feel no pain\s*(\d)\s*\+", re.IGNORECASE)
#: Keywords on one weapon profile; real weapons have fewer than ten.
MAX_KEYWORDS = 64
_KEYWORD_CHARS = re.compile(r"[^A-Z0-9' -]+")


def clean(text: str) -> str:
    """One line of roster text: typographic dashes and quotes made plain, spaces collapsed."""
    return " ".join((text or "").translate(_DASHES).split())


def profile_name(name: str) -> str:
    """A weapon profile's name without the mode arrow (``➤ Bilesword - strike``), and
    without the characters our lines use as separators."""
    text = _MODE_MARK.sub("", clean(name))
    return text.replace(":", " -").replace("[", "(").replace("]", ")").strip() or "Weapon"


# -- reading one characteristic ------------------------------------------------------------
_WHOLE = re.compile(r"\d+")
_ROLL_VALUE = re.compile(r"(\d+)\+")
_NO_ROLL = ("N/A", "NA")
_SIGNED = re.compile(r"[+-]?\d+")


class _Characteristic(str):
    """A characteristic's text without spaces, remembering it as the file wrote it."""

    raw: str


def _value(chars: dict[str, str], key: str, label: str, notes: list[str],
           owner: str) -> _Characteristic:
    """A characteristic's text without spaces around signs; a footnote mark (``2+*``: the *
    points to a rule we do not read) is taken off with a note naming it."""
    raw = clean(chars.get(key, ""))
    text = re.sub(r"\s*([+-])\s*", r"\1", raw)  # "D6 + 1" is D6+1; "2 3" is no number
    if " " in text:
        raise ProfileError(f"{label} '{raw}' cannot be read (one value, such as 4 or D6+1)")
    if len(text) > 1 and text.endswith("*"):
        text = text.rstrip("*")
        notes.append(f"{owner}: {label} '{raw}' read as {text} (the * points to a rule that is "
                     "not read)")
    value = _Characteristic(text)
    value.raw = raw
    return value


def _unreadable(label: str, value: str, expected: str) -> ProfileError:
    """The one refusal of a characteristic: its name, its text as in the file, what it takes."""
    raw = getattr(value, "raw", value)
    return ProfileError(f"{label} '{raw}' cannot be read ({expected})")


def _roll(text: str, label: str, *, none_word: str | None = None,
          none_texts: tuple[str, ...] = _NO_ROLL) -> str:
    """``N+`` as written (the line reader judges whether N is possible), or ``none_word`` for
    one of ``none_texts``; anything else is unreadable."""
    if none_word is not None and text.upper() in none_texts:
        return none_word
    match = _ROLL_VALUE.fullmatch(text)
    if match is None:
        expected = "a roll such as 3+" + (f", or {none_texts[0]}" if none_word else "")
        raise _unreadable(label, text, expected)
    return f"{match.group(1)}+"


def _whole(text: str, label: str) -> str:
    if not _WHOLE.fullmatch(text):
        raise _unreadable(label, text, "a whole number such as 4")
    return text


# -- weapons ------------------------------------------------------------------------------
def weapon_profile(name: str, chars: dict[str, str], melee_type: bool,
                   notes: list[str]) -> Weapon | None:
    """A :class:`Weapon` (count 1) from a roster weapon profile, or None with a note.

    ``chars`` maps lower-case characteristic names to their text. A characteristic that
    cannot be read leaves the weapon out with a note naming it, never a different number;
    an unreadable Range keeps the weapon, without a range, and says so.
    """
    read_notes: list[str] = []  # kept only when the weapon is
    try:
        line_head = _weapon_head(name, chars, melee_type, read_notes)
        base = parse_weapon(f"{name}: {line_head}")
    except ProfileError as exc:
        reason = str(exc) if len(str(exc)) <= 160 else str(exc)[:157] + "..."
        notes.append(f"weapon '{name}' left out: its profile cannot be read ({reason})")
        return None
    notes.extend(read_notes)
    abilities = _abilities(name, line_head, chars.get("keywords", ""), notes)
    if not abilities:
        return base
    return parse_weapon(f"{name}: {line_head} [{', '.join(abilities)}]")


def _weapon_head(name: str, chars: dict[str, str], melee_type: bool, notes: list[str]) -> str:
    """The characteristics of a weapon line (``24" A2 BS3+ S4 AP-1 D 1``), each read strictly."""
    rng = clean(chars.get("range", ""))
    melee = melee_type or rng.lower() == "melee"
    head = ["Melee"] if melee else []
    match = _RANGE.match(rng)
    if match and not melee:
        head.append(f'{match.group(1)}"')
    elif not melee:
        notes.append(f"{name}: Range '{rng}' cannot be read (a distance such as 24\"); the "
                     "weapon is kept without a range")
    elif rng.lower() not in ("melee", "", "-"):
        notes.append(f"{name}: Range '{rng[:40]}' cannot be read (a melee weapon's Range is "
                     "Melee); the weapon is kept as a melee weapon")
    label = "WS" if melee else "BS"
    skill = _value(chars, label.lower() if label.lower() in chars else
                   ("bs" if melee else "ws"), label, notes, name)
    skill_text = _roll(skill, label, none_word="N/A")
    attacks = _value(chars, "a", "A", notes, name)
    if not attacks or attacks == "*":
        raise _unreadable("A", attacks, "a number or dice such as 2 or D6+1")
    strength: str = _value(chars, "s", "S", notes, name)
    if strength in ("", "-"):
        strength = "1"
        notes.append(f"{name}: no S given; S counts as 1 (02.04.01)")
    elif not _WHOLE.fullmatch(strength):
        raise _unreadable("S", strength, "a whole number such as 4")
    ap = _value(chars, "ap", "AP", notes, name)
    if not _SIGNED.fullmatch(ap):
        raise _unreadable("AP", ap, "a number such as 0 or -1")
    damage = _value(chars, "d", "D", notes, name)
    if not damage or damage in ("*", "-"):
        raise _unreadable("D", damage, "a number or dice such as 2 or D6")
    return " ".join(head + [f"A{attacks}", f"{label}{skill_text}", f"S{strength}", f"AP{ap}",
                            f"D {damage}"])


def _abilities(name: str, line_head: str, text: str, notes: list[str]) -> list[str]:
    """The keywords we model, in our spelling; the others become notes.

    Each keyword is tried alone, then all the accepted ones together (linear in the
    number of keywords); only when the combination fails (two that exclude each other) are
    they added one at a time. More than :data:`MAX_KEYWORDS` is refused.
    """
    items = _keyword_items(text)
    if len(items) > MAX_KEYWORDS:
        raise ProfileError(f"weapon '{name}' has {len(items)} keywords; a weapon has at most "
                           f"{MAX_KEYWORDS}: the file is damaged")
    accepted: list[str] = []
    for raw in items:
        item = _normalise_ability(raw)
        if _parses(name, line_head, [item]):
            accepted.append(item)
        else:
            notes.append(f"{name}: keyword '{raw}' is not modelled (ignored)")
    if len(accepted) < 2 or _parses(name, line_head, accepted):
        return accepted
    together: list[str] = []
    for item in accepted:
        if _parses(name, line_head, together + [item]):
            together.append(item)
        else:
            notes.append(f"{name}: keyword '{item}' conflicts with the others (ignored)")
    return together


def _parses(name: str, line_head: str, items: list[str]) -> bool:
    try:
        parse_weapon(f"{name}: {line_head} [{', '.join(items)}]")
    except ProfileError:
        return False
    return True


def _keyword_items(text: str) -> list[str]:
    """Comma-separated items; a bare keyword after a scoped ability continues its scope
    (``LETHAL HITS: VEHICLE, MONSTER``)."""
    items: list[str] = []
    for part in clean(text).replace("[", "").replace("]", "").split(","):
        part = part.strip()
        if not part or part == "-":
            continue
        if items and ":" in items[-1] and re.fullmatch(r"(?i)(non-)?[a-z][a-z' -]*", part) \
                and not _looks_like_ability(part):
            items[-1] = f"{items[-1]}/{part}"
            continue
        items.append(part)
    return items


def _looks_like_ability(text: str) -> bool:
    from mathhammer.wh40k.abilities import ALIASES, WEAPON_ABILITIES

    upper = text.upper()
    names = list(WEAPON_ABILITIES) + list(ALIASES)
    return upper.startswith("ANTI") or any(upper == n or upper.startswith(n + " ")
                                           for n in names)


def _normalise_ability(raw: str) -> str:
    """Upper case; ``X: non-A/B`` (none of A, B) written as ``X: NON-A/NON-B``."""
    text = raw.upper()
    head, colon, scope = text.partition(":")
    if not colon:
        return text
    parts = [p.strip() for p in scope.split("/") if p.strip()]
    if parts and parts[0].startswith("NON-"):
        parts = [p if p.startswith("NON-") else f"NON-{p}" for p in parts]
    return f"{head.strip()}: {'/'.join(parts)}"


# -- statlines ----------------------------------------------------------------------------
def statline(chars: dict[str, str], keywords: Iterable[str], invuln: tuple[int, str] | None,
             fnp: int | None, fnp_mortal: int | None,
             notes: list[str] | None = None, owner: str = "statline") -> TargetProfile:
    """A one-model :class:`TargetProfile` from a Unit profile's characteristics.

    Raises
    ------
    ProfileError
        When T, Sv, W or InSv cannot be read, naming the characteristic and its text (the
        caller names the unit): never a different value.
    """
    read_notes: list[str] = []  # kept only when the statline is
    toughness = _whole(_value(chars, "t", "T", read_notes, owner), "T")
    save_text = "Sv" + _roll(_value(chars, "sv", "Sv", read_notes, owner), "Sv",
                             none_word="-", none_texts=("-",))
    wounds = _whole(_value(chars, "w", "W", read_notes, owner), "W")
    if invuln is None:
        invuln = _invulnerable_characteristic(clean(chars.get("insv", "")))
    parts = [f"T{toughness}", save_text]
    if invuln is not None:
        value, scope = invuln
        parts.append(f"InSv{value}+" + ("" if scope == "all" else f"({scope})"))
    parts.append(f"W{wounds}")
    if fnp is not None:
        parts.append(f"FNP{fnp}+")
    if fnp_mortal is not None and (fnp is None or fnp_mortal < fnp):
        parts.append(f"FNP{fnp_mortal}+(mortal)")
    words = sorted(set(keywords))
    line = " ".join(parts) + (f" [{', '.join(words)}]" if words else "")
    profile = parse_target(line)
    if notes is not None:
        notes.extend(read_notes)
    return profile


_INSV = re.compile(r"(\d+)\s*\+\**\s*(?:\(?\s*(?:against\s+)?(ranged|melee)(?:\s+attacks)?"
                   r"(?:\s+only)?\s*\)?)?", re.IGNORECASE)


def _invulnerable_characteristic(text: str) -> tuple[int, str] | None:
    """11th edition's InSv: ``4+``, ``4+ (ranged)``; empty, ``-`` or N/A for none."""
    if text in ("", "-") or text.upper() in _NO_ROLL:
        return None
    match = _INSV.fullmatch(text)
    if match is None:
        raise _unreadable("InSv", text, "a roll such as 4+, or - for none")
    scope = (match.group(2) or "all").lower()
    return int(match.group(1)), scope


def unit_keywords(categories: Iterable[str]) -> set[str]:
    """Category names as keywords: upper case, ``Faction: ...`` dropped."""
    out = set()
    for name in categories:
        text = clean(name)
        if not text or text.lower().startswith("faction:"):
            continue
        word = " ".join(_KEYWORD_CHARS.sub(" ", _ascii(text.upper())).split())
        if word and word[0].isalpha():
            out.add(word)
    return out


def _ascii(text: str) -> str:
    """Letters with accents as plain letters (our keywords are ASCII): Æ as AE, é as E."""
    import unicodedata

    text = text.replace("\u00c6", "AE").replace("\u0152", "OE")
    return "".join(c for c in unicodedata.normalize("NFKD", text) if ord(c) < 128)


# -- abilities and rules: invulnerable save, Feel No Pain, Stealth ------------------------
def invulnerable(texts: list[tuple[str, str]], notes: list[str]) -> tuple[int, str] | None:
    """The best invulnerable save granted by abilities (``(name, description)`` pairs):
    an ability named "Invulnerable Save..." or one whose text unconditionally grants one."""
    best: tuple[int, str] | None = None
    for name, text in texts:
        named = clean(name).lower().startswith("invulnerable save")
        match = _INVULN_TEXT.search(text) or (_ROLL.match(clean(text)) if named else None) \
            or (re.search(r"\((\d)\+\)", name) if named else None)
        if not match:
            continue
        if not named and _CONDITIONAL.search(text):
            notes.append(f"'{clean(name)}' grants an invulnerable save under conditions we "
                         "cannot check; not applied")
            continue
        lowered = text.lower()
        scope = "ranged" if "ranged attack" in lowered else (
            "melee" if "melee attack" in lowered else "all")
        found = (int(next(g for g in match.groups() if g)), scope)
        if best is None or (found[1] == "all" and best[1] != "all") or \
                (found[1] == best[1] and found[0] < best[0]):
            best = found
    return best


def feel_no_pain(texts: list[tuple[str, str]], notes: list[str]) -> tuple[int | None, int | None]:
    """Feel No Pain against every wound and against mortal wounds only, from rules and
    abilities named "Feel No Pain N+" or whose text grants it unconditionally."""
    every: int | None = None
    mortal: int | None = None
    for name, text in texts:
        named = _FNP_TEXT.search(clean(name))
        granted = _FNP_TEXT.search(text)
        match = named or granted
        if match is None:
            continue
        value = int(match.group(1))
        lowered = text.lower()
        if named is None and _CONDITIONAL.search(text):
            notes.append(f"'{clean(name)}' grants Feel No Pain {value}+ under conditions we "
                         "cannot check; not applied")
            continue
        if "psychic" in lowered and "mortal" not in lowered:
            notes.append(f"'{clean(name)}': Feel No Pain {value}+ against psychic attacks "
                         "only; not applied")
            continue
        if "against mortal wounds" in lowered:
            mortal = value if mortal is None else min(mortal, value)
        else:
            every = value if every is None else min(every, value)
    return every, mortal


_ALLOCATED = (r"each time an attack is allocated to (?:a model in this unit|this model|a model "
              r"in this unit or this model|this unit)")
_DAMAGE_MINUS = re.compile(_ALLOCATED + r", subtract (\d) from the damage characteristic of "
                           r"that attack\.?")
_DAMAGE_HALVED = re.compile(_ALLOCATED + r", halve the damage characteristic of that "
                            r"attack\.?")


def damage_reduction(texts: list[tuple[str, str]], notes: list[str]) -> tuple[int, bool]:
    """The defender's "-N Damage" and "halve the Damage" from abilities whose whole text is
    the unconditional rule; any other text that changes an attack's Damage becomes a note."""
    minus, halved = 0, False
    for name, text in texts:
        lowered = clean(text).lower()
        if "damage characteristic" not in lowered or "allocated" not in lowered:
            continue
        match = _DAMAGE_MINUS.fullmatch(lowered)
        if match:
            minus = max(minus, int(match.group(1)))
        elif _DAMAGE_HALVED.fullmatch(lowered):
            halved = True
        else:
            notes.append(f"'{clean(name)}' changes the Damage of attacks under conditions we "
                         "cannot check; not applied")
    return minus, halved


_BULLET = re.compile(r"^\s*(?:[\u25a0\u2022\u25aa\u25cf\u25e6*]|[-\u2013\u2014](?=\s))\s*")
_INLINE_BULLETS = re.compile(r"[\u25a0\u2022\u25aa\u25cf\u25e6]|\s[-\u2013\u2014]\s")


def leads(texts: list[tuple[str, str]]) -> tuple[str, ...]:
    r"""The units a Leader ability says this model can be attached to: the items after
    "can be attached to the following unit(s):", bulleted with ``■``, ``•`` or ``- UNIT``
    on their own lines or inline (``■ X ■ Y``); ``texts`` keep their line breaks.

    Examples
    --------
    >>> leads([("Leader", "This model can be attached to the following units:\n"
    ...                   "- Intercessor Squad\n- Hellblaster Squad\nYou can attach...")])
    ('Intercessor Squad', 'Hellblaster Squad')
    """
    out: list[str] = []
    for name, text in texts:
        if clean(name).lower() != "leader" or "attached to" not in text.lower():
            continue
        body = re.split(r"(?i)attached to[^:]*:", text, maxsplit=1)[-1]
        lines = [part for line in body.replace("\r", "\n").split("\n")
                 for part in re.split(r"(?=[\u25a0\u2022\u25aa\u25cf\u25e6])", line)
                 if part.strip()]
        if any(_BULLET.match(line) for line in lines):
            items = [part for line in lines if _BULLET.match(line)
                     for part in re.split(r"\s[-\u2013\u2014]\s", _BULLET.sub("", line))]
        else:
            items = _INLINE_BULLETS.split(" ".join(lines))[1:]
        for item in items:
            unit = re.split(r"(?<=[a-z\)])\. |\s{2,}", clean(item))[0].strip(" .;,*")
            if unit and len(unit) <= 80:
                out.append(unit)
    return tuple(dict.fromkeys(out))


def has_stealth(texts: list[tuple[str, str]]) -> bool:
    return any(clean(name).lower() == "stealth" for name, _ in texts)

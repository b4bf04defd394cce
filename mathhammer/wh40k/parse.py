"""Datasheet lines to profiles, with errors that point at the offending token.

Weapon lines::

    [Nx] [Name:] [24" | Melee] A<dice> BS<n>+|WS<n>+|BSN/A S<n> AP<-n> D<dice> [ABILITY, ...]

Target lines::

    [Nx] [Name:] T<n> Sv<n>+ [InSv<n>+[(ranged)|(melee)]] W<n> [FNP<n>+] [FNP<n>+(mortal)]
    [FNP<n>+(psychic)]
        [KEYWORD, ...]

Tokens are case-insensitive and a space may separate a characteristic from its value
(``A D6+3``, ``AP -1``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from mathhammer.core.dice import DiceExpr
from mathhammer.core.limits import (MAX_MODELS, MAX_NUMBER, check_number_text,
                                   refuse_control_characters, refuse_foreign_digits)
from mathhammer.core.numbers import malformed_count, plain_marks, refuse_malformed_count
from mathhammer.errors import ProfileError, UnknownWordError, did_you_mean
from mathhammer.wh40k import abilities as ab
from mathhammer.wh40k.profiles import NO_SAVE, Ability, TargetProfile, Weapon

_NAME_COLON_RE = re.compile(r"(?:[^\[:]|\[[^\]]*\])*:")   # a colon outside brackets
_COUNT_RE = re.compile(r"\s*(-?\d+)\s*x\s+", re.IGNORECASE)
_RANGE_RE = re.compile(r'(\d+)\s*(?:"|\'\'|in\b|inches\b)|(melee)\b', re.IGNORECASE)
_WEAPON_TOKEN_RE = re.compile(r"(AP|A|BS|WS|S|D)\s*([^\s\[\]]+)", re.IGNORECASE)
_TARGET_TOKEN_RE = re.compile(r"(INSV|INV|SV|T|W|FNP)\s*([^\s\[\]]+)", re.IGNORECASE)
_SKILL_RE = re.compile(r"(\d+)\+$|(N/?A|-)$", re.IGNORECASE)
_ROLL_RE = re.compile(r"(\d+)\+?$")
# Words of letters, digits and apostrophes joined by single spaces or hyphens (NON-VEHICLE).
_KEYWORD_RE = re.compile(r"[A-Z][A-Z0-9']*(?:[ -][A-Z0-9']+)*")
_GLUED_COUNT_RE = re.compile(r"\s*-?\d+\s*x(?=\S)", re.IGNORECASE)
_AMBIGUOUS_DAMAGE = ("D3", "D6")
#: Ability names, longest first (``SUSTAINED HITS`` is tried before a shorter name it starts
#: with).
_ABILITIES_LONGEST_FIRST = tuple(sorted(ab.WEAPON_ABILITIES, key=len, reverse=True))
_WORD_RE = re.compile(r"\S+")
_NUMBER_RE = re.compile(r"\d+")
_SIGNED_RE = re.compile(r"[+-]?\d+")
_RANDOM_STRENGTH_RE = re.compile(r"\d*D[36]([+-]\d+)?", re.IGNORECASE)
_SAVE_RE = re.compile(r"(\d+)\+")
_INVULN_RE = re.compile(r"(\d+)\+(?:\((ranged|melee)\)|/(ranged|melee))?", re.IGNORECASE)
_FNP_RE = re.compile(r"(\d+)\+(?:\((mortal|mw|psychic)\)|/(mortal|mw|psychic))?",
                     re.IGNORECASE)
#: Labels written apart from their value (``A 2``, ``AP -1``): joined to the next piece.
_BARE_LABELS = frozenset({"A", "AP", "BS", "WS", "S", "D", "T", "SV", "W", "INSV", "INV",
                          "FNP"})
# The common, well-formed line in one match (ASCII, single spaces, upper-case labels); any
# other line, or any value the profile refuses, goes through the full reader and its errors.
_FAST_NAME = r"[A-Za-z](?:[A-Za-z0-9' -]*[A-Za-z0-9'])?"
_FAST_DICE = r"(?:[1-9]?D[36](?:\+[1-9][0-9]?)?|[1-9][0-9]{0,3})"
_FAST_WEAPON_RE = re.compile(
    rf"(?:([1-9][0-9]{{0,3}})x )?({_FAST_NAME}): "
    rf"(?:([1-9][0-9]{{0,3}})\" A({_FAST_DICE}) BS([2-6]\+|N/A)|Melee A({_FAST_DICE}) "
    rf"WS([2-6])\+) S([1-9][0-9]{{0,3}}) AP(0|-[1-9][0-9]{{0,3}}) D({_FAST_DICE})"
    r"(?: \[([^\[\]]+)\])?")
_FAST_TARGET_RE = re.compile(
    rf"(?:([1-9][0-9]{{0,3}})x )?(?:({_FAST_NAME}): )?T([1-9][0-9]{{0,3}}) Sv([2-6]\+|-) "
    r"(?:InSv([2-6])\+ )?W([1-9][0-9]{0,3})(?: FNP([2-6])\+)?(?: \[([^\[\]]+)\])?")
#: Upper-case keywords, one space or hyphen inside, separated by ", ": already as
#: ``_parse_keywords`` writes each one.
_PLAIN_KEYWORDS_RE = re.compile(r"[A-Z][A-Z0-9']*(?:[ -][A-Z0-9']+)*(?:, [A-Z][A-Z0-9']*"
                                r"(?:[ -][A-Z0-9']+)*)*")
_WEAPON_LABELS = {"A": "A (attacks)", "BS": "BS", "WS": "WS", "S": "S (strength)",
                  "AP": "AP", "D": "D (damage)"}


@dataclass(frozen=True, slots=True)
class _Piece:
    text: str
    column: int  # 1-based column in the original line


def parse_weapon(line: str) -> Weapon:
    """Parse one weapon line.

    Parameters
    ----------
    line
        E.g. ``'10x Bolt rifle: 24" A2 BS3+ S4 AP-1 D1 [ASSAULT, HEAVY]'``.

    Raises
    ------
    ProfileError
        Naming the offending token, its column and the fix.

    Examples
    --------
    >>> str(parse_weapon("Thunder hammer: melee a3 ws3+ s8 ap -2 d2 [devastating wounds]"))
    'Thunder hammer: Melee A3 WS3+ S8 AP-2 D2 [DEVASTATING WOUNDS]'
    """
    _check_text(line, "weapon", "a Weapon")
    fast = _fast_weapon(line)
    if fast is not None:
        return fast
    if not line.strip():
        raise ProfileError("empty weapon line: write e.g. 'Bolt rifle: 24\" A2 BS3+ S4 AP-1 D1'")
    refuse_foreign_digits(line, line)
    text = plain_marks(line)
    count, body = _split_count(text, line)
    name, body = _split_name(body, line)   # a name may hold brackets: 'Veteran [Crucible]'
    body, bracket = _split_brackets(body, line)
    values: dict[str, _Piece] = {}
    melee = False
    range_inches = None
    for piece in _scan(body, line):
        range_match = _RANGE_RE.fullmatch(piece.text)
        if range_match:
            if "range" in values:
                _fail_duplicate("range", piece, line)
            values["range"] = piece
            melee = range_match.group(2) is not None
            range_inches = None if melee else _range(range_match.group(1), piece, line)
            continue
        token = _WEAPON_TOKEN_RE.fullmatch(piece.text)
        if token is None:
            raise ProfileError(
                f"unknown token '{piece.text}'", detail=": a weapon line reads "
                "[Nx] [Name:] [24\" | Melee] A2 BS3+ S4 AP-1 D1 [ABILITIES]; put the name "
                "before a colon", token=piece.text, column=piece.column, line=line)
        label = token.group(1).upper()
        if label in values or (label in ("BS", "WS") and "skill" in values):
            _fail_duplicate(label, piece, line)
        if label == "D" and piece.text.upper() in _AMBIGUOUS_DAMAGE \
                and not text[piece.column:piece.column + 1].isspace():
            _fail_ambiguous_damage(piece, line)
        values["skill" if label in ("BS", "WS") else label] = _Piece(
            token.group(2), piece.column + token.start(2))
        if label in ("BS", "WS"):
            values["skill_label"] = _Piece(label, piece.column)
    _require_characteristics(values, line)
    skill_label = values["skill_label"].text
    if "range" in values and melee and skill_label == "BS":
        raise ProfileError("a Melee weapon uses WS, not BS", token="BS",
                           column=values["skill_label"].column, line=line)
    if skill_label == "WS":
        melee = True
    abilities = _parse_abilities(bracket, line) if bracket else ()
    try:
        return Weapon(
            name=name,
            count=count,
            melee=melee,
            range_inches=range_inches,
            attacks=_dice(values["A"], "A", line),
            skill=_skill(values["skill"], skill_label, line),
            strength=_integer(values["S"], "S", line),
            ap=_integer(values["AP"], "AP", line),
            damage=_dice(values["D"], "D", line),
            abilities=abilities,
        )
    except ProfileError as exc:
        raise _locate(exc, line) from None


def _require_characteristics(values: dict, line: str) -> None:
    for label in ("A", "skill", "S", "AP", "D"):
        if label not in values:
            shown = "BS or WS" if label == "skill" else _WEAPON_LABELS[label]
            example = {"A": "A2", "skill": "BS3+ (or WS3+, or BSN/A)", "S": "S4",
                       "AP": "AP0 or AP-1", "D": "D1"}[label]
            raise ProfileError(f"missing characteristic {shown}: add it, e.g. {example}",
                               line=line)


def parse_target(line: str) -> TargetProfile:
    """Parse one target line.

    Parameters
    ----------
    line
        E.g. ``"5x Terminator: T5 Sv2+ InSv4+ W3 [INFANTRY]"`` or
        ``"10x Cultist: T3 Sv6+ W1 FNP6+"``.

    Raises
    ------
    ProfileError
        Naming the offending token, its column and the fix.
    """
    _check_text(line, "target", "a TargetProfile or a reference name such as 'MEQ'")
    fast = common_target_line(line)
    if fast is not None:
        return fast
    if not line.strip():
        raise ProfileError("empty target line: write e.g. '5x Intercessor: T4 Sv3+ W2'")
    refuse_foreign_digits(line, line)
    text = plain_marks(line)
    count, body = _split_count(text, line)
    name, body = _split_name(body, line)   # a name may hold brackets: 'Veteran [Crucible]'
    body, bracket = _split_brackets(body, line)
    fields: dict[str, Any] = {}
    for piece in _scan(body, line):
        token = _TARGET_TOKEN_RE.fullmatch(piece.text)
        if token is None:
            raise ProfileError(
                f"unknown token '{piece.text}'", detail=": a target line reads "
                "[Nx] [Name:] T4 Sv3+ [InSv4+] W2 [FNP5+] [KEYWORDS]; put the name before a "
                "colon", token=piece.text, column=piece.column, line=line)
        label = token.group(1).upper()
        value = _Piece(token.group(2), piece.column + token.start(2))
        key = {"INV": "INSV"}.get(label, label)
        if key == "FNP":
            fnp, against = _fnp(value, line)
            key = f"fnp_{against}" if against else "fnp"
            if key in fields:
                _fail_duplicate(piece.text, piece, line)
            fields[key] = fnp
            continue
        if key in fields:
            _fail_duplicate(key, piece, line)
        if key == "T":
            fields["T"] = _integer(value, "T", line)
        elif key == "W":
            fields["W"] = _integer(value, "W", line)
        elif key == "SV":
            fields["SV"] = _save(value, "Sv", line)
        else:
            fields["INSV"], fields["invuln_scope"] = _invuln(value, line)
    for key, example in (("T", "T4"), ("SV", "Sv3+ (or Sv- for none)"), ("W", "W2")):
        if key not in fields:
            shown = {"SV": "Sv"}.get(key, key)
            raise ProfileError(f"missing characteristic {shown}: add it, e.g. {example}",
                               line=line)
    keywords = _parse_keywords(bracket, line) if bracket else frozenset()
    try:
        return TargetProfile(
            name=name, count=count, toughness=fields["T"], save=fields["SV"],
            wounds=fields["W"], invuln=fields.get("INSV"),
            invuln_scope=fields.get("invuln_scope", "all"),
            fnp=fields.get("fnp"), fnp_mortal=fields.get("fnp_mortal"), keywords=keywords,
            fnp_psychic=fields.get("fnp_psychic"))
    except ProfileError as exc:
        raise _locate(exc, line) from None


def _fast_weapon(line: str) -> Weapon | None:
    """The weapon of a common, well-formed line read in one match (the same profile the full
    reader gives), or None: the full reader then reads the line and names any fault."""
    match = _FAST_WEAPON_RE.fullmatch(line) if line.isascii() else None
    if match is None:
        return None
    count, name, range_text, attacks, skill, melee_attacks, ws, strength, ap, damage, \
        bracket = match.groups()
    if damage in ("3", "6") or (count is None and malformed_count(line) is not None):
        return None   # 'D3'/'D6' is ambiguous, 'nanx Gun' a count written wrong: the full
        # reader says so
    try:
        return Weapon(
            name=name, count=int(count) if count else 1, melee=range_text is None,
            range_inches=int(range_text) if range_text else None,
            attacks=_fast_dice(attacks or melee_attacks),
            skill=int(ws) if ws else None if skill == "N/A" else int(skill[0]),
            strength=int(strength), ap=int(ap), damage=_fast_dice(damage),
            abilities=(_fast_abilities(bracket)
                       or _parse_abilities(_Piece(bracket, match.start(11) + 1), line))
            if bracket else ())
    except ProfileError:
        return None


def _fast_abilities(bracket: str) -> tuple[Ability, ...] | None:
    """The abilities of a common bracket (``SUSTAINED HITS 1, HEAVY``: names, each with at
    most a number 1-9, no scope, no [ANTI-X]) as the full reader gives them, or None (the
    full reader then reads the bracket and names any fault)."""
    parsed = []
    for item in bracket.upper().split(", "):
        ability = _PLAIN_ABILITIES.get(item)
        if ability is None:
            head, _, number = item.rpartition(" ")
            name = _NUMBERED_ABILITIES.get(head)
            if name is None or len(number) != 1 or not "1" <= number <= "9":
                return None
            ability = Ability(name, value=DiceExpr(0, 0, int(number)))
        parsed.append(ability)
    return tuple(dict.fromkeys(parsed))


def _fast_dice(text: str) -> DiceExpr:
    """A dice expression the fast weapon pattern matched (``2``, ``D6``, ``2D3``, ``D6+1``):
    the same expression :meth:`DiceExpr.parse` reads, without its checks for other forms."""
    count, die, rest = text.partition("D")
    if not die:
        return DiceExpr(0, 0, int(text))
    sides, _, constant = rest.partition("+")
    return DiceExpr(int(count) if count else 1, int(sides), int(constant) if constant else 0)


def common_target_line(line: str) -> TargetProfile | None:
    """The profile of a common, well-formed target line read in one match, or None (see
    :func:`_fast_weapon`): :func:`parse_target` then reads the line and names any fault."""
    match = _FAST_TARGET_RE.fullmatch(line) if line.isascii() else None
    if match is None:
        return None
    count, name, toughness, save, invuln, wounds, fnp, bracket = match.groups()
    if count is None and malformed_count(line) is not None:
        return None   # 'nanx Guardsman: ...': the full reader refuses the count
    try:
        return TargetProfile(
            name=name or "", count=int(count) if count else 1, toughness=int(toughness),
            save=NO_SAVE if save == "-" else int(save[0]), wounds=int(wounds),
            invuln=int(invuln) if invuln else None, fnp=int(fnp) if fnp else None,
            keywords=(frozenset(bracket.split(", ")) if _PLAIN_KEYWORDS_RE.fullmatch(bracket)
                      else _parse_keywords(_Piece(bracket, match.start(8) + 1), line))
            if bracket else frozenset())
    except ProfileError:
        return None


def _check_text(line: object, what: str, objects: str) -> None:
    if not isinstance(line, str):
        raise ProfileError(f"a {what} is a {what} line (text) or {objects}, not "
                           f"{type(line).__name__} {line!r:.60}")
    refuse_control_characters(line, line, f"a {what} line")   # a tab is a space here


# -- pieces of a line ---------------------------------------------------------------------
def _split_count(text: str, line: str) -> tuple[int, _Piece]:
    refuse_malformed_count(text, line, "10x Intercessor: T4 Sv3+ W2")
    match = _COUNT_RE.match(text)
    if not match:
        glued = _GLUED_COUNT_RE.match(text)
        if glued:
            token = text[glued.start():].split()[0]
            raise ProfileError(f"'{token}'", detail=" is not a count: write one count and a space "
                               "before the name, e.g. '10x Intercessor: ...'", token=token,
                               column=len(text) - len(text.lstrip()) + 1, line=line)
        return 1, _Piece(text, 1)
    try:
        count = check_number_text(match.group(1), MAX_MODELS, "count")
    except ProfileError:
        raise ProfileError(f"count '{match.group(1)}x'", detail=f" is too large: at most "
                           f"{MAX_MODELS:,} models on one line", token=f"{match.group(1)}x",
                           column=match.start(1) + 1, line=line) from None
    if count < 1:
        raise ProfileError(f"count '{match.group(1)}x'", detail=" is impossible: a line needs at "
                           "least one model (write 1x or leave the count out)",
                           token=f"{match.group(1)}x", column=match.start(1) + 1, line=line)
    return count, _Piece(text[match.end():], match.end() + 1)


def _split_brackets(body: _Piece, line: str) -> tuple[_Piece, _Piece | None]:
    text = body.text
    start = text.find("[")
    if start < 0:
        if "]" in text:
            raise ProfileError("']'", detail=" has no matching '['", token="]",
                               column=body.column + text.index("]"), line=line)
        return body, None
    end = text.rfind("]")
    if end < start:
        raise ProfileError("'['", detail=" is never closed: end the list with ']'", token="[",
                           column=body.column + start, line=line)
    trailing = text[end + 1:].strip()
    if trailing:
        raise ProfileError(f"'{trailing}'", detail=" follows the closing ']': the bracketed list "
                           "comes last", token=trailing,
                           column=body.column + text.index(trailing, end), line=line)
    inner = _Piece(text[start + 1:end], body.column + start + 1)
    if "[" in inner.text or "]" in inner.text:
        raise ProfileError("nested brackets", detail=": write one list, e.g. [ASSAULT, HEAVY]",
                           token="[", column=body.column + start, line=line)
    return _Piece(text[:start], body.column), inner


def _split_name(body: _Piece, line: str | None = None) -> tuple[str, _Piece]:
    """The name before the first colon outside brackets (``Veteran [Crucible]: ...``, not
    ``[LETHAL HITS: VEHICLE]``'s), taken from the original ``line`` when given: curly quotes
    and dashes in names survive (only the characteristics are normalised)."""
    found = _NAME_COLON_RE.match(body.text)
    if found is None:
        return "", body
    colon = found.end() - 1
    name = body.text[:colon].strip()
    if line is not None:
        start = body.column - 1
        original = line[start:start + colon].strip()
        name = original if len(original) == len(name) else name
    return name, _Piece(body.text[colon + 1:], body.column + colon + 1)


def _scan(body: _Piece, line: str) -> list[_Piece]:
    """Split the characteristics into tokens, joining a label to a value after a space."""
    pieces = [_Piece(m.group(0), body.column + m.start())
              for m in _WORD_RE.finditer(body.text)]
    joined: list[_Piece] = []
    i = 0
    while i < len(pieces):
        piece = pieces[i]
        bare_label = piece.text.upper() in _BARE_LABELS
        number_only = _NUMBER_RE.fullmatch(piece.text)
        nxt = pieces[i + 1] if i + 1 < len(pieces) else None
        if bare_label and nxt is not None:
            joined.append(_Piece(piece.text + nxt.text, piece.column))
            i += 2
        elif number_only and nxt is not None and nxt.text in ('"', "''", "in", "inches"):
            joined.append(_Piece(piece.text + nxt.text, piece.column))
            i += 2
        else:
            joined.append(piece)
            i += 1
    return joined


def _fail_duplicate(label: str, piece: _Piece, line: str) -> None:
    raise ProfileError(f"'{piece.text}'", detail=f" gives {label} a second time: keep one",
                       token=piece.text, column=piece.column, line=line)


def _fail_ambiguous_damage(piece: _Piece, line: str) -> None:
    die = piece.text.upper()
    raise ProfileError(f"'{piece.text}'", detail=f" is ambiguous: write D{die} for a {die} "
                       f"damage roll, or D {die[1:]} for {die[1:]} damage", token=piece.text,
                       column=piece.column, line=line)


def _locate(exc: ProfileError, line: str) -> ProfileError:
    """Add the column and the line to an error raised by a profile's own validation."""
    if exc.line is not None:
        return exc
    token = exc.token
    index = line.upper().find(token.upper()) if token else -1
    return exc.placed(index + 1 if index >= 0 else None, line)


# -- values -------------------------------------------------------------------------------
def _dice(piece: _Piece, label: str, line: str) -> DiceExpr:
    try:
        return DiceExpr.parse(piece.text)
    except ProfileError as exc:
        if label.upper() == "D" and re.fullmatch(r"\d+\+\d+", piece.text):
            # 'D6+1' under D: "6+1" is no dice expression, so the D is the die's (D6+1)
            return DiceExpr.parse("D" + piece.text)
        raise ProfileError(f"{label}{piece.text}", detail=f": {exc}", token=f"{label}{piece.text}",
                           column=piece.column - len(label), line=line) from None


def _integer(piece: _Piece, label: str, line: str) -> int:
    text = piece.text.replace(" ", "")
    if label == "S" and _RANDOM_STRENGTH_RE.fullmatch(text):
        raise ProfileError(
            f"'S{piece.text}'", detail=": a random Strength is not modelled (it is rolled per "
            "weapon, so one batch would mix wound tables weapon by weapon); write one line per "
            "Strength value, e.g. S5 and S8, and weigh the results", token=f"S{piece.text}",
            column=piece.column - 1, line=line)
    if not _SIGNED_RE.fullmatch(text):
        hint = {"S": "S4", "AP": "AP-1 (or AP0)", "T": "T4", "W": "W2"}.get(label, "a number")
        raise ProfileError(f"'{label}{piece.text}'", detail=f" is not a number: write e.g. {hint}",
                           token=f"{label}{piece.text}", column=piece.column - len(label),
                           line=line)
    return _bounded(text, piece, label, line)


def _range(digits: str, piece: _Piece, line: str) -> int:
    """A range's inches, at most :data:`MAX_NUMBER` like every number on a line (read before
    converting: ``int()`` refuses 4,300 digits with a bare ValueError)."""
    try:
        return check_number_text(digits, MAX_NUMBER, "range")
    except ProfileError as exc:
        raise ProfileError(f"'{piece.text}'", detail=f": {exc}", token=piece.text,
                           column=piece.column, line=line) from None


def _bounded(text: str, piece: _Piece, label: str, line: str) -> int:
    try:
        return check_number_text(text, MAX_NUMBER, label)
    except ProfileError as exc:
        raise ProfileError(f"'{label}{piece.text}'",
                           detail=f": {exc}", token=f"{label}{piece.text}",
                           column=piece.column - len(label), line=line) from None


def _skill(piece: _Piece, label: str, line: str) -> int | None:
    match = _SKILL_RE.fullmatch(piece.text)
    if match is None:
        raise ProfileError(f"'{label}{piece.text}'", detail=f" is not a skill: write e.g. "
                           f"{label}3+ or {label}N/A", token=f"{label}{piece.text}",
                           column=piece.column - len(label), line=line)
    return None if match.group(2) else _bounded(match.group(1), piece, label, line)


def _save(piece: _Piece, label: str, line: str) -> int:
    if piece.text in ("-", "7+", "7"):
        return NO_SAVE
    match = _SAVE_RE.fullmatch(piece.text)
    if match is None:
        raise ProfileError(f"'{label}{piece.text}'",
                           detail=f" is not a save: write e.g. {label}3+ "
                                  f"(or {label}- for none)", token=f"{label}{piece.text}",
                           column=piece.column - len(label), line=line)
    return _bounded(match.group(1), piece, label, line)


def _invuln(piece: _Piece, line: str) -> tuple[int, str]:
    match = _INVULN_RE.fullmatch(piece.text)
    if match is None:
        raise ProfileError(f"'InSv{piece.text}'", detail=" is not an invulnerable save: write "
                           "e.g. InSv4+, or InSv5+(ranged) for one that works against ranged "
                           "attacks only", token=f"InSv{piece.text}", column=piece.column - 4,
                           line=line)
    scope = (match.group(2) or match.group(3) or "all").lower()
    return _bounded(match.group(1), piece, "InSv", line), scope


def _fnp(piece: _Piece, line: str) -> tuple[int, str]:
    """N and what the Feel No Pain works against: "" (all damage), "mortal" or "psychic"."""
    match = _FNP_RE.fullmatch(piece.text)
    if match is None:
        raise ProfileError(f"'FNP{piece.text}'", detail=" is not a Feel No Pain: write e.g. "
                           "FNP5+, FNP5+(mortal) for one against mortal wounds only or "
                           "FNP5+(psychic) for one against psychic attacks only",
                           token=f"FNP{piece.text}", column=piece.column - 3, line=line)
    against = (match.group(2) or match.group(3) or "").lower()
    return _bounded(match.group(1), piece, "FNP", line), "mortal" if against == "mw" else against


# -- abilities and keywords ---------------------------------------------------------------
def _items(bracket: _Piece, line: str) -> list[_Piece]:
    items = []
    offset = 0
    for raw in bracket.text.split(","):
        stripped = raw.strip()
        lead = len(raw) - len(raw.lstrip())
        if stripped:
            items.append(_Piece(stripped, bracket.column + offset + lead))
        elif bracket.text.strip():
            raise ProfileError("empty item in the list", detail=": remove the extra comma, e.g. "
                               "[ASSAULT, HEAVY]", token=",", column=bracket.column + offset,
                               line=line)
        offset += len(raw) + 1
    return items


def _parse_abilities(bracket: _Piece, line: str) -> tuple[Ability, ...]:
    parsed: list[Ability] = []
    for item in _items(bracket, line):
        text = " ".join(item.text.upper().split())
        if ":" in text:
            head, scope_text = (part.strip() for part in text.split(":", 1))
            scope = _scope_keywords(scope_text, item, line)
        else:
            head, scope = text, ()
            if parsed and parsed[-1].scope and _ability_head(head) is None:
                # "[LETHAL HITS: VEHICLE, MONSTER]": a comma list of keywords after a colon.
                last = parsed.pop()
                parsed.append(Ability(last.name, last.value, last.anti_keyword, last.threshold,
                                      last.scope + _scope_keywords(head, item, line)))
                continue
        parsed.append(_ability(head, scope, item, line))
    return _without_repeats(parsed)


def parse_abilities(text: str, line: str, column: int) -> tuple[Ability, ...]:
    """The abilities written between brackets (``"LETHAL HITS, SUSTAINED HITS 1"``), read as
    on a weapon line; ``column`` is the 1-based column of ``text`` in ``line``.

    Raises
    ------
    ProfileError
        Naming the item and its column in ``line``.

    Examples
    --------
    >>> [str(a) for a in parse_abilities("lethal hits, anti-infantry 4+", "[...]", 2)]
    ['LETHAL HITS', 'ANTI-INFANTRY 4+']
    """
    return _parse_abilities(_Piece(text, column), line)


def is_keyword(text: str) -> bool:
    """Whether ``text`` (upper case) reads as a keyword: words of letters, digits and
    apostrophes joined by single spaces or hyphens (``ADEPTUS ASTARTES``, ``NON-VEHICLE``)."""
    return _KEYWORD_RE.fullmatch(text) is not None


def _without_repeats(parsed: list[Ability]) -> tuple[Ability, ...]:
    """Collapse identical repeats (``[HEAVY, HEAVY]``). Instances with different values stay:
    duplicates never stack (24.02), the engine picks the one instance that applies."""
    return tuple(dict.fromkeys(parsed))


def _ability_head(text: str) -> tuple[str, str] | None:
    """Split ``SUSTAINED HITS D3`` into the canonical name and its parameter text."""
    if text.startswith("ANTI-") or text.startswith("ANTI "):
        return ab.ANTI, text[5:]
    for alias, canonical in ab.ALIASES.items():
        if text == alias or text.startswith(alias + " "):
            return canonical, text[len(alias):].strip()
    for name in _ABILITIES_LONGEST_FIRST:
        if text == name or text.startswith(name + " "):
            return name, text[len(name):].strip()
    return None


def _ability(text: str, scope: tuple[str, ...], item: _Piece, line: str) -> Ability:
    head = _ability_head(text)
    if head is None:
        stem = re.sub(r"\s+(D?\d+\+?|\d*D\d+(?:\+\d+)?)$", "", text)
        tail = text[len(stem):]
        hint = did_you_mean(stem, ab.WEAPON_ABILITIES)
        if hint:
            hint = hint.replace("?'", "'").rstrip("?")
            hint = hint[:-1] + f"{tail}'?"
        else:
            hint = "; known abilities: " + ", ".join(sorted(ab.WEAPON_ABILITIES))
        raise UnknownWordError(f"unknown ability '{item.text}'", detail=hint, token=item.text,
                               column=item.column, line=line)
    name, param_text = head
    spec = ab.WEAPON_ABILITIES[name]
    if spec.param is ab.Param.ANTI:
        match = re.fullmatch(r"(.+?)\s+(\d+)\+?", param_text)
        if match is None:
            raise ProfileError(f"'{item.text}'", detail=": write ANTI-KEYWORD Y+, e.g. "
                               "ANTI-INFANTRY 4+", token=item.text, column=item.column,
                               line=line)
        keyword = match.group(1).strip()
        if not _KEYWORD_RE.fullmatch(keyword):
            raise ProfileError(f"'{item.text}'", detail=f": '{keyword}' is not a keyword; write "
                               "ANTI-KEYWORD Y+ with one threshold, e.g. ANTI-INFANTRY 4+",
                               token=item.text, column=item.column, line=line)
        threshold = _bounded(match.group(2), _Piece(match.group(2), item.column), "ANTI", line)
        if not 2 <= threshold <= 6:
            raise ProfileError(f"'{item.text}'", detail=f": the threshold {threshold}+ must be "
                               "between 2+ and 6+", token=item.text, column=item.column,
                               line=line)
        return Ability(name, anti_keyword=keyword, threshold=threshold, scope=scope)
    if spec.param is ab.Param.NONE:
        if param_text:
            raise ProfileError(f"'{item.text}'", detail=f": {name} takes no value; write "
                               f"[{name}]", token=item.text, column=item.column, line=line)
        return Ability(name, scope=scope)
    if not param_text:
        if spec.param is ab.Param.OPTIONAL_NUMBER:
            return Ability(name, scope=scope)
        example = "D3" if spec.param is ab.Param.DICE else "2"
        raise ProfileError(f"'{item.text}'", detail=f": {name} needs a value, e.g. "
                           f"{name} {example}", token=item.text, column=item.column, line=line)
    try:
        value = DiceExpr.parse(param_text)
    except ProfileError as exc:
        raise ProfileError(f"'{item.text}'", detail=f": {exc}", token=item.text,
                           column=item.column, line=line) from None
    if value.maximum < 1:
        raise ProfileError(f"'{item.text}'", detail=f": {name} {value} adds nothing; X must be at "
                           "least 1", token=item.text, column=item.column, line=line)
    return Ability(name, value=value, scope=scope)


def _scope_keywords(text: str, item: _Piece, line: str) -> tuple[str, ...]:
    keywords = tuple(k.strip() for k in re.split(r"/|\bOR\b", text) if k.strip())
    for keyword in keywords:
        if not _KEYWORD_RE.fullmatch(keyword):
            raise ProfileError(f"'{keyword}'", detail=" is not a keyword: write e.g. "
                               "[LETHAL HITS: VEHICLE] or [LETHAL HITS: VEHICLE/MONSTER]",
                               token=keyword, column=item.column, line=line)
    if not keywords:
        raise ProfileError(f"'{item.text}'", detail=": name a keyword after the colon",
                           token=item.text, column=item.column, line=line)
    return keywords


def parse_keywords(text: str, line: str) -> frozenset[str]:
    """Keywords written in brackets (``"INFANTRY, CHARACTER"``), validated as on a target line.

    Raises
    ------
    ProfileError
        For an empty item or a word that is not a keyword.
    """
    return _parse_keywords(_Piece(text, max(line.find("[") + 2, 1)), line)


def _parse_keywords(bracket: _Piece, line: str) -> frozenset[str]:
    keywords = set()
    for item in _items(bracket, line):
        keyword = " ".join(item.text.upper().split())
        if not _KEYWORD_RE.fullmatch(keyword):
            raise ProfileError(f"'{item.text}'", detail=" is not a keyword: keywords are words "
                               "such as INFANTRY, VEHICLE, CHARACTER", token=item.text,
                               column=item.column, line=line)
        keywords.add(keyword)
    return frozenset(keywords)


#: Abilities the fast reader takes as written: ``name`` alone (its Ability), and the names
#: that take a number (``name N``); each as the full reader reads it (checked on import).
_PLAIN_ABILITIES = {name: Ability(name) for name, spec in ab.WEAPON_ABILITIES.items()
                    if spec.param in (ab.Param.NONE, ab.Param.OPTIONAL_NUMBER)
                    and _ability_head(name) == (name, "")}
_NUMBERED_ABILITIES = {name: name for name, spec in ab.WEAPON_ABILITIES.items()
                       if spec.param in (ab.Param.DICE, ab.Param.OPTIONAL_NUMBER)
                       and all(_ability_head(f"{name} {n}") == (name, str(n))
                               for n in range(1, 10))}

"""Reading buffs (issue 35): the grammar of a buff's text, read like a weapon line.

A buff is a name, what it grants, to whom, and when::

    [NAME:] GRANT {, GRANT | and GRANT} {SCOPE} [when CONDITION {and CONDITION}] [(COST)]

GRANT (one or more, separated by commas or ``and``):

- ``[ABILITY, ...]``: weapon abilities, read as on a weapon line (``[LETHAL HITS]``,
  ``[SUSTAINED HITS 1]``, ``[ANTI-INFANTRY 4+]``, ``[LETHAL HITS: VEHICLE]``);
- ``+1 to hit``, ``-1 to hit``, ``+1 to wound``, ``+1 to save`` (roll modifiers);
- ``re-roll [ones|failed|non-critical|all|low] hits|wounds|saves|damage|attacks`` (``re-roll
  hits`` re-rolls failed hits; ``re-roll hits of 1`` the ones; damage and attacks take
  ``ones`` or ``low``, default ``low``);
- ``+N strength`` (``S``), ``+N attacks`` (``A``), ``+N damage`` (``D``), ``+N AP`` (improve;
  ``-N AP`` worsens, never past AP0): the weapon's characteristics;
- ``critical hits on 5+``, ``critical wounds on 5+``;
- defensive: ``FNP 5+`` (``feel no pain 5+``), ``invulnerable 4+`` (``InSv4+``), ``cover``
  (``benefit of cover``), ``-1 damage``, ``halve damage``.

SCOPE (any of):

- ``to MELEE weapons``, ``to RANGED weapons``, ``to PISTOL weapons`` (any weapon ability
  name): the weapon lines it changes; ``in the shooting phase`` / ``in the fight phase`` are
  ``RANGED`` / ``MELEE`` weapons;
- ``against KEYWORD[/KEYWORD]`` (or ``vs``): only against a target with one of the keywords
  (``NON-`` allowed); abilities carry it as their own scope (``[LETHAL HITS: INFANTRY]``);
- ``to KEYWORD``: who receives the buff. A defensive grant applies when the target has the
  keyword; an attacker's grant is the user's word that the attacking unit has it (the lines
  carry no unit keywords), so it applies.

CONDITION: ``charged``, ``stationary``, ``half range``, ``below half strength``, ``cover``,
``advanced``, ``overwatch``, ``indirect``, ``beyond 12``: read from the situation (the flags
``--charged``, ``--stationary``, ``--half-range``, ``--below-half-strength``...). A buff whose
condition does not hold changes nothing.

COST: ``(1CP)``, ``(2 CP)``, ``(25 pts)``: what the buff costs, for :func:`attribution`.

Applying them: :mod:`mathhammer.wh40k.buffs`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from mathhammer.core.limits import (MAX_NUMBER, check_number_text, refuse_control_characters,
                                    refuse_foreign_digits)
from mathhammer.core.numbers import plain_marks
from mathhammer.errors import ProfileError, did_you_mean
from mathhammer.wh40k import abilities as ab
from mathhammer.wh40k.parse import is_keyword, parse_abilities
from mathhammer.wh40k.profiles import REROLL_POLICIES, Ability, Situation

#: Longest buff text read (a longer one is refused before it is read).
MAX_BUFF_TEXT = 400

#: Grant kinds the defender benefits from (``to KEYWORD`` then names the target's keyword).
DEFENSIVE_KINDS = frozenset({"save", "fnp", "invuln", "cover", "damage_minus",
                             "damage_halved"})

#: Condition words (as written, lower case) -> the :class:`Situation` field they read.
CONDITIONS = {
    "charged": "charged", "charging": "charged", "it charged": "charged",
    "stationary": "stationary", "remained stationary": "stationary",
    "half range": "half_range", "within half range": "half_range",
    "at half range": "half_range",
    "below half strength": "below_half_strength", "below half-strength": "below_half_strength",
    "cover": "cover", "in cover": "cover", "advanced": "advanced", "overwatch": "overwatch",
    "indirect": "indirect", "beyond 12": "beyond_12", 'beyond 12"': "beyond_12",
}
_ROLL_WORDS = {"hit": "hits", "hits": "hits", "wound": "wounds", "wounds": "wounds",
               "save": "saves", "saves": "saves", "damage": "damage", "attacks": "attacks",
               "attack": "attacks"}
_POLICY_WORDS = {"ones": "ones", "1s": "ones", "failed": "failed", "all": "all",
                 "non-critical": "noncrit", "noncrit": "noncrit", "non-crit": "noncrit",
                 "low": "low"}
_CHARACTERISTICS = {"strength": "strength", "s": "strength", "attacks": "attacks",
                    "attack": "attacks", "a": "attacks", "damage": "damage", "d": "damage",
                    "ap": "ap"}
_ROLL_MODS = {"hit": "hit", "hits": "hit", "wound": "wound", "wounds": "wound",
              "save": "save", "saves": "save"}
_SCOPE_WORDS = frozenset({"to", "for", "against", "vs", "in", "when", "while", "if"})
_PHASES = {"shooting": "RANGED", "fight": "MELEE"}
_TOKEN_RE = re.compile(r"\[[^\]]*\]?|\([^)]*\)?|,|[^\s,\[\(]+")
_SIGNED_RE = re.compile(r"([+-])\s*(\d+)$")
_ROLL_RE = re.compile(r"(\d+)\+?$")
_COST_RE = re.compile(r"\(\s*(\d+(?:\.\d+)?)\s*(CP|PTS|POINTS|PT)\s*\)$", re.IGNORECASE)
_FNP_GLUED_RE = re.compile(r"(FNP|INSV|INV)(\d+)\+?$", re.IGNORECASE)



@dataclass(frozen=True, slots=True)
class Grant:
    """One thing a buff gives.

    Parameters
    ----------
    kind
        ``ability``, ``hit``, ``wound``, ``save``, ``reroll``, ``strength``, ``ap``,
        ``damage``, ``attacks``, ``crit_hits``, ``crit_wounds``, ``fnp``, ``invuln``,
        ``cover``, ``damage_minus`` or ``damage_halved``.
    value
        The number (+1 to hit: 1; FNP 5+: 5), or the re-roll policy for ``reroll``.
    roll
        For ``reroll``: ``hits``, ``wounds``, ``saves``, ``damage`` or ``attacks``.
    abilities
        For ``ability``: the abilities, as on a weapon line.
    """

    kind: str
    value: int | str | None = None
    roll: str | None = None
    abilities: tuple[Ability, ...] = ()

    def __str__(self) -> str:
        if self.kind == "ability":
            return "[" + ", ".join(str(a) for a in self.abilities) + "]"
        if self.kind == "reroll":
            return f"re-roll {self.roll} ({self.value})"
        if self.kind in ("hit", "wound", "save"):
            return f"{int(self.value or 0):+d} to {self.kind}"
        if self.kind in ("strength", "attacks", "damage", "ap"):
            name = "AP" if self.kind == "ap" else self.kind
            return f"{int(self.value or 0):+d} {name}"
        return {"crit_hits": f"critical hits on {self.value}+",
                "crit_wounds": f"critical wounds on {self.value}+",
                "fnp": f"FNP {self.value}+", "invuln": f"invulnerable {self.value}+",
                "cover": "cover", "damage_minus": f"-{self.value} damage",
                "damage_halved": "halve damage"}[self.kind]


@dataclass(frozen=True, slots=True)
class Buff:
    """A named buff: what it grants, to whom, when, and what it costs.

    Build one with :func:`parse_buff`; see the module's grammar.

    Parameters
    ----------
    name
        The name written before the colon, or the text itself.
    grants
        What it gives.
    weapons
        ``MELEE``, ``RANGED``, a weapon ability name (the lines that have it), or None for
        every line.
    against
        Target keywords: the buff applies only against a target with one of them.
    recipients
        ``to KEYWORD``: who receives it (the target's keyword for a defensive grant).
    conditions
        :class:`Situation` fields that must all hold.
    cost, cost_unit
        The cost (``1``, ``"CP"``), or None.
    text
        The text it was read from.
    """

    name: str
    grants: tuple[Grant, ...]
    weapons: str | None = None
    against: tuple[str, ...] = ()
    recipients: tuple[str, ...] = ()
    conditions: tuple[str, ...] = ()
    cost: float | None = None
    cost_unit: str = "CP"
    text: str = ""

    def __str__(self) -> str:
        return self.text or f"{self.name}: " + ", ".join(str(g) for g in self.grants)

    def active(self, situation: Situation) -> bool:
        """Whether every condition holds in ``situation``."""
        return all(getattr(situation, c) for c in self.conditions)


@dataclass(frozen=True, slots=True)
class _Piece:
    text: str
    column: int   # 1-based, in the buff's text


# -- reading ----------------------------------------------------------------------------------
def parse_buff(text: str, name: str | None = None) -> Buff:
    """Read one buff (see the module's grammar).

    Parameters
    ----------
    text
        E.g. ``"Oath of Moment: re-roll hits (1CP)"`` or ``"[LETHAL HITS] to INFANTRY"``.
    name
        The buff's name when the text has none (a buff file's key).

    Raises
    ------
    ProfileError
        In one line, naming the token and its column.

    Examples
    --------
    >>> b = parse_buff("Bolter drill: [SUSTAINED HITS 1] to RANGED weapons when stationary")
    >>> b.name, [str(g) for g in b.grants], b.weapons, b.conditions
    ('Bolter drill', ['[SUSTAINED HITS 1]'], 'RANGED', ('stationary',))
    """
    if not isinstance(text, str):
        raise ProfileError(f"a buff is text such as 'Oath of Moment: re-roll hits', not "
                           f"{type(text).__name__} {text!r:.60}")
    if len(text) > MAX_BUFF_TEXT:
        raise ProfileError(f"a buff of {len(text):,} characters is too long: at most "
                           f"{MAX_BUFF_TEXT} (e.g. 'Oath of Moment: re-roll hits')")
    if not text.strip():
        raise ProfileError("empty buff: write e.g. 'Oath of Moment: re-roll hits' or "
                           "'[LETHAL HITS] to INFANTRY'")
    refuse_control_characters(text, text, "a buff")   # a tab is a space
    refuse_foreign_digits(text, text)
    plain = plain_marks(text)
    own_name, body = _split_name(plain, text)
    pieces = _tokens(body, text)
    if not pieces:
        raise ProfileError("the buff grants nothing", detail=": write what it grants after "
                           "the colon, e.g. 'Oath of Moment: re-roll hits'",
                           token=":", column=body.column - 1, line=text)
    reader = _Reader(pieces, text)
    grants = reader.grants()
    fields = reader.scopes()
    buff = Buff(name=own_name or name or " ".join(text.split()), grants=tuple(grants),
                text=" ".join(text.split()), **fields)
    _check_scopes(buff, text)
    return buff


def _split_name(plain: str, text: str) -> tuple[str, _Piece]:
    """The name before the first colon outside brackets, and the rest."""
    depth = 0
    for i, char in enumerate(plain):
        if char == "[":
            depth += 1
        elif char == "]":
            depth -= 1
        elif char == ":" and depth == 0:
            name = text[:i].strip()
            if not name:
                raise ProfileError("':'", detail=" has no name before it: write "
                                   "'NAME: GRANT' or the grant alone", token=":",
                                   column=i + 1, line=text)
            return name, _Piece(plain[i + 1:], i + 2)
    return "", _Piece(plain, 1)


def _tokens(body: _Piece, line: str) -> list[_Piece]:
    pieces = []
    for match in _TOKEN_RE.finditer(body.text):
        piece = _Piece(match.group(0), body.column + match.start())
        if piece.text.startswith("[") and not piece.text.endswith("]"):
            raise ProfileError("'['", detail=" is never closed: end the list with ']'",
                               token="[", column=piece.column, line=line)
        if piece.text.startswith("(") and not piece.text.endswith(")"):
            raise ProfileError("'('", detail=" is never closed: write the cost as (1CP)",
                               token="(", column=piece.column, line=line)
        inner = piece.text[1:-1] if piece.text[:1] in "[(" else piece.text
        if "]" in inner or ")" in inner:
            bad = "]" if "]" in inner else ")"
            start = 1 if inner is not piece.text else 0
            raise ProfileError(f"'{bad}'", detail=" has no matching opening bracket",
                               token=bad, column=piece.column + piece.text.index(bad, start),
                               line=line)
        pieces.append(piece)
    return pieces


class _Reader:
    """Reads grants, then scopes, from the tokens of one buff."""

    def __init__(self, pieces: list[_Piece], line: str) -> None:
        self.pieces = pieces
        self.line = line
        self.i = 0

    # -- helpers
    def peek(self, ahead: int = 0) -> _Piece | None:
        j = self.i + ahead
        return self.pieces[j] if j < len(self.pieces) else None

    def word(self, ahead: int = 0) -> str:
        piece = self.peek(ahead)
        return piece.text.lower() if piece is not None else ""

    def take(self) -> _Piece:
        piece = self.pieces[self.i]
        self.i += 1
        return piece

    def fail(self, piece: _Piece | None, detail: str) -> ProfileError:
        if piece is None:
            last = self.pieces[-1]
            return ProfileError(f"the buff ends after '{last.text}'", detail=detail,
                                token=last.text, column=last.column, line=self.line)
        return ProfileError(f"'{piece.text}'", detail=detail, token=piece.text,
                            column=piece.column, line=self.line)

    def at_scope(self) -> bool:
        word = self.word()
        return word in _SCOPE_WORDS or word.startswith("(") or not word

    # -- grants
    def grants(self) -> list[Grant]:
        grants = [self.grant()]
        while self.word() in (",", "and"):
            separator = self.take()
            if self.at_scope():
                raise self.fail(self.peek() or separator, ": a grant follows ',' or 'and', "
                                "e.g. '[LETHAL HITS], +1 to wound'")
            grants.append(self.grant())
        if not self.at_scope():
            raise self.fail(self.peek(), ": not part of a grant or a scope; a buff reads "
                            "[NAME:] GRANT [to MELEE|RANGED weapons] [against KEYWORD] "
                            "[when CONDITION] [(1CP)]")
        return grants

    def grant(self) -> Grant:
        piece = self.peek()
        if piece is None or piece.text == ",":
            raise self.fail(piece, ": write what the buff grants, e.g. 're-roll hits' or "
                            "'[LETHAL HITS]'")
        word = piece.text.lower()
        if piece.text.startswith("["):
            self.take()
            inner = piece.text[1:-1]
            if not inner.strip():
                raise self.fail(piece, ": name an ability in the brackets, e.g. [LETHAL HITS]")
            return Grant("ability", abilities=parse_abilities(inner, self.line,
                                                              piece.column + 1))
        if word in ("re-roll", "reroll", "re-rolls", "rerolls", "re-rolling"):
            return self.reroll()
        if _SIGNED_RE.match(word) or word in ("+", "-"):
            return self.signed()
        if word in ("fnp", "invuln", "invulnerable", "insv", "inv") or \
                _FNP_GLUED_RE.match(word) or word == "feel":
            return self.save_like()
        if word in ("cover", "benefit", "the") and self._phrase(("the", "benefit", "of",
                                                                  "cover"), ("benefit", "of",
                                                                             "cover"),
                                                                 ("cover",)):
            return Grant("cover")
        if word in ("halve", "halved", "half") and self.word(1) == "damage":
            self.i += 2
            return Grant("damage_halved")
        if word in ("critical", "crit", "crits", "critical hits", "critical wounds"):
            return self.critical()
        rest = " ".join(p.text for p in self.pieces[self.i:]).upper()
        named = [n for n in ab.WEAPON_ABILITIES if rest == n or rest.startswith(n + " ")]
        if named:
            raise self.fail(piece, f": write a weapon ability in brackets, e.g. [{named[0]}]")
        raise self.fail(piece, ": unknown grant" + _grant_hint(word))

    def _phrase(self, *phrases: tuple[str, ...]) -> bool:
        for phrase in phrases:
            if all(self.word(k) == w for k, w in enumerate(phrase)):
                self.i += len(phrase)
                return True
        return False

    def number(self, piece: _Piece, digits: str, what: str, limit: int) -> int:
        try:
            return check_number_text(digits, limit, what)
        except ProfileError as exc:
            raise self.fail(piece, f": {exc}") from None

    def reroll(self) -> Grant:
        start = self.take()
        policy = None
        if self.word() in _POLICY_WORDS:
            policy = _POLICY_WORDS[self.take().text.lower()]
        roll_piece = self.peek()
        if self.word() in ("the", "all") and self.word(1) in _ROLL_WORDS:
            self.take()
            roll_piece = self.peek()
        if roll_piece is None or roll_piece.text.lower() not in _ROLL_WORDS:
            raise self.fail(roll_piece or start, ": re-roll what? write re-roll hits, wounds, "
                            "saves, damage or attacks (e.g. 're-roll hits of 1')")
        roll = _ROLL_WORDS[self.take().text.lower()]
        if self.word() in ("roll", "rolls"):
            self.take()
        if self._phrase(("of", "1"), ("of", "1s"), ("of", "one"), ("ones",)):
            policy = "ones" if policy in (None, "ones") else self._conflict(start, policy)
        if policy is None:
            policy = "low" if roll in ("damage", "attacks") else "failed"
        allowed = (("ones", "low") if roll in ("damage", "attacks") else
                   ("ones", "failed", "all") if roll == "saves" else REROLL_POLICIES[1:])
        if policy not in allowed:
            raise self.fail(start, f": {roll} take the re-roll policies "
                            f"{', '.join(allowed)}, not {policy}")
        return Grant("reroll", value=policy, roll=roll)

    def _conflict(self, piece: _Piece, policy: str) -> str:
        raise self.fail(piece, f": '{policy}' and 'of 1' are two policies; write one")

    def signed(self) -> Grant:
        piece = self.take()
        text = piece.text
        if text in ("+", "-"):   # '+ 1 to hit'
            nxt = self.peek()
            if nxt is None or not nxt.text.isdigit():
                raise self.fail(piece, ": write the number after the sign, e.g. +1 to hit")
            text += self.take().text
        match = _SIGNED_RE.match(text)
        assert match is not None
        rest = text[match.end():]
        if rest:
            raise self.fail(piece, ": write the number, then what it changes, e.g. "
                            "'+1 to hit' or '+1 strength'")
        sign = -1 if match.group(1) == "-" else 1
        word = self.word()
        if word == "to":
            self.take()
            word = self.word()
        target = self.peek()
        if word in _ROLL_MODS:
            self.take()
            if self.word() in ("roll", "rolls"):
                self.take()
            kind = _ROLL_MODS[word]
            value = self.number(piece, match.group(2), f"{kind} modifier", 6)
        elif word in _CHARACTERISTICS:
            self.take()
            kind = _CHARACTERISTICS[word]
            value = self.number(piece, match.group(2), kind, MAX_NUMBER)
            if kind == "damage" and sign < 0:
                if value == 0:
                    raise self.fail(piece, ": -0 damage changes nothing")
                return Grant("damage_minus", value=value)
        else:
            raise self.fail(target or piece, ": what does the number change? write e.g. "
                            "'+1 to hit', '+1 to wound', '+1 strength', '+1 attacks', "
                            "'+1 damage', '+1 AP' or '-1 damage'")
        if value == 0:
            raise self.fail(piece, f": {text} changes nothing; write at least 1")
        return Grant(kind, value=sign * value)

    def save_like(self) -> Grant:
        piece = self.take()
        word = piece.text.lower()
        glued = _FNP_GLUED_RE.match(piece.text)
        if glued:
            kind = "fnp" if glued.group(1).lower() == "fnp" else "invuln"
            return Grant(kind, value=self._roll_value(piece, glued.group(2), kind))
        if word == "feel":
            if not self._phrase(("no", "pain")):
                raise self.fail(piece, ": write 'feel no pain 5+' or 'FNP 5+'")
            kind = "fnp"
        else:
            kind = "fnp" if word == "fnp" else "invuln"
            self._phrase(("save",), ("saving", "throw"))
        value_piece = self.peek()
        match = _ROLL_RE.fullmatch(value_piece.text) if value_piece is not None else None
        if value_piece is None or match is None:
            raise self.fail(value_piece or piece, ": write the roll needed, e.g. "
                            + ("'FNP 5+'" if kind == "fnp" else "'invulnerable 4+'"))
        self.take()
        return Grant(kind, value=self._roll_value(value_piece, match.group(1), kind))

    def _roll_value(self, piece: _Piece, digits: str, kind: str) -> int:
        value = self.number(piece, digits, kind, 99)
        if not 2 <= value <= 6:
            what = "Feel No Pain" if kind == "fnp" else "an invulnerable save"
            raise self.fail(piece, f": {what} needs 2+ to 6+")
        return value

    def critical(self) -> Grant:
        start = self.take()
        roll = self.peek()
        if roll is None or roll.text.lower() not in ("hit", "hits", "wound", "wounds"):
            raise self.fail(roll or start, ": write 'critical hits on 5+' or 'critical wounds "
                            "on 5+'")
        self.take()
        kind = "crit_hits" if roll.text.lower().startswith("hit") else "crit_wounds"
        self._phrase(("on",))
        value_piece = self.peek()
        match = _ROLL_RE.fullmatch(value_piece.text) if value_piece is not None else None
        if value_piece is None or match is None:
            raise self.fail(value_piece or roll, ": write the roll, e.g. 'critical hits on 5+'")
        self.take()
        value = self.number(value_piece, match.group(1), kind, 99)
        if not 2 <= value <= 6:
            raise self.fail(value_piece, ": critical results happen on 2+ to 6+")
        return Grant(kind, value=value)

    # -- scopes
    def scopes(self) -> dict[str, Any]:
        fields: dict[str, Any] = {}
        while self.i < len(self.pieces):
            piece = self.take()
            word = piece.text.lower()
            if word in ("when", "while", "if"):
                self._unique(fields, "conditions", piece)
                fields["conditions"] = self.conditions(piece)
            elif word in ("against", "vs"):
                self._unique(fields, "against", piece)
                fields["against"] = self.keywords(piece)
            elif word == "in":
                self._unique(fields, "weapons", piece)
                fields["weapons"] = self.phase(piece)
            elif word in ("to", "for"):
                words = self.until_scope()
                if words and words[-1].text.lower() in ("weapons", "weapon"):
                    self._unique(fields, "weapons", piece)
                    fields["weapons"] = self.weapon_keyword(piece, words[:-1])
                else:
                    self._unique(fields, "recipients", piece)
                    fields["recipients"] = self.keyword_list(piece, words)
            elif word.startswith("("):
                if self.i < len(self.pieces):
                    raise self.fail(self.peek(), ": the cost comes last, e.g. '... (1CP)'")
                fields["cost"], fields["cost_unit"] = self.cost(piece)
            else:
                raise self.fail(piece, ": not a scope; write 'to MELEE weapons', 'to "
                                "INFANTRY', 'against VEHICLE', 'in the fight phase', 'when "
                                "charged' or a cost such as (1CP)")
        return fields

    def _unique(self, fields: dict[str, Any], key: str, piece: _Piece) -> None:
        if key in fields:
            raise self.fail(piece, f": the buff's {key.replace('_', ' ')} are given twice; "
                            "give them once")

    def until_scope(self) -> list[_Piece]:
        words = []
        while self.i < len(self.pieces) and not self.at_scope():
            words.append(self.take())
        return words

    def conditions(self, start: _Piece) -> tuple[str, ...]:
        words = self.until_scope()
        if not words:
            raise self.fail(start, ": name a condition, e.g. 'when charged'")
        found: list[str] = []
        groups: list[list[_Piece]] = [[]]
        for piece in words:
            if piece.text.lower() in ("and", ","):
                groups.append([])
            else:
                groups[-1].append(piece)
        for group in groups:
            if not group:
                raise self.fail(start, ": an empty condition; write e.g. 'when charged and "
                                "below half strength'")
            phrase = " ".join(p.text.lower() for p in group)
            phrase = re.sub(r"^(the unit |this unit |the attacking unit |it )?(is |has |"
                            r"was |made a )?", "", phrase)
            field = CONDITIONS.get(phrase)
            if field is None:
                raise ProfileError(f"unknown condition '{' '.join(p.text for p in group)}'",
                                   detail=did_you_mean(phrase, CONDITIONS) or
                                   "; conditions: charged, stationary, half range, below "
                                   "half strength, cover, advanced, overwatch, indirect",
                                   token=group[0].text, column=group[0].column,
                                   line=self.line)
            found.append(field)
        return tuple(dict.fromkeys(found))

    def keywords(self, start: _Piece) -> tuple[str, ...]:
        return self.keyword_list(start, self.until_scope())

    def keyword_list(self, start: _Piece, words: list[_Piece]) -> tuple[str, ...]:
        if not words:
            raise self.fail(start, ": name a keyword after it, e.g. 'against INFANTRY'")
        text = " ".join(p.text for p in words).upper()
        keywords = tuple(k.strip() for k in re.split(r"/|\bOR\b|,", text) if k.strip())
        for keyword in keywords:
            if not is_keyword(keyword):
                piece = next((p for p in words if keyword.split()[0] in p.text.upper()),
                             words[0])
                raise ProfileError(f"'{keyword}'", detail=" is not a keyword: keywords are "
                                   "words such as INFANTRY, VEHICLE, ADEPTUS ASTARTES",
                                   token=keyword, column=piece.column, line=self.line)
        if not keywords:
            raise self.fail(words[0], ": name a keyword, e.g. INFANTRY")
        return keywords

    def weapon_keyword(self, start: _Piece, words: list[_Piece]) -> str:
        if not words:
            raise self.fail(start, ": which weapons? write 'to MELEE weapons' or 'to RANGED "
                            "weapons'")
        keyword = " ".join(p.text for p in words).upper().strip("[]")
        if keyword in ("MELEE", "RANGED"):
            return keyword
        for alias, canonical in ab.ALIASES.items():
            if keyword == alias:
                keyword = canonical
        if keyword in ab.WEAPON_ABILITIES:
            return keyword
        known = ("MELEE", "RANGED", *ab.WEAPON_ABILITIES)
        raise ProfileError(f"unknown weapon keyword '{' '.join(p.text for p in words)}'",
                           detail=did_you_mean(keyword, known) or "; write MELEE, RANGED or a "
                           "weapon ability such as PISTOL", token=words[0].text,
                           column=words[0].column, line=self.line)

    def phase(self, start: _Piece) -> str:
        words = [p.text.lower() for p in self.until_scope()]
        words = [w for w in words if w not in ("the", "phase", "your", "each")]
        if len(words) != 1 or words[0] not in _PHASES:
            raise self.fail(start, ": write 'in the shooting phase' or 'in the fight phase'")
        return _PHASES[words[0]]

    def cost(self, piece: _Piece) -> tuple[float, str]:
        match = _COST_RE.fullmatch(piece.text)
        if match is None:
            raise self.fail(piece, ": a cost reads (1CP), (2 CP) or (25 pts)")
        number = match.group(1)
        if len(number) > 8:
            raise self.fail(piece, ": the cost is too large")
        value = float(number)
        if value <= 0:
            raise self.fail(piece, ": a cost is more than 0 (leave it out for none)")
        unit = "CP" if match.group(2).upper() == "CP" else "pts"
        return value, unit


def _grant_hint(word: str) -> str:
    known = {"re-roll": "re-roll hits", "fnp": "FNP 5+", "cover": "cover",
             "invulnerable": "invulnerable 4+", "critical": "critical hits on 5+",
             "halve": "halve damage"}
    hint = did_you_mean(word, known)
    return (hint or "") + "; a grant is [ABILITY], +1 to hit, +1 to wound, re-roll hits, " \
        "+1 strength, +1 attacks, +1 damage, +1 AP, FNP 5+, invulnerable 4+, cover, -1 damage"


def _check_scopes(buff: Buff, line: str) -> None:
    defensive = [g for g in buff.grants if g.kind in DEFENSIVE_KINDS]
    if buff.against and defensive:
        raise ProfileError(f"'against {'/'.join(buff.against)}'",
                           detail=f" scopes the attacker's grants, and '{defensive[0]}' is "
                           "the defender's: write 'to KEYWORD' for the unit that receives it",
                           token="against", column=_column(line, "against"), line=line)
    for grant in buff.grants:
        if grant.kind == "ability" and buff.against and any(a.scope for a in grant.abilities):
            raise ProfileError(f"'{grant}'", detail=" already names its keywords: drop "
                               "'against ...' or the keywords after the colon",
                               token="against", column=_column(line, "against"), line=line)


def _column(line: str, word: str) -> int | None:
    index = line.lower().find(word)
    return index + 1 if index >= 0 else None

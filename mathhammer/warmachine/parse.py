"""Attack and target lines in text form, both ways.

Attack line::

    [Nx] Name: MAT7 POW16 [CHARGE, ARMOR-PIERCING, BLAST POW 8, ...]

Target line::

    [Nx] Name: DEF13 ARM13 BOXES1 [TOUGH, KNOCKED DOWN, ...]

Every error is a :class:`~mathhammer.errors.ProfileError` naming the token, its column and
the fix. Standard library only.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from mathhammer.core.limits import check_line_numbers
from mathhammer.core.numbers import plain_marks, refuse_malformed_count
from mathhammer.errors import ProfileError, UnknownWordError, did_you_mean
from mathhammer.warmachine.profiles import CRIPPLED, Attack, Target

_COUNT_RE = re.compile(r"^\s*(-?\d+)\s*[xX×]\s+")
_STAT_RE = re.compile(r"^([A-Za-z]+)(-?\d+)$")
_KEYWORD_RE = re.compile(r"^(.*?)\s*(-?\d+)?\s*(\+)?$")

Updates = dict[str, object]


def _flag(name: str) -> Callable[[int | None], Updates]:
    return lambda n: {name: True}


def _number(name: str, default: int | None = None) -> Callable[[int | None], Updates]:
    def apply(n: int | None) -> Updates:
        return {name: default if n is None else n}
    return apply


#: keyword -> (takes a number: "no" | "yes" | "optional", updates from the number)
_ATTACK_KEYWORDS: dict[str, tuple[str, Callable[[int | None], Updates]]] = {
    "CHARGE": ("no", _flag("charge")),
    "ARMOR-PIERCING": ("no", _flag("armor_piercing")),
    "CRITICAL ARMOR-PIERCING": ("no", _flag("crit_armor_piercing")),
    "CRITICAL KNOCKDOWN": ("no", _flag("crit_knockdown")),
    "CRITICAL DECAPITATION": ("no", _flag("crit_no_tough")),
    "CRITICAL DAMAGE MULTIPLIER": ("yes", _number("crit_damage_multiplier")),
    "CRITICAL DAMAGE DIE": ("no", lambda n: {"crit_damage_dice": 1}),
    "CRITICAL DAMAGE DICE": ("yes", _number("crit_damage_dice")),
    "CRITICAL CONTINUOUS EFFECT": ("no", _flag("crit_continuous")),
    "BOOSTED ATTACK": ("no", _flag("boosted_attack")),
    "BOOSTED DAMAGE": ("no", _flag("boosted_damage")),
    "DAMAGE BOOSTS": ("yes", _number("damage_boosts")),
    "ATTACK BOOSTS": ("yes", _number("attack_boosts")),
    "ADDITIONAL ATTACK DIE": ("no", lambda n: {"attack_dice": 1}),
    "ADDITIONAL ATTACK DICE": ("yes", _number("attack_dice")),
    "ADDITIONAL DAMAGE DIE": ("no", lambda n: {"damage_dice": 1}),
    "ADDITIONAL DAMAGE DICE": ("yes", _number("damage_dice")),
    "ATTACK DROP LOWEST": ("optional", _number("attack_drop", 1)),
    "DAMAGE DROP LOWEST": ("optional", _number("damage_drop", 1)),
    "FEWER ATTACK DICE": ("yes", _number("attack_reduced")),
    "FEWER DAMAGE DICE": ("yes", _number("damage_reduced")),
    "AUTO HIT": ("no", _flag("auto_hit")),
    "AUTO MISS": ("no", _flag("auto_miss")),
    "REROLL MISSES": ("optional",
                      lambda n: {"reroll_attack": "on_miss", "attack_rerolls": n or 1}),
    "REROLL MISSES OR NO CRIT": ("optional", lambda n: {"reroll_attack": "on_miss_or_no_crit",
                                                        "attack_rerolls": n or 1}),
    "REROLL DAMAGE BELOW": ("yes", _number("reroll_damage_below")),
    "DAMAGE REROLLS": ("yes", _number("damage_rerolls")),
    "AOE": ("no", _flag("aoe")),
    "BLAST POW": ("yes", _number("blast_pow")),
    "CATCHES": ("yes", _number("catches")),
    "SPRAY": ("yes", _number("spray")),
    "EXTRA ATTACK ON HIT": ("no", lambda n: {"generate": "on_hit"}),
    "EXTRA ATTACK ON KILL": ("no", lambda n: {"generate": "on_kill"}),
    "EXTRA ATTACKS MAX": ("yes", _number("max_generated")),
    "LANE": ("yes", _number("lane")),
    **{f"CRIPPLED {system.upper()}": ("no", _flag(f"crippled_{system}")) for system in CRIPPLED},
}

_TARGET_KEYWORDS: dict[str, tuple[str, Callable[[int | None], Updates]]] = {
    "TOUGH": ("optional", lambda n: {"tough": True, "tough_threshold": 5 if n is None else n}),
    "KNOCKED DOWN": ("no", _flag("knocked_down")),
    "STATIONARY": ("no", _flag("stationary")),
    "DAMAGED": ("yes", _number("damaged")),
    "TRANSFER": ("yes", _number("transfers")),
    "TRANSFER BOXES": ("yes", _number("transfer_boxes")),
}

#: The least number of a keyword that counts what it adds: below it the keyword would add
#: nothing ([SPRAY 0] gave the numbers of [SPRAY 1]; [REROLL MISSES 0] read as 1), so it is
#: refused, as 40k refuses [SUSTAINED HITS 0]. A multiplier of 1 multiplies by nothing.
_LEAST = {**{word: 1 for word in (
    "SPRAY", "CATCHES", "DAMAGE BOOSTS", "ATTACK BOOSTS", "ADDITIONAL ATTACK DICE",
    "ADDITIONAL DAMAGE DICE", "ATTACK DROP LOWEST", "DAMAGE DROP LOWEST", "FEWER ATTACK DICE",
    "FEWER DAMAGE DICE", "CRITICAL DAMAGE DICE", "REROLL MISSES", "REROLL MISSES OR NO CRIT",
    "REROLL DAMAGE BELOW", "DAMAGE REROLLS", "EXTRA ATTACKS MAX", "DAMAGED", "TRANSFER",
    "TRANSFER BOXES")}, "CRITICAL DAMAGE MULTIPLIER": 2}

_ALIASES = {
    "ARMOUR-PIERCING": "ARMOR-PIERCING", "ARMOR PIERCING": "ARMOR-PIERCING",
    "AP": "ARMOR-PIERCING", "CRITICAL ARMOUR-PIERCING": "CRITICAL ARMOR-PIERCING",
    "CRITICAL ARMOR PIERCING": "CRITICAL ARMOR-PIERCING", "AUTOMATIC HIT": "AUTO HIT",
    "AUTOMATIC MISS": "AUTO MISS", "REROLL MISS": "REROLL MISSES",
    "KNOCKDOWN": "KNOCKED DOWN", "CRITICAL NO TOUGH": "CRITICAL DECAPITATION",
    "ADDITIONAL DAMAGE DICE 1": "ADDITIONAL DAMAGE DIE", "CRITICAL FIRE":
    "CRITICAL CONTINUOUS EFFECT", "CRITICAL CORROSION": "CRITICAL CONTINUOUS EFFECT",
    "CRITICAL CONTINUOUS": "CRITICAL CONTINUOUS EFFECT",
}

_ATTACK_STATS = ("MAT", "RAT", "AAT", "POW")
_TARGET_STATS = ("DEF", "ARM", "BOXES")


def _normalise(text: str) -> str:
    text = " ".join(text.upper().split())
    return text.replace("RE-ROLL", "REROLL").replace("ARMOUR", "ARMOR")


def _split_line(line: str, what: str, example: str
                ) -> tuple[int, str, str, int, list[tuple[str, int]]]:
    """Split into (count, name, stats text, stats column, [(keyword, column)])."""
    if not isinstance(line, str) or not line.strip():
        raise ProfileError(f"empty {what} line; write it like {example!r}", line=str(line))
    check_line_numbers(line)
    refuse_malformed_count(line, line, example)
    count = 1
    offset = 0
    text = plain_marks(line)  # characteristics and keywords; the name comes from ``line``
    match = _COUNT_RE.match(text)
    if match:
        count = int(match.group(1))
        if count < 1:
            raise ProfileError(f"model/attack count '{match.group(1)}x'", detail=" is impossible; "
                               "write 1x or more", token=f"{match.group(1)}x",
                               column=match.start(1) + 1, line=line)
        offset = match.end()
    rest = text[offset:]
    name = ""
    if ":" in rest:
        length = rest.index(":")
        name = line[offset:offset + length].strip()  # curly quotes and dashes survive
        offset += length + 1
    body = text[offset:]
    keywords: list[tuple[str, int]] = []
    if "[" in body or "]" in body:
        open_at = body.find("[")
        close_at = body.rfind("]")
        if open_at < 0 or close_at < open_at or body[close_at + 1:].strip():
            token = "]" if open_at < 0 else "["
            column = offset + (body.find(token) if token in body else len(body)) + 1
            raise ProfileError("unbalanced brackets", detail=f": put keywords in one "
                               f"[...] group at the end, like {example!r}", token=token,
                               column=column, line=line)
        inner = body[open_at + 1:close_at]
        position = offset + open_at + 1
        for part in inner.split(","):
            stripped = part.strip()
            if stripped:
                keywords.append((stripped, position + part.find(stripped) + 1))
            elif inner.strip():
                raise ProfileError("empty keyword", detail=": remove the extra comma",
                                   token=",", column=position + 1, line=line)
            position += len(part) + 1
        stats = body[:open_at]
    else:
        stats = body
    return count, name, stats, offset, keywords


def _parse_stats(line: str, stats: str, offset: int, allowed: tuple[str, ...], example: str
                 ) -> dict[str, tuple[int, str, int]]:
    found: dict[str, tuple[int, str, int]] = {}
    for match in re.finditer(r"\S+", stats):
        token = match.group(0)
        column = offset + match.start() + 1
        parsed = _STAT_RE.match(token)
        if parsed is None:
            raise ProfileError(f"malformed characteristic '{token}'", detail=f"; write a name and "
                               f"a number with no space, like {example!r}", token=token,
                               column=column, line=line)
        name = parsed.group(1).upper()
        value = int(parsed.group(2))
        if name not in allowed:
            raise ProfileError(f"unknown characteristic '{name}'",
                               detail=f"{did_you_mean(name, allowed)} (known: "
                                      f"{', '.join(allowed)})",
                               token=token, column=column, line=line)
        if name in found:
            raise ProfileError(f"characteristic {name} given twice", detail="; keep one",
                               token=token, column=column, line=line)
        if value < 0:
            raise ProfileError(f"{name} {value}", detail=" is impossible; it must not be "
                               "negative", token=token, column=column, line=line)
        found[name] = (value, token, column)
    return found


def _parse_keywords(line: str, keywords: list[tuple[str, int]],
                    table: dict[str, tuple[str, Callable[[int | None], Updates]]]) -> Updates:
    updates: Updates = {}
    seen: set[str] = set()
    for text, column in keywords:
        normal = _normalise(text)
        normal = _ALIASES.get(normal, normal)
        match = _KEYWORD_RE.match(normal)
        assert match is not None  # the pattern matches any string
        word, number_text = match.group(1), match.group(2)
        word = _ALIASES.get(word, word)
        if word not in table and normal in table:
            word, number_text = normal, None
        if word not in table:
            raise UnknownWordError(f"unknown keyword '{text}'",
                                   detail=did_you_mean(word, table), token=text,
                                   column=column, line=line)
        takes, apply = table[word]
        number = None if number_text is None else int(number_text)
        if takes == "yes" and number is None:
            raise ProfileError(f"keyword {word}", detail=f" needs a number, like '{word} 2'",
                               token=text, column=column, line=line)
        if takes == "no" and number is not None:
            raise ProfileError(f"keyword {word}", detail=f" takes no number; write '{word}'",
                               token=text, column=column, line=line)
        if number is not None and number < 0:
            raise ProfileError(f"{word} {number}", detail=" is impossible; it must not be "
                               "negative", token=text, column=column, line=line)
        if number is not None and 0 <= number < _LEAST.get(word, 0):
            raise ProfileError(f"{word} {number}", detail=f" adds nothing: write {word} "
                               f"{_LEAST[word]} or more, or leave the keyword out", token=text,
                               column=column, line=line)
        if word in seen:
            raise ProfileError(f"keyword {word} given twice", detail="; keep one", token=text,
                               column=column, line=line)
        seen.add(word)
        for key, value in apply(number).items():
            if key in updates and key not in ("attack_rerolls",):
                raise ProfileError(f"keyword '{text}'", detail=" conflicts with an earlier "
                                   "keyword; keep one", token=text, column=column, line=line)
            updates[key] = value
    return updates


_ATTACK_EXAMPLE = "3x Battle hammer: MAT7 POW16 [CHARGE]"
_TARGET_EXAMPLE = "5x Trencher: DEF13 ARM13 BOXES1 [TOUGH]"


def parse_attack(line: str) -> Attack:
    """Parse an attack line; see the module docstring for the syntax.

    Examples
    --------
    >>> a = parse_attack("2x Battle hammer: MAT7 POW16 [CHARGE]")
    >>> a.count, a.stat, a.pow, a.charge
    (2, 7, 16, True)
    """
    count, name, stats, offset, keywords = _split_line(line, "attack", _ATTACK_EXAMPLE)
    found = _parse_stats(line, stats, offset, _ATTACK_STATS, _ATTACK_EXAMPLE)
    kinds = [k for k in ("MAT", "RAT", "AAT") if k in found]
    if len(kinds) != 1:
        if kinds:
            _, token, column = found[kinds[1]]
            raise ProfileError(f"an attack uses one of MAT, RAT and AAT, not both "
                               f"{kinds[0]} and {kinds[1]}", token=token,
                               column=column, line=line)
        raise ProfileError(f"attack line needs its attack stat: add MAT n (melee), RAT n "
                           f"(ranged) or AAT n (arcane), like {_ATTACK_EXAMPLE!r}", line=line)
    if "POW" not in found:
        raise ProfileError(f"attack line needs the weapon's POW, like {_ATTACK_EXAMPLE!r}",
                           line=line)
    updates = _parse_keywords(line, keywords, _ATTACK_KEYWORDS)
    try:
        return Attack(name=name, count=count, stat_kind=kinds[0], stat=found[kinds[0]][0],
                      pow=found["POW"][0], **updates)  # type: ignore[arg-type]
    except ProfileError as exc:
        raise ProfileError(f"{exc}", token=exc.token, line=line) from None


def parse_target(line: str) -> Target:
    """Parse a target line; see the module docstring for the syntax.

    Examples
    --------
    >>> t = parse_target("5x Trencher: DEF13 ARM13 BOXES1 [TOUGH]")
    >>> t.count, t.defense, t.armor, t.boxes, t.tough
    (5, 13, 13, 1, True)
    """
    count, name, stats, offset, keywords = _split_line(line, "target", _TARGET_EXAMPLE)
    found = _parse_stats(line, stats, offset, _TARGET_STATS, _TARGET_EXAMPLE)
    missing = [k for k in ("DEF", "ARM") if k not in found]
    if missing:
        raise ProfileError(f"target line needs {' and '.join(missing)}, like "
                           f"{_TARGET_EXAMPLE!r}", line=line)
    grid, keywords = _take_grid(keywords)
    updates = {**_parse_keywords(line, keywords, _TARGET_KEYWORDS), **grid}
    boxes = found["BOXES"][0] if "BOXES" in found else \
        sum(len(lane) for lane in grid_lanes(grid)) or 1  # a grid counts its boxes
    if boxes < 1:
        _, token, column = found["BOXES"]
        raise ProfileError("BOXES 0", detail=" is impossible; a model has at least one box",
                           token=token, column=column, line=line)
    try:
        return Target(name=name, count=count, defense=found["DEF"][0], armor=found["ARM"][0],
                      boxes=boxes, **updates)  # type: ignore[arg-type]
    except ProfileError as exc:
        raise ProfileError(f"{exc}", token=exc.token, line=line) from None


def grid_lanes(updates: Updates) -> tuple[str, ...]:
    """The damage-grid lanes a target line's ``GRID``/``SPIRAL`` keyword gave (none: ``()``)."""
    lanes = updates.get("grid", ())
    return tuple(lanes) if isinstance(lanes, (tuple, list)) else ()


def _take_grid(keywords: list[tuple[str, int]]
               ) -> tuple[Updates, list[tuple[str, int]]]:
    """Pull ``GRID lane/lane/...`` or ``SPIRAL ...`` (six lanes of ``-`` or letters) out."""
    updates: Updates = {}
    rest = []
    for text, column in keywords:
        word, _, lanes = _normalise(text).partition(" ")
        if word in ("GRID", "SPIRAL") and lanes:
            updates = {"grid": tuple(lane.strip().replace(".", "-")
                                     for lane in lanes.split("/")),
                       "spiral": word == "SPIRAL"}
        else:
            rest.append((text, column))
    return updates, rest


def format_attack(attack: Attack) -> str:
    """Canonical text of an attack line (``parse_attack(format_attack(a)) == a``)."""
    return str(attack)


def format_target(target: Target) -> str:
    """Canonical text of a target line (``parse_target(format_target(t)) == t``)."""
    return str(target)

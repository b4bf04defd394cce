"""Text and TOML forms of Dust Tactics weapons, targets and unit cards.

Weapon (declared) text::

    [Nx ]NAME[ (1)]: BODY [TAG, TAG, ...]
    BODY = CELL                                  one cell for whatever is attacked
         | INF c c c c [VEH c c c c c c c] [AIR c ...]   a full weapon line
    CELL = n/d (n dice per carrier, d damage per hit) | XzY (phaser) | - (cannot attack)
    TAG  = IGNORES COVER | FLAME | NAPALM | ARTILLERY | LASER | SNIPER | CLOSE COMBAT
         | RANGE n | RANGE U | SPECIAL | DICE xN | EXTRA DICE n | DOUBLE SUCCESS

or a weapon card from a TOML unit file: ``[Nx ]FILE.toml#UNIT/WEAPON`` (one line) or
``FILE.toml#UNIT`` (every line of the unit at full strength).

Target text::

    [Nx ]NAME: CLASS+ARMOUR [BOXESn] [HEROn] [TAG, ...]
    CLASS+ARMOUR = INFANTRY1..4 | VEHICLE1..7 | AIRCRAFT1..n   (INF, VEH, AIR also accepted)
    TAG = SOFT COVER | HARD COVER | DAMAGE RESILIENT | SOFT SAVE HIT|MISS|NONE
        | HARD SAVE HIT|MISS|NONE | SAVES ON BLANKS | EVADE | IMPROVED EVADE

or ``FILE.toml#UNIT [TAG, ...]``. Every error is a :class:`~mathhammer.errors.ProfileError`
naming the offending token, its column and the fix.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

from mathhammer.core.inputs import one_or_many
from mathhammer.core.files import MAX_TOML_NESTING, read_bounded, too_deeply_nested
from mathhammer.dust.profiles import (
    AIRCRAFT, DOUBLE, HARD, INFANTRY, MAX_LEVELS, SOFT, VEHICLE, WEAPON_TAGS, Cell,
    ModelGroup, Target, Unit, Weapon, WeaponLine,
)
from mathhammer.core.limits import (check_line_numbers, refuse_control_characters, shown,
                                    unsafe_text)
from mathhammer.core.reference_names import table_line
from mathhammer.core.numbers import plain_marks, refuse_malformed_count
from mathhammer.errors import OptionError, ProfileError, UnknownWordError, did_you_mean

_COUNT_RE = re.compile(r"^\s*(-?\d+)\s*[xX×]\s+")
_CELL_RE = re.compile(r"^(-?\d+)(/|z|Z)(-?\d+)$")
_CLASS_WORDS = {"INF": INFANTRY, "INFANTRY": INFANTRY, "VEH": VEHICLE, "VEHICLE": VEHICLE,
                "AIR": AIRCRAFT, "AIRCRAFT": AIRCRAFT}
_LEVEL_RE = re.compile(r"^(INFANTRY|INF|VEHICLE|VEH|AIRCRAFT|AIR)\s*(-?\d+)$", re.IGNORECASE)
_BOXES_RE = re.compile(r"^(BOXES|HERO)\s*(-?\d+)$", re.IGNORECASE)
# Possessive spaces: the name cannot re-take the spaces after a count (linear time).
_TOML_REF_RE = re.compile(r"^\s*+(?:(-?\d+)\s*+[xX×]\s++)?(.+?\.toml)#(.+)$", re.IGNORECASE)

_WEAPON_TAG_FORMS = list(WEAPON_TAGS) + ["RANGE U", "RANGE 6", "SPECIAL", "DICE X2",
                                          "EXTRA DICE 1", "DOUBLE SUCCESS"]
_TARGET_TAG_FORMS = ["SOFT COVER", "HARD COVER", "OPEN", "DAMAGE RESILIENT", "SOFT SAVE HIT",
                     "SOFT SAVE MISS", "SOFT SAVE NONE", "HARD SAVE HIT", "HARD SAVE MISS",
                     "HARD SAVE NONE", "SAVES ON BLANKS", "EVADE", "IMPROVED EVADE"]
_SAVE_WORDS = {"HIT": "hit_save", "MISS": "miss_save", "BLANK": "miss_save", "NONE": "none"}

#: Folder of the unit cards shipped with the package (``seed.toml``: the rule text's examples).
DATA_DIR = Path(__file__).with_name("data")


# -- small helpers ---------------------------------------------------------------------------
def _split_tags(text: str, line: str, offset: int = 0) -> tuple[str, list[tuple[str, int]]]:
    """Split ``head [a, b]`` into the head and ``[(tag, column), ...]``."""
    open_at = text.find("[")
    if open_at < 0:
        if "]" in text:
            col = text.index("]") + 1 + offset
            raise ProfileError("unexpected ']'", detail=": tags go in one [...] group at the end",
                               token="]", column=col, line=line)
        return text, []
    close_at = text.rfind("]")
    if close_at < open_at:
        raise ProfileError("unclosed '['", detail=": close the tag list with ']'", token="[",
                           column=open_at + 1 + offset, line=line)
    if text[close_at + 1:].strip():
        token = text[close_at + 1:].strip()
        raise ProfileError("unexpected text '" + token + "' after the tag list", detail="; tags "
                           "go in one [...] group at the end", token=token,
                           column=offset + close_at + 2 + text[close_at + 1:].index(token[0]),
                           line=line)
    inner_start = open_at + 1
    tags = []
    pos = inner_start
    for raw in text[inner_start:close_at].split(","):
        stripped = raw.strip()
        if stripped:
            col = offset + pos + raw.index(stripped[0]) + 1
            tags.append((" ".join(stripped.upper().split()), col))
        elif text[inner_start:close_at].strip():
            raise ProfileError("empty tag", detail=": remove the extra comma, e.g. "
                               "[IGNORES COVER, FLAME]", token=",", column=offset + pos + 1,
                               line=line)
        pos += len(raw) + 1
    return text[:open_at], tags


def _tokens(text: str, offset: int) -> list[tuple[str, int]]:
    return [(m.group(0), offset + m.start() + 1) for m in re.finditer(r"\S+", text)]


def _parse_count(text: str, line: str, what: str) -> tuple[int | None, str, int]:
    """An optional ``Nx `` prefix: (count or None, rest, offset of rest)."""
    refuse_malformed_count(text, line, "4x Laser Grenadier: INFANTRY2" if what == "model"
                           else "4x Shotgun: 3/1")
    match = _COUNT_RE.match(text)
    if not match:
        return None, text, 0
    count = int(match.group(1))
    if count < 0:
        raise ProfileError(f"negative {what} count '{match.group(1)}x'",
                           detail=": write how many, "
                                  "e.g. 4x", token=match.group(1) + "x", column=match.start(1) + 1,
                           line=line)
    return count, text[match.end():], match.end()


def _parse_cell(token: str, column: int, line: str) -> Cell | None:
    if token == "-":
        return None
    match = _CELL_RE.match(token)
    if not match:
        raise ProfileError(f"malformed weapon cell '{token}'",
                           detail=": write dice/damage such as 3/1, a phaser XzY such as "
                                  "2z3, or - for a target it cannot attack",
                           token=token, column=column, line=line)
    a, sep, b = int(match.group(1)), match.group(2), int(match.group(3))
    if a < 0 or b < 0:
        raise ProfileError(f"negative value in weapon cell '{token}'", detail=": dice and damage "
                           "are counts (0 or more dice, 1 or more damage)", token=token,
                           column=column, line=line)
    try:
        return Cell(a, 1, phaser=b) if sep in "zZ" else Cell(a, b)
    except ProfileError as exc:
        raise ProfileError(f"weapon cell '{token}'", detail=f": {exc}", token=token, column=column,
                           line=line) from None


def _parse_body(body: str, offset: int, line: str, name: str) -> tuple[Cell | None, tuple]:
    tokens = _tokens(body, offset)
    if not tokens:
        raise ProfileError(f"weapon {name!r} has no cells",
                           detail=": write dice/damage such as 3/1 "
                                  "after the colon", token=name, column=1, line=line)
    first = tokens[0][0].upper()
    if len(tokens) == 1 and first not in _CLASS_WORDS:
        cell = _parse_cell(*tokens[0], line)
        if cell is None:
            raise ProfileError("a one-cell weapon cannot be '-'",
                               detail=": give dice/damage such as "
                                      "3/1", token="-", column=tokens[0][1], line=line)
        return cell, ()
    per_target: list[tuple[str, tuple, int]] = []
    current: str | None = None
    cells: list = []
    for token, col in tokens:
        word = token.upper()
        if word in _CLASS_WORDS:
            if current is not None:
                per_target.append((current, tuple(cells), col))
            current, cells = _CLASS_WORDS[word], []
            if any(c == current for c, *_ in per_target):
                raise ProfileError(f"target class '{token}' given twice", token=token,
                                   column=col, line=line)
            continue
        if current is None:
            hint = did_you_mean(token, list(_CLASS_WORDS))
            raise ProfileError(f"unexpected '{token}'", detail=f": a full weapon line starts each "
                               f"target class with INF, VEH or AIR{hint}", token=token,
                               column=col, line=line)
        cells.append(_parse_cell(token, col, line))
    assert current is not None  # the first token named a class, or the loop raised
    per_target.append((current, tuple(cells), len(line) + 1))
    out = []
    for cls, cs, col in per_target:
        need = MAX_LEVELS[cls]
        if (cls != AIRCRAFT and len(cs) != need) or not cs or len(cs) > need:
            word = {INFANTRY: "INF", VEHICLE: "VEH", AIRCRAFT: "AIR"}[cls]
            expected = f"{need}" if cls != AIRCRAFT else f"1..{need}"
            raise ProfileError(f"{word} needs {expected} cells (one per armour level), got "
                               f"{len(cs)}", token=word, column=col, line=line)
        out.append((cls, cs))
    return None, tuple(out)


# -- weapons ---------------------------------------------------------------------------------
def parse_weapon_line(text: str) -> tuple[WeaponLine, dict, int | None]:
    """Parse a weapon line; return it, the declaration hooks found in its tags, and ``Nx``."""
    line = str(text)
    check_line_numbers(line)
    count, rest, offset = _parse_count(plain_marks(line), line, "carrier")
    colon = rest.find(":")
    if colon < 0:
        raise ProfileError("missing ':' after the weapon name", detail=": write 'NAME: 3/1'",
                           token=rest.strip() or line, column=offset + 1, line=line)
    name = line[offset:offset + colon].strip()  # curly quotes and dashes survive
    special = False
    if re.search(r"\(\s*1\s*\)\s*$", name):
        special = True
        name = re.sub(r"\s*\(\s*1\s*\)\s*$", "", name)
    elif numbered := re.search(r"\(\s*-?\d+\s*\)\s*$", name):
        token = numbered.group(0)
        raise ProfileError(f"'{token}'",
                           detail=": only '(1)' is allowed, marking a special weapon "
                                  "(one per squad)",
                           token=token, column=offset + rest.find(token) + 1, line=line)
    if not name:
        raise ProfileError("missing weapon name before ':'", token=":",
                           column=offset + colon + 1, line=line)
    body_with_tags = rest[colon + 1:]
    body, tags = _split_tags(body_with_tags, line, offset + colon + 1)
    cell, per_target = _parse_body(body, offset + colon + 1, line, name)
    kept: set[str] = set()
    hooks: dict = {}
    rng: int | None = None
    for tag, col in tags:
        if tag in WEAPON_TAGS:
            kept.add(tag)
            continue
        if tag == "SPECIAL":
            special = True
            continue
        if tag == "DOUBLE SUCCESS":
            hooks["success_rule"] = DOUBLE
            continue
        m = re.fullmatch(r"RANGE\s*(U|-?\d+)", tag)
        if m:
            if m.group(1) != "U" and int(m.group(1)) < 0:
                raise ProfileError(f"negative range '{tag}'",
                                   detail=": write RANGE n (squares) or "
                                          "RANGE U", token=tag, column=col, line=line)
            rng = None if m.group(1) == "U" else int(m.group(1))
            continue
        m = re.fullmatch(r"DICE\s*[X×]\s*(-?\d+)", tag)
        if m:
            if int(m.group(1)) < 2:   # x1 multiplies by nothing, x0 removes every die
                raise ProfileError(f"dice multiplier '{tag}'", detail=" must be at least 2 (x1 "
                                   "adds nothing: leave the tag out)", token=tag, column=col,
                                   line=line)
            hooks["multiplier"] = int(m.group(1))
            continue
        m = re.fullmatch(r"EXTRA DICE\s*(-?\d+)", tag)
        if m:
            if int(m.group(1)) < 1:   # EXTRA DICE 0 adds nothing
                raise ProfileError(f"'{tag}'", detail=": extra dice must be at least 1 (0 adds "
                                   "nothing: leave the tag out)", token=tag, column=col,
                                   line=line)
            hooks["extra_dice"] = int(m.group(1))
            continue
        known = did_you_mean(tag, _WEAPON_TAG_FORMS) or \
            "; known tags: " + ", ".join(_WEAPON_TAG_FORMS)
        raise UnknownWordError(f"unknown weapon tag '{tag}'", detail=known,
                               token=tag, column=col, line=line)
    try:
        weapon_line = WeaponLine(name, cell, per_target, rng, special, frozenset(kept))
    except ProfileError as exc:
        raise ProfileError(str(exc), token=name, line=line) from None
    return weapon_line, hooks, count


def parse_weapon(text: str | Weapon, base: Path | None = None) -> tuple[Weapon, ...] | Weapon:
    """Parse one declared weapon.

    Parameters
    ----------
    text
        ``"4x Shotgun: 3/1"``, ``"17-pounder: 4/1 [IGNORES COVER]"``, a full line
        (``"17-pounder: INF 4/1 4/1 2/1 2/1 VEH 7/1 7/1 6/1 6/1 5/1 5/1 4/1"``) or a TOML
        reference (``"units.toml#Pounder/17-pounder"``).
    base
        Folder against which a relative TOML path is resolved (default: the current folder,
        then the package's own data folder).

    Returns
    -------
    Weapon
        For a single weapon. A reference to a whole unit (``FILE.toml#UNIT``) gives a tuple
        of weapons; use :func:`parse_weapons` to always get a tuple.

    Examples
    --------
    >>> w = parse_weapon("4x Shotgun: 3/1")
    >>> w.carriers, w.pool("infantry", 2)
    (4, 12)
    >>> str(parse_weapon("Flamer (1): 2/1 [FLAME]"))
    'Flamer (1): 2/1 [FLAME]'
    """
    if isinstance(text, Weapon):
        return text
    refuse_malformed_count(str(text), str(text), "4x Shotgun: 3/1")
    ref = _TOML_REF_RE.match(str(text))
    if ref and ":" not in ref.group(3).split("/")[0]:
        return _weapon_from_toml(str(text), ref, base)
    line, hooks, count = parse_weapon_line(str(text))
    try:
        return Weapon(line, 1 if count is None else count, **hooks)
    except ProfileError as exc:
        raise ProfileError(str(exc), token=f"{count}x" if count is not None else line.name,
                           column=1, line=str(text)) from None


def parse_weapons(texts: str | Weapon | Iterable[str | Weapon], base: Path | None = None
                  ) -> tuple[Weapon, ...]:
    """Parse several weapon texts (a whole unit reference expands to all its lines)."""
    out: list[Weapon] = []
    for text in one_or_many(texts, (Weapon,), "weapons", "4x Shotgun: 3/1"):
        parsed = parse_weapon(text, base)
        out.extend(parsed if isinstance(parsed, tuple) else (parsed,))
    if not out:
        raise ProfileError("no weapon given: declare at least one weapon")
    return tuple(out)


def _weapon_from_toml(text: str, ref: re.Match, base: Path | None):
    count_text, path_text, rest = ref.groups()
    unit_name, _, weapon_name = rest.partition("/")
    unit = load_unit(path_text, unit_name.strip(), base, line=text)
    if not weapon_name.strip():
        if count_text is not None:
            raise ProfileError("'Nx' goes with one weapon (FILE.toml#UNIT/WEAPON), not a whole "
                               "unit", token=count_text + "x", column=1, line=text)
        return unit.declared()
    try:
        line = unit.weapon(weapon_name.strip())
    except ProfileError as exc:
        raise ProfileError(str(exc), token=weapon_name.strip(),
                           column=text.index(weapon_name) + 1, line=text) from None
    carriers = unit.carriers(line.name) if count_text is None else int(count_text)
    if carriers < 0:
        raise ProfileError(f"negative carrier count '{count_text}x'", token=count_text,
                           column=1, line=text)
    try:
        return Weapon(line, carriers)
    except ProfileError as exc:
        raise ProfileError(str(exc), token=count_text, line=text) from None


# -- targets ---------------------------------------------------------------------------------
def parse_target(text: str | Target, base: Path | None = None) -> Target:
    """Parse a target such as ``"5x Laser Grenadier: INFANTRY2 [SOFT COVER]"``.

    Examples
    --------
    >>> t = parse_target("Luther: VEHICLE6 BOXES4 [HARD COVER]")
    >>> t.unit_class, t.armour, t.capacity, t.cover
    ('vehicle', 6, 4, 'hard')
    """
    if isinstance(text, Target):
        return text
    if not isinstance(text, str):
        raise OptionError("the target must be text such as '5x Laser Grenadier: INFANTRY2' "
                          f"or a Target, not {type(text).__name__} {text!r:.60}")
    line = text
    check_line_numbers(line)
    refuse_malformed_count(line, line, "4x Laser Grenadier: INFANTRY2")
    ref = _TOML_REF_RE.match(line)
    if ref and ":" not in ref.group(3):
        head, tags = _split_tags(ref.group(3), line, line.index(ref.group(3)))
        unit = load_unit(ref.group(2), head.strip(), base, line=line)
        target = unit.profile
        if ref.group(1) is not None:
            n = int(ref.group(1))
            if n < 1:
                raise ProfileError(f"a target needs at least one model, not {n}",
                                   token=ref.group(1) + "x", column=1, line=line)
            target = replace(target, models=n)
        return _apply_target_tags(target, tags, line)
    count, rest, offset = _parse_count(plain_marks(line), line, "model")
    colon = rest.find(":")
    if colon < 0:
        raise ProfileError("missing ':' after the target name", detail=": write "
                           "'5x Grenadier: INFANTRY2'", token=rest.strip() or line,
                           column=offset + 1, line=line)
    name = line[offset:offset + colon].strip()  # curly quotes and dashes survive
    if not name:
        raise ProfileError("missing target name before ':'", token=":",
                           column=offset + colon + 1, line=line)
    if count == 0:
        raise ProfileError("a target needs at least one model, not 0x", token="0x",
                           column=1, line=line)
    body, tags = _split_tags(rest[colon + 1:], line, offset + colon + 1)
    fields = _target_fields(body, offset + colon + 1, line)
    try:
        target = Target(name, fields["class"], fields["armour"],
                        models=1 if count is None else count, boxes=fields.get("boxes"),
                        hero_boxes=fields.get("hero", 0))
    except ProfileError as exc:
        raise ProfileError(str(exc), token=fields.get("token"), column=fields.get("column"),
                           line=line) from None
    return _apply_target_tags(target, tags, line)


def _target_fields(body: str, offset: int, line: str) -> dict:
    fields: dict = {}
    compact = re.sub(r"\b(INFANTRY|INF|VEHICLE|VEH|AIRCRAFT|AIR|BOXES|HERO)\s+(?=-?\d)", r"\1",
                     body, flags=re.IGNORECASE)
    for token, col in _tokens(compact, offset):
        m = _LEVEL_RE.match(token)
        if m:
            if "class" in fields:
                raise ProfileError(f"second target class '{token}'", detail=": a target has one",
                                   token=token, column=col, line=line)
            cls = _CLASS_WORDS[m.group(1).upper()]
            level = int(m.group(2))
            top = MAX_LEVELS[cls] if cls != AIRCRAFT else MAX_LEVELS[AIRCRAFT]
            if not 1 <= level <= top:
                raise ProfileError(f"impossible armour level '{token}'",
                                   detail=f": {cls} armour is "
                                          f"1..{top}", token=token, column=col, line=line)
            fields.update({"class": cls, "armour": level, "token": token, "column": col})
            continue
        m = _BOXES_RE.match(token)
        if m:
            key = m.group(1).lower()
            key = "boxes" if key == "boxes" else "hero"
            value = int(m.group(2))
            if value < 1:
                raise ProfileError(f"'{token}'", detail=" must be at least 1", token=token,
                                   column=col, line=line)
            fields[key] = value
            continue
        hint = did_you_mean(token, ["INFANTRY2", "VEHICLE6", "AIRCRAFT1", "BOXES4", "HERO3"])
        raise ProfileError(f"unexpected '{token}'", detail=f": a target is CLASS+ARMOUR "
                           f"(INFANTRY1..4, VEHICLE1..7, AIRCRAFT1..3), then BOXESn for a "
                           f"vehicle or hero{hint}", token=token, column=col, line=line)
    if "class" not in fields:
        raise ProfileError("missing target class", detail=": write INFANTRY1..4, VEHICLE1..7 or "
                           "AIRCRAFT1..3", token=body.strip() or line, column=offset + 1,
                           line=line)
    return fields


def _apply_target_tags(target: Target, tags: list[tuple[str, int]], line: str) -> Target:
    changes: dict = {}
    for tag, col in tags:
        if tag in ("SOFT COVER", "HARD COVER"):
            if "cover" in changes:
                raise ProfileError(f"second cover tag '{tag}'", detail=": a unit is in soft or in "
                                   "hard cover, not both", token=tag, column=col, line=line)
            changes["cover"] = SOFT if tag.startswith("SOFT") else HARD
        elif tag in ("OPEN", "IN THE OPEN"):
            changes["cover"] = "open"
        elif tag == "DAMAGE RESILIENT":
            changes["damage_resilient"] = True
        elif tag == "SAVES ON BLANKS":
            changes["soft_save"] = changes["hard_save"] = "miss_save"
        elif tag == "EVADE":
            changes["evade"] = "evade"
        elif tag == "IMPROVED EVADE":
            changes["evade"] = "improved"
        elif (m := re.fullmatch(r"(SOFT|HARD) SAVE (HIT|MISS|BLANK|NONE)", tag)):
            changes[f"{m.group(1).lower()}_save"] = _SAVE_WORDS[m.group(2)]
        else:
            known = did_you_mean(tag, _TARGET_TAG_FORMS) or \
                "; known tags: " + ", ".join(_TARGET_TAG_FORMS)
            raise UnknownWordError(f"unknown target tag '{tag}'", detail=known,
                                   token=tag, column=col, line=line)
    return replace(target, **changes) if changes else target


# -- TOML unit files -------------------------------------------------------------------------
def _resolve(path_text: str, base: Path | None) -> Path:
    path = Path(path_text).expanduser()
    candidates = [path] if path.is_absolute() else [(base or Path.cwd()) / path, DATA_DIR / path]
    for candidate in candidates:
        if candidate.is_file():
            return candidate
    return candidates[0]


def load_units(path: str | Path, base: Path | None = None) -> dict[str, Unit]:
    """Read every unit card of a TOML unit file.

    The file holds ``[units."NAME"]`` tables with ``profile`` (target text after the colon,
    e.g. ``"INFANTRY2 [DAMAGE RESILIENT]"``), ``weapons`` (weapon line texts) and, for
    squads, ``models = [{count = 4, weapons = ["Shotgun"]}, ...]``. A relative path is
    looked up in ``base`` (default: the current folder), then in the package's data folder.

    Raises
    ------
    ProfileError
        If the file cannot be read, is not TOML, or holds a card that does not parse.
    """
    resolved = _resolve(str(path), base)
    try:
        raw = read_bounded(resolved)
    except OSError as exc:
        raise ProfileError(f"cannot read unit file '{path}': {exc.strerror or exc}; check the "
                           "path", token=str(path)) from None
    try:
        text = raw.decode("utf-8")
        deep = too_deeply_nested(text)
        if deep is not None:
            raise ProfileError(f"unit file '{path}', line {deep}: arrays or tables nested more "
                               f"than {MAX_TOML_NESTING} deep; a unit card needs two levels",
                               token=str(path))
        data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ProfileError(f"unit file '{path}' is not valid TOML: {exc}",
                           token=str(path)) from None
    units_table = data.get("units")
    if not isinstance(units_table, dict) or not units_table:
        raise ProfileError(f"unit file '{path}' has no [units.NAME] tables", token=str(path))
    for name, table in units_table.items():
        _refuse_unsafe_card_text(name, table, text, path)
    return {name: _unit_from_table(name, table, path) for name, table in units_table.items()}


def _refuse_unsafe_card_text(name: str, table, text: str, path) -> None:
    r"""Refuse a control or text-direction character in a unit card's name, keys, profile,
    weapon lines and model weapon names (printed raw by a message or a result, it would drive
    the terminal), named as an escape at its line: ``unit file 'F', line 3: unit name
    'Pou\x1bnder' holds '\x1b' (a control character): delete it``. A tab in a line is a
    space; in a name it is refused."""
    table = table if isinstance(table, dict) else {}
    models = table.get("models") if isinstance(table.get("models"), list) else []
    unit = f"unit '{shown(name)}'"
    names = [("unit name", name, None), *((f"{unit}: key", key, key) for key in table),
             *((f"{unit}: a models weapon", weapon, "models") for entry in models
               if isinstance(entry, dict) and isinstance(entry.get("weapons"), list)
               for weapon in entry["weapons"] if isinstance(weapon, str))]
    weapons = table.get("weapons") if isinstance(table.get("weapons"), list) else []
    lines = [("profile", table.get("profile")), *(("weapons", w) for w in weapons)]
    for what, value, field in names:
        problem = unsafe_text(value, what)
        if problem is not None:
            raise ProfileError(f"unit file '{path}', line "
                               f"{table_line(text, name, field, parent='units')}: {problem}",
                               token=shown(value))
    for field, line in lines:
        try:
            if isinstance(line, str):
                refuse_control_characters(line, line, f"a {field.rstrip('s')} line")
        except ProfileError as exc:
            raise ProfileError(f"unit file '{path}', line "
                               f"{table_line(text, name, field, parent='units')}: {unit}: "
                               f"{exc}", token=exc.token) from None


def load_unit(path: str | Path, name: str, base: Path | None = None,
              line: str | None = None) -> Unit:
    """One unit card of a TOML unit file, by name (case-insensitive)."""
    written = line if line is not None else f"{path}#{name}"
    refuse_control_characters(written, written, "a unit reference")
    units = load_units(path, base)
    for key, unit in units.items():
        if key.lower() == name.lower():
            return unit
    raise ProfileError(f"unit file '{path}' has no unit '{name}'{did_you_mean(name, units)}; "
                       f"it has: {', '.join(units)}", token=name, line=line)


def _unit_from_table(name: str, table, path) -> Unit:
    where = f"unit '{name}' in '{path}'"
    if not isinstance(table, dict):
        raise ProfileError(f"{where}: expected a table", token=name)
    known = {"profile", "weapons", "models"}
    for key in table:
        if key not in known:
            raise ProfileError(f"{where}: unknown key '{key}'{did_you_mean(key, known)}",
                               token=key)
    profile_text = table.get("profile")
    weapon_texts = table.get("weapons", [])
    if not isinstance(profile_text, str):
        raise ProfileError(f"{where}: 'profile' must be a string such as 'INFANTRY2'",
                           token="profile")
    if not isinstance(weapon_texts, list) or not all(isinstance(w, str) for w in weapon_texts):
        raise ProfileError(f"{where}: 'weapons' must be a list of weapon line strings",
                           token="weapons")
    groups = []
    for entry in table.get("models", []):
        if not isinstance(entry, dict) or not isinstance(entry.get("count"), int) \
                or not isinstance(entry.get("weapons", []), list):
            raise ProfileError(f"{where}: each models entry is {{count = N, weapons = [...]}}",
                               token="models")
        try:
            groups.append(ModelGroup(entry["count"], tuple(entry.get("weapons", []))))
        except ProfileError as exc:
            raise ProfileError(f"{where}: {exc}", token="models") from None
    count = sum(g.count for g in groups)
    prefix = f"{count}x " if count > 1 else ""
    try:
        profile = parse_target(f"{prefix}{name}: {profile_text}")
        lines = []
        for text in weapon_texts:
            weapon_line, hooks, n = parse_weapon_line(text)
            if hooks or n is not None:
                raise ProfileError(f"weapon '{text}' on a card takes no Nx or declaration "
                                   "tags; carriers come from 'models'", token=text).located(where)
            lines.append(weapon_line)
        return Unit(name, profile, tuple(lines), tuple(groups))
    except ProfileError as exc:
        if exc.location is not None:   # said with its unit already
            raise
        raise ProfileError(f"{where}: {exc}", token=exc.token, column=exc.column) from None


__all__ = ["parse_weapon", "parse_weapons", "parse_target", "parse_weapon_line", "load_units",
           "load_unit", "DATA_DIR"]

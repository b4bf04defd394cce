"""Reading the nodes of a roster tree (:mod:`.read`): profiles, their characteristics and
ability texts, categories, the selections below a node and their counts.

BattleScribe and New Recruit store every datasheet as nested ``selections``; these helpers
answer the small questions the conversion (:mod:`.convert`) and the model groups
(:mod:`.groups`) ask of one node, refusing a damaged number or a control character in one
line.
"""

from __future__ import annotations

from mathhammer.core.limits import shown, unsafe_character, unsafe_text
from mathhammer.core.numbers import real_number_text
from mathhammer.errors import OptionError, RosterError
from mathhammer.wh40k.roster import keywords as kw
from mathhammer.wh40k.roster.read import Node

#: Most models or weapons one selection may number.
MAX_WEAPON_COUNT = 5_000


def visible_profiles(node: Node) -> list[Node]:
    """The profiles of ``node`` not marked hidden."""
    return [p for p in node.list("profiles") if p.get("hidden").lower() != "true"]


def profile_type(profile: Node) -> str:
    """A profile's type name, cleaned and lower-case (``ranged weapons``, ``unit``)."""
    return kw.clean(profile.get("typeName")).lower()


def statline_profiles(node: Node) -> list[Node]:
    """The statline profiles (Unit, Unit Profile, Model) of ``node``."""
    return [p for p in visible_profiles(node)
            if profile_type(p) in ("unit", "unit profile", "model")]


def characteristics(profile: Node) -> dict[str, str]:
    """A profile's characteristics by lower-case name (the first of a repeated name)."""
    out: dict[str, str] = {}
    for char in profile.list("characteristics"):
        out.setdefault(kw.clean(char.get("name")).lower(), char.text)
    return out


_WEAPON_CHARACTERISTICS = {"range", "a", "s", "d"}


def weapon_kind(profile: Node) -> str | None:
    """``ranged``, ``melee`` or None. Besides the Ranged / Melee Weapons types, a profile
    of any other type ("C'tan Powers", "Psychic Powers") with the weapon characteristics
    Range, A, S and D is a weapon, melee when its Range is "Melee"."""
    kind = profile_type(profile)
    if kind.startswith("ranged weapon"):
        return "ranged"
    if kind.startswith("melee weapon"):
        return "melee"
    chars = characteristics(profile)
    if _WEAPON_CHARACTERISTICS <= set(chars):
        return "melee" if kw.clean(chars["range"]).lower() == "melee" else "ranged"
    return None


def ability_texts(nodes: list[Node]) -> list[tuple[str, str]]:
    """(name, text) of every ability profile and rule on ``nodes``."""
    out = []
    for node in nodes:
        for profile in visible_profiles(node):
            kind = profile_type(profile)
            if kind.startswith("abilit") or kind in ("", "wargear"):
                chars = profile.list("characteristics")
                text = " ".join(kw.clean(c.text) for c in chars)
                out.append((profile.get("name"), text))
        for rule in node.list("rules"):
            out.append((rule.get("name"), kw.clean(rule.child_text("description"))))
    return out


def raw_ability_texts(nodes: list[Node]) -> list[tuple[str, str]]:
    """(name, text) of every ability profile, line breaks kept (Leader lists)."""
    out = []
    for node in nodes:
        for profile in visible_profiles(node):
            kind = profile_type(profile)
            if kind.startswith("abilit") or kind in ("", "wargear"):
                out.append((profile.get("name"), "\n".join(
                    c.text for c in profile.list("characteristics"))))
        for rule in node.list("rules"):
            out.append((rule.get("name"), rule.child_text("description")))
    return out


def category_names(nodes: list[Node]) -> list[str]:
    """The names of the categories (keywords) of ``nodes``, in order."""
    return [c.get("name") for n in nodes for c in n.list("categories")]



def subtree(node: Node) -> list[Node]:
    """``node`` and every selection below it, depth first, in file order."""
    out: list[Node] = []
    stack = [node]
    while stack:
        item = stack.pop()
        out.append(item)
        stack.extend(reversed(item.list("selections")))
    return out


def selection_count(node: Node, source, unit: str) -> int:
    """A selection's ``number``: a whole number up to :data:`MAX_WEAPON_COUNT`, else a
    :class:`~mathhammer.errors.RosterError` naming the file, unit and selection."""
    text = node.get("number", "1").strip() or "1"
    value = plain_number(text)
    if value is None or value < 0 or value != int(value):
        raise RosterError(f"{source}: unit '{unit}': selection '{node.get('name')}' has number "
                          f"'{shortened(text)}'; a number of models or weapons is a whole "
                          f"number from 0 to {MAX_WEAPON_COUNT:,}")
    if value > MAX_WEAPON_COUNT:
        raise RosterError(f"{source}: unit '{unit}': selection '{node.get('name')}' has number "
                          f"{int(value)}; that is more than any army list holds")
    return int(value)


def plain_number(text: str) -> float | None:
    """A plain decimal number of digits 0-9 below a billion in size, else None (``float()``
    would read ``٣``, ``1_0``, ``1e3`` and ``nan``)."""
    try:
        return real_number_text(str(text), "number", -1e9, 1e9)
    except OptionError:
        return None


def shortened(text: str, limit: int = 40) -> str:
    """``text`` cut to ``limit`` characters for a message (a damaged file's number may have
    thousands of digits)."""
    return text if len(text) <= limit else text[:limit - 3] + "..."


_NAMES = ("name", "customName")


def refuse_unsafe_text(node: Node, source, unit: str | None = None) -> None:
    """Refuse a control or text-direction character in any name or text of ``node``'s tree
    (printed raw, ``ESC ]0;`` would retitle the terminal), naming the file, the unit (the
    top-level selection it lies in, else ``unit``) and the character as an escape.

    Line breaks and tabs in a text are taken: every name and text is read with its white
    space collapsed.

    Raises
    ------
    RosterError
        ``SOURCE: unit 'NAME': selection name 'Bolt\\x1b rifle' holds '\\x1b' (a control
        character): rename it in your list builder``.
    """
    stack = [(node, unit)]
    while stack:
        item, owner = stack.pop()
        if owner is None and item.tag == "selection":
            owner = shown(kw.clean(item.get("name"))) or "Unnamed unit"
        for key, value in [*item.attrs.items(), ("text", item.text)]:
            collapsed = " ".join(value.split())
            if unsafe_character(collapsed) is not None:   # every text of a file: the cheap test
                fix = "rename it in your list builder" if key in _NAMES else \
                    "export the list again"
                where = f"unit '{owner}'" if owner else "the roster"
                raise RosterError(f"{source}: {where}: " + str(unsafe_text(
                    collapsed, f"{item.tag} {key}", fix, written=shortened(shown(collapsed), 60))))
        stack.extend((child, owner) for child in item.children)

"""A small invented BSData checkout in the real schemas, for examples, notebooks and tests:
a game system, a library catalogue and a faction catalogue, as 11th-edition JSON or
10th-edition XML (optionally zipped). Every name, number and text here is our own (no
publisher's data): :func:`write_checkout` writes it to a folder.

The faction ("Test Faction") holds:

- ``Strike Squad``: a Sergeant (1, pistol chosen from a group by default, close combat
  weapon) and Troopers (group of 4-9, rifle with min 1, close combat weapon with no
  constraints: fixed); 100 pts, 190 pts from 6 models (a condition on the group's id).
- ``Hero``: a single model with a blade, an invulnerable save, a hidden gun and a Crusade
  group, a "Feel No Pain 4+" rule link that is only the glossary entry of its "against
  mortal wounds" ability, and two modifiers of its W: +1 always (W6 reads W7), +10 only
  when the list holds another unit (not applied).
- ``Drone Wing`` (imported from the library by ``importRootEntries``), ``Old Guard
  [Legends]`` and a hidden datasheet (both left out), a link to a missing id and a group that
  links to itself (both said, never followed forever).
"""

from __future__ import annotations

import io
import itertools
import json
import zipfile
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

SYSTEM = {10: "sys-352e-adc2-7639-d6a9", 11: "sys-352e-adc2-7639-d610"}
PTS = "51b2-306e-1021-d207"
UNIT, RANGED, MELEE, ABILITIES = ("c547-1836-d8a-ff4f", "f77d-b953-8fa4-b762",
                                  "8a40-4aaa-c780-9046", "9cc3-6d83-4dd3-9b64")
NAMESPACES = {"catalogue": "http://www.battlescribe.net/schema/catalogueSchema",
              "gameSystem": "http://www.battlescribe.net/schema/gameSystemSchema"}
SINGULAR = {"selectionEntries": "selectionEntry", "sharedSelectionEntries": "selectionEntry",
            "selectionEntryGroups": "selectionEntryGroup",
            "sharedSelectionEntryGroups": "selectionEntryGroup", "entryLinks": "entryLink",
            "infoLinks": "infoLink", "categoryLinks": "categoryLink", "constraints": "constraint",
            "modifiers": "modifier", "conditions": "condition", "profiles": "profile",
            "sharedProfiles": "profile", "sharedRules": "rule", "rules": "rule",
            "characteristics": "characteristic", "costs": "cost",
            "catalogueLinks": "catalogueLink", "categoryEntries": "categoryEntry",
            "modifierGroups": "modifierGroup", "conditionGroups": "conditionGroup"}
_ids = itertools.count(1)


def new_id() -> str:
    return f"c{next(_ids):04x}-aa11-bb22-cc33"


def chars(pairs) -> list[dict]:
    return [{"name": n, "typeId": new_id(), "$text": v} for n, v in pairs]


def statline(name: str, edition: int, t: str, sv: str, w: str, insv: str = "") -> dict:
    pairs = [("M", '6"'), ("T", t), ("SV" if edition == 10 else "Sv", sv), ("W", w),
             ("LD", "6+"), ("OC", "1")]
    if edition == 11:
        pairs.append(("InSv", insv))
    return {"name": name, "id": new_id(), "hidden": False, "typeId": UNIT, "typeName": "Unit",
            "characteristics": chars(pairs)}


def weapon_profile(name: str, rng: str, a: str, skill: str, s: str, ap: str, d: str,
                   keywords: str = "-") -> dict:
    melee = rng == "Melee"
    return {"name": name, "id": new_id(), "hidden": False, "typeId": MELEE if melee else RANGED,
            "typeName": "Melee Weapons" if melee else "Ranged Weapons",
            "characteristics": chars([("Range", rng), ("A", a), ("WS" if melee else "BS", skill),
                                      ("S", s), ("AP", ap), ("D", d), ("Keywords", keywords)])}


def ability(name: str, text: str) -> dict:
    return {"name": name, "id": new_id(), "hidden": False, "typeId": ABILITIES,
            "typeName": "Abilities", "characteristics": chars([("Description", text)])}


def limits(low: int | None = None, high: int | None = None) -> list[dict]:
    out = []
    for kind, value in (("min", low), ("max", high)):
        if value is not None:
            out.append({"type": kind, "value": value, "field": "selections", "scope": "parent",
                        "shared": True, "id": new_id()})
    return out


def entry(name: str, kind: str = "upgrade", **extra) -> dict:
    out = {"type": kind, "import": True, "name": name, "hidden": False, "id": new_id()}
    out.update(extra)
    return out


def link(name: str, target: dict | str, kind: str = "selectionEntry", **extra) -> dict:
    out = {"import": True, "name": name, "hidden": False, "type": kind, "id": new_id(),
           "targetId": target if isinstance(target, str) else target["id"]}
    out.update(extra)
    return out


def checkout(edition: int) -> dict[str, tuple[str, dict]]:
    """``{file stem: (root key, tree)}`` of the three files."""
    fnp_rule = {"id": new_id(), "name": "Feel No Pain 4+", "hidden": False,
                "description": "Each time a model would lose a wound, roll one D6: on a 4+ "
                               "that wound is not lost."}
    ccw = entry("Close combat weapon", profiles=[weapon_profile(
        "Close combat weapon", "Melee", "2", "3+", "4", "0", "1")])
    system = {"id": SYSTEM[edition], "name": f"Test 40k {edition}", "revision": 1,
              "battleScribeVersion": 2.03, "type": "gameSystem",
              "sharedRules": [fnp_rule], "sharedSelectionEntries": [ccw]}

    drone = entry("Drone", "model", constraints=limits(2, 4),
                  profiles=[statline("Drone", edition, "3", "4+", "1")],
                  selectionEntries=[entry("Twin carbine", constraints=limits(1, 1),
                                          profiles=[weapon_profile(
                                              "Twin carbine", '18"', "2", "4+", "5", "0",
                                              "1", "Twin-linked")])])
    drone_wing = entry("Drone Wing", "unit", selectionEntries=[drone],
                       costs=[{"name": "pts", "typeId": PTS, "value": 30}],
                       categoryLinks=[{"name": "Fly", "id": new_id(), "targetId": new_id(),
                                       "primary": False}])
    library = {"id": new_id(), "name": "Library - Test Armoury", "library": True,
               "gameSystemId": SYSTEM[edition], "revision": 1, "type": "catalogue",
               "sharedSelectionEntries": [drone_wing],
               "entryLinks": [link("Drone Wing", drone_wing)]}

    rifle = entry("Pulse rifle", constraints=limits(1, 1), profiles=[weapon_profile(
        "Pulse rifle", '24"', "2", "3+", "4", "-1", "1", "Rapid Fire 1")])
    pistol = entry("Plasma pistol", profiles=[weapon_profile(
        "Plasma pistol", '12"', "1", "3+", "7", "-2", "1", "Pistol")])
    sword = entry("Power sword", profiles=[weapon_profile(
        "Power sword", "Melee", "3", "3+", "5", "-2", "1")])
    sergeant = entry("Sergeant", "model", constraints=limits(1, 1),
                     profiles=[statline("Sergeant", edition, "4", "3+", "2")],
                     selectionEntryGroups=[{
                         "name": "Sidearm", "id": new_id(), "hidden": False,
                         "constraints": limits(1, 1), "defaultSelectionEntryId": "PISTOL",
                         "entryLinks": [link("Power sword", sword),
                                        dict(link("Plasma pistol", pistol), id="PISTOL")]}],
                     entryLinks=[link("Close combat weapon", ccw)])
    trooper = entry("Trooper", "model", constraints=limits(None, 9),
                    profiles=[statline("Trooper", edition, "4", "3+", "2")],
                    selectionEntries=[rifle], entryLinks=[link("Close combat weapon", ccw)])
    troopers = {"name": "Troopers", "id": new_id(), "hidden": False,
                "constraints": limits(4, 9), "defaultSelectionEntryId": trooper["id"],
                "selectionEntries": [trooper]}
    squad = entry("Strike Squad", "unit", selectionEntries=[sergeant],
                  selectionEntryGroups=[troopers,
                                        {"name": "Crusade", "id": new_id(), "hidden": False,
                                         "selectionEntries": [entry("Battle Scar")]}],
                  costs=[{"name": "pts", "typeId": PTS, "value": 100}],
                  modifiers=[{"type": "set", "value": 190, "field": PTS, "conditions": [
                      {"type": "atLeast", "value": 5, "field": "selections",
                       "scope": "self", "childId": troopers["id"], "shared": True}]}],
                  categoryLinks=[{"name": "Infantry", "id": new_id(), "targetId": new_id(),
                                  "primary": False},
                                 {"name": "Faction: Test", "id": new_id(),
                                  "targetId": new_id(), "primary": False}])
    hero_profiles = [statline("Hero", edition, "5", "2+", "6",
                              "4+" if edition == 11 else ""),
                     ability("Unyielding", "This model has the Feel No Pain 4+ ability "
                                           "against mortal wounds."),
                     ability("Leader", "This model can be attached to the following unit:\n"
                                       "\u25a0 Strike Squad")]
    if edition == 10:
        hero_profiles.append(ability("Invulnerable Save", "This model has a 4+ invulnerable "
                                                          "save."))
    loop = {"name": "Loop", "id": "LOOP", "hidden": False, "constraints": limits(1, 1),
            "entryLinks": [link("Loop", "LOOP", "selectionEntryGroup")]}
    hero = entry("Hero", "model", profiles=hero_profiles,
                 selectionEntries=[entry("Relic blade", constraints=limits(1, 1),
                                         profiles=[weapon_profile(
                                             "Relic blade", "Melee", "5", "2+", "6", "-3",
                                             "2", "Devastating Wounds")]),
                                   entry("Secret gun", hidden=True, constraints=limits(1, 1),
                                         profiles=[weapon_profile(
                                             "Secret gun", '12"', "9", "2+", "9", "-4", "3")])],
                 selectionEntryGroups=[loop],
                 entryLinks=[link("Ghost gun", "NO-SUCH-ID")],
                 infoLinks=[link("Feel No Pain 4+", fnp_rule, "rule")],
                 # always +1 W (shown as W7); a +10 W only with another unit in the list
                 modifiers=[{"type": "increment", "value": 1, "field": "W",
                             "affects": "profiles.Unit"},
                            {"type": "increment", "value": 10, "field": "W",
                             "affects": "profiles.Unit", "conditions": [
                                 {"type": "atLeast", "value": 1, "field": "selections",
                                  "scope": "roster", "childId": "SOME-OTHER-UNIT"}]}],
                 costs=[{"name": "pts", "typeId": PTS, "value": 75}],
                 categoryLinks=[{"name": "Character", "id": new_id(), "targetId": new_id(),
                                 "primary": True},
                                {"name": "Infantry", "id": new_id(), "targetId": new_id(),
                                 "primary": False}])
    legends = entry("Old Guard [Legends]", "model", profiles=[statline("Old", edition, "3",
                                                                         "5+", "1")])
    secret = entry("Secret Unit", "model", hidden=True,
                   profiles=[statline("Secret", edition, "3", "5+", "1")])
    faction = {"id": new_id(), "name": "Xenos - Test Faction", "library": False,
               "gameSystemId": SYSTEM[edition], "revision": 1, "type": "catalogue",
               "catalogueLinks": [{"name": "a library by another name", "id": new_id(),
                                   "targetId": library["id"], "type": "catalogue",
                                   "importRootEntries": True}],
               "sharedSelectionEntries": [squad, hero, legends, secret, rifle, pistol, sword],
               "entryLinks": [link("Strike Squad", squad), link("Hero", hero),
                              link("Old Guard [Legends]", legends),
                              link("Secret Unit", secret)]}
    return {"Test 40k": ("gameSystem", system), "Library - Test Armoury": ("catalogue", library),
            "Xenos - Test Faction": ("catalogue", faction)}


# -- writing -----------------------------------------------------------------------------------
def to_json(root: str, tree: dict) -> str:
    return json.dumps({root: tree}, indent=1, ensure_ascii=False)


def to_xml(root: str, tree: dict) -> str:
    return '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' + \
        _element(root, tree, NAMESPACES[root])


def _scalar(value) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def _element(tag: str, value: dict, xmlns: str | None = None) -> str:
    attrs = "".join(f" {k}={quoteattr(_scalar(v))}" for k, v in value.items()
                    if not isinstance(v, (list, dict)) and k not in ("$text", "description"))
    if xmlns:
        attrs += f" xmlns={quoteattr(xmlns)}"
    inner = f"<description>{escape(value['description'])}</description>" \
        if "description" in value else ""
    for key, sub in value.items():
        if isinstance(sub, list):
            inner += f"<{key}>" + "".join(_element(SINGULAR[key], item) for item in sub) + \
                f"</{key}>"
    inner += escape(_scalar(value.get("$text", "")))
    return f"<{tag}{attrs}>{inner}</{tag}>" if inner else f"<{tag}{attrs}/>"


def write_checkout(folder: str | Path, edition: int = 11, *, zipped: bool = False) -> Path:
    """Write the example checkout into ``folder``: 11th edition as .json, 10th as .cat/.gst
    (.catz/.gstz when ``zipped``); return the folder.

    Examples
    --------
    >>> import tempfile, mathhammer as mh
    >>> from mathhammer.wh40k.bsdata.example import write_checkout
    >>> folder = write_checkout(tempfile.mkdtemp(), 11)
    >>> mh.datasheets(folder, progress=False).get("Strike Squad").points
    100.0
    """
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for stem, (root, tree) in checkout(edition).items():
        if edition == 11:
            (folder / f"{stem}.json").write_text(to_json(root, tree), encoding="utf-8")
            continue
        suffix = ".gst" if root == "gameSystem" else ".cat"
        text = to_xml(root, tree)
        if zipped:
            buffer = io.BytesIO()
            with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
                archive.writestr(f"{stem}{suffix}", text)
            (folder / f"{stem}{suffix}z").write_bytes(buffer.getvalue())
        else:
            (folder / f"{stem}{suffix}").write_text(text, encoding="utf-8")
    (folder / "package.json").write_text('{"name": "not bsdata"}')  # other JSON: skipped
    return folder

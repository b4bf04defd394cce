"""Write roster files in the real schemas from a short description (test helper).

The tree is built once in New Recruit's JSON shape (``{"roster": {...}}``: repeated children
as arrays, element text as ``$text``, attributes as scalars) and written either as that JSON
or as BattleScribe XML (``<roster xmlns=...>``, arrays as a wrapper element holding one
element per item, ``.rosz`` a zip with one ``.ros``). The 10th- and 11th-edition differences
are the game system id and the Unit profile's characteristics (10e ``SV``; 11e ``Sv`` and
``InSv``). Every text here is written for the tests.
"""

from __future__ import annotations

import io
import itertools
import json
import zipfile
from xml.sax.saxutils import escape, quoteattr

NAMESPACE = "http://www.battlescribe.net/schema/rosterSchema"
SYSTEMS = {10: ("sys-352e-adc2-7639-d6a9", "Warhammer 40,000 10th Edition"),
           11: ("sys-352e-adc2-7639-d610", "Warhammer 40,000 11th Edition")}
SINGULAR = {"categories": "category", "forces": "force", "selections": "selection",
            "profiles": "profile", "rules": "rule", "costs": "cost",
            "characteristics": "characteristic", "associations": "association"}
_ids = itertools.count(1)


def new_id() -> str:
    return f"t{next(_ids):03d}-b2c3-d4e5"


def _chars(pairs: list[tuple[str, str]]) -> list[dict]:
    return [{"name": n, "typeId": new_id(), "$text": v} for n, v in pairs]


def profile(name: str, type_name: str, pairs: list[tuple[str, str]]) -> dict:
    return {"id": new_id(), "name": name, "hidden": False, "typeId": new_id(),
            "typeName": type_name, "characteristics": _chars(pairs)}


def statline(name: str, edition: int, t: int, sv: str, w: int, insv: str = "-",
             m: str = '6"') -> dict:
    save = "SV" if edition == 10 else "Sv"
    pairs = [("M", m), ("T", str(t)), (save, sv), ("W", str(w)), ("LD", "6+"), ("OC", "2")]
    if edition == 11:
        pairs.append(("InSv", insv))
    return profile(name, "Unit", pairs)


def ranged(name: str, rng: str, a: str, bs: str, s: str, ap: str, d: str, keywords: str = "-",
           type_name: str = "Ranged Weapons") -> dict:
    return profile(name, type_name, [("Range", rng), ("A", a), ("BS", bs), ("S", s),
                                     ("AP", ap), ("D", d), ("Keywords", keywords)])


def melee(name: str, a: str, ws: str, s: str, ap: str, d: str, keywords: str = "-") -> dict:
    return profile(name, "Melee Weapons", [("Range", "Melee"), ("A", a), ("WS", ws),
                                           ("S", s), ("AP", ap), ("D", d),
                                           ("Keywords", keywords)])


def ability(name: str, text: str) -> dict:
    return profile(name, "Abilities", [("Description", text)])


def rule(name: str, text: str) -> dict:
    return {"id": new_id(), "name": name, "hidden": False, "description": text}


def selection(name: str, kind: str = "upgrade", number: int = 1, *, pts: float = 0,
              profiles: list[dict] = (), selections: list[dict] = (),
              categories: list[str] = (), rules: list[dict] = (), **extra) -> dict:
    out = {"id": extra.pop("id", None) or new_id(), "name": name, "entryId": new_id(),
           "number": number, "type": kind}
    out.update(extra)
    out["costs"] = [{"name": "pts", "typeId": "51b2-306e-1021-d207", "value": pts}]
    if rules:
        out["rules"] = list(rules)
    if profiles:
        out["profiles"] = list(profiles)
    if selections:
        out["selections"] = list(selections)
    if categories:
        out["categories"] = [{"id": new_id(), "name": c, "entryId": new_id(),
                              "primary": i == 0} for i, c in enumerate(categories)]
    return out


def roster(edition: int, faction: str, units: list[dict], *, points: float | None = None,
           name: str = "Test list") -> dict:
    system, system_name = SYSTEMS[edition]
    total = points if points is not None else sum(_points(u) for u in units)
    settings = [selection("Battle Size", selections=[selection("Strike Force (2000 Point "
                                                                "limit)")])]
    force = {"id": new_id(), "name": "Army Roster", "entryId": new_id(),
             "catalogueId": new_id(), "catalogueRevision": 1, "catalogueName": faction,
             "selections": settings + list(units)}
    return {"roster": {"id": new_id(), "name": name, "battleScribeVersion": 2.03,
                       "generatedBy": "https://newrecruit.eu", "gameSystemId": system,
                       "gameSystemName": system_name, "gameSystemRevision": 1,
                       "xmlns": NAMESPACE,
                       "costs": [{"name": "pts", "typeId": "51b2-306e-1021-d207",
                                  "value": total}],
                       "forces": [force]}}


def _points(node: dict) -> float:
    own = sum(c["value"] for c in node.get("costs", []) if c["name"] == "pts")
    return own + sum(_points(s) for s in node.get("selections", []))


# -- writing ------------------------------------------------------------------------------
def to_json(tree: dict) -> str:
    return json.dumps(tree, indent=1, ensure_ascii=False)


def to_xml(tree: dict) -> str:
    body = _element("roster", {k: v for k, v in tree["roster"].items() if k != "xmlns"},
                    xmlns=NAMESPACE)
    return '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' + body


def _scalar(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _element(tag: str, value: dict, xmlns: str | None = None) -> str:
    attrs = "".join(f" {k}={quoteattr(_scalar(v))}" for k, v in value.items()
                    if not isinstance(v, (list, dict)) and k not in ("$text", "description"))
    if xmlns:
        attrs += f" xmlns={quoteattr(xmlns)}"
    inner = ""
    if "description" in value:
        inner += f"<description>{escape(value['description'])}</description>"
    for key, sub in value.items():
        if isinstance(sub, list):
            inner += f"<{key}>" + "".join(_element(SINGULAR.get(key, key), item)
                                          for item in sub) + f"</{key}>"
        elif isinstance(sub, dict):
            inner += _element(key, sub)
    inner += escape(_scalar(value.get("$text", "")))
    return f"<{tag}{attrs}>{inner}</{tag}>" if inner else f"<{tag}{attrs}/>"


def to_rosz(tree: dict, member: str = "list.ros") -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(member, to_xml(tree))
    return buffer.getvalue()


def gunner_and_crowd(folder, crowd_save: str = "-") -> list:
    """Two 11th-edition lists written to ``folder`` (paths returned): ``gunner``, one model
    with one shot (BS3+ S4 AP0 D1, 10 pts), and ``crowd``, ten T4 W1 models of save
    ``crowd_save`` (100 pts): small enough to derive a pairing by hand."""
    gunner = selection("Gunner", "model", pts=10, categories=["Infantry"],
                       profiles=[statline("Gunner", 11, 4, "3+", 2)],
                       selections=[selection("Rifle", profiles=[
                           ranged("Rifle", '24"', "1", "3+", "4", "0", "1")])])
    crowd = selection("Crowd", "unit", pts=100, selections=[selection(
        "Body", "model", 10, profiles=[statline("Body", 11, 4, crowd_save, 1)])])
    paths = []
    for name, unit in (("gunner", gunner), ("crowd", crowd)):
        path = folder / f"{name}.json"
        path.write_text(to_json(roster(11, f"Test - {name}", [unit])), encoding="utf-8")
        paths.append(path)
    return paths

"""Two small army lists for the web page's tests, written in the real schemas by the roster
tests' builder (every name and number here is written for the tests)."""

from __future__ import annotations

from tests.wh40k.roster import builder as b


def marines() -> dict:
    """An 11th-edition list: five Intercessors, five Hellblasters and a Dreadnought."""
    rifle = b.selection("Bolt rifle", number=5, profiles=[
        b.ranged("Bolt rifle", '24"', "2", "3+", "4", "-1", "1", "ASSAULT, HEAVY")])
    knife = b.selection("Close combat weapon", number=5, profiles=[
        b.melee("Close combat weapon", "3", "3+", "4", "0", "1")])
    intercessors = b.selection(
        "Intercessor Squad", "unit", pts=80, categories=["Infantry", "Battleline"],
        profiles=[b.statline("Intercessor", 11, 4, "3+", 2)],
        selections=[b.selection("Intercessor", "model", 5, selections=[rifle, knife])])
    plasma = b.selection("Plasma incinerator", number=5, profiles=[
        b.ranged("Plasma incinerator", '24"', "2", "3+", "7", "-2", "1", "HEAVY")])
    hellblasters = b.selection(
        "Hellblaster Squad", "unit", pts=110, categories=["Infantry"],
        profiles=[b.statline("Hellblaster", 11, 4, "3+", 2)],
        selections=[b.selection("Hellblaster", "model", 5, selections=[plasma])])
    cannon = b.selection("Heavy onslaught gatling cannon", profiles=[
        b.ranged("Heavy onslaught gatling cannon", '30"', "12", "3+", "6", "-1", "1")])
    fist = b.selection("Redemptor fist", profiles=[
        b.melee("Redemptor fist", "5", "3+", "12", "-2", "3")])
    dread = b.selection(
        "Redemptor Dreadnought", "model", pts=210, categories=["Vehicle", "Walker"],
        profiles=[b.statline("Redemptor Dreadnought", 11, 10, "2+", 12)],
        selections=[cannon, fist])
    return b.roster(11, "Test - Web Marines", [intercessors, hellblasters, dread],
                    name="Web test marines")


def orks() -> dict:
    """An 11th-edition list: ten Boyz and three Meganobz."""
    slugga = b.selection("Slugga", number=10, profiles=[
        b.ranged("Slugga", '12"', "1", "5+", "4", "0", "1", "PISTOL")])
    choppa = b.selection("Choppa", number=10, profiles=[
        b.melee("Choppa", "3", "3+", "5", "-1", "1")])
    boyz = b.selection("Boyz", "unit", pts=85, categories=["Infantry"],
                       profiles=[b.statline("Boy", 11, 5, "5+", 1)],
                       selections=[b.selection("Boy", "model", 10,
                                               selections=[slugga, choppa])])
    klaw = b.selection("Power klaw", number=3, profiles=[
        b.melee("Power klaw", "3", "4+", "9", "-2", "2")])
    meganobz = b.selection("Meganobz", "unit", pts=100, categories=["Infantry"],
                           profiles=[b.statline("Meganob", 11, 6, "2+", 3, insv="-")],
                           selections=[b.selection("Meganob", "model", 3, selections=[klaw])])
    return b.roster(11, "Test - Web Orks", [boyz, meganobz], name="Web test orks")


def write(folder) -> dict[str, object]:
    """The lists as files: ``marines.ros`` (XML), ``orks.json`` (New Recruit JSON) and
    ``marines.rosz`` (zipped XML); returns their paths by name."""
    paths = {"marines.ros": folder / "marines.ros", "orks.json": folder / "orks.json",
             "marines.rosz": folder / "marines.rosz"}
    paths["marines.ros"].write_text(b.to_xml(marines()), encoding="utf-8")
    paths["orks.json"].write_text(b.to_json(orks()), encoding="utf-8")
    paths["marines.rosz"].write_bytes(b.to_rosz(marines()))
    return paths

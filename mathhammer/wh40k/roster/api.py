"""``mh.load_roster(path)``: an army list from a BattleScribe or New Recruit file.

A :class:`Roster` holds the list as the file has it (:attr:`Roster.entries`, one per
datasheet, in file order) and the units ready for analysis (:attr:`Roster.units`: the same
:class:`~mathhammer.wh40k.scenario.units.Unit` objects scenarios use, attached Leaders
formed). :meth:`Roster.compare` and :meth:`Roster.against` return the tidy frame of
:func:`mathhammer.compare` with a ``phase`` and a ``method`` column; :meth:`Roster.to_toml`
writes the units as a scenario file.
"""

from __future__ import annotations

import html
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mathhammer.core.comparison import results_out_deprecated
from mathhammer.core.inputs import one_or_many, text
from mathhammer.errors import MathhammerError, OptionError, RosterError, did_you_mean
from mathhammer.wh40k.roster.convert import RosterData, RosterEntry, convert
from mathhammer.wh40k.buff_reader import Buff
from mathhammer.wh40k.roster.defense import Effect, apply_to_profile, unit_defense
from mathhammer.wh40k.roster.leader_grants import granted, on_lines
from mathhammer.wh40k.roster import read as reader
from mathhammer.wh40k.roster.read import tree_from_bytes
from mathhammer.wh40k.scenario.units import ModelGroup, Unit, attach

if TYPE_CHECKING:
    import pandas as pd

    from mathhammer.core.comparison import Comparison

AttachSpec = str | Iterable[str] | Mapping[str, str] | None
AssumeSpec = str | Iterable[str] | None


def load_roster(path: str | Path, *, attach: AttachSpec = None,
                assume: AssumeSpec = None,
                data: str | os.PathLike[str] | None = None) -> Roster:
    """Read a roster file: BattleScribe ``.ros`` / ``.rosz``, New Recruit ``.json``, or a
    plain-text list (the GW app's export) read against your BSData checkout.

    Parameters
    ----------
    path
        The file. Its kind is recognised from its content, not its name.
    attach
        Leaders to attach where the file does not record it (10th-edition files never do):
        ``"Captain=Intercessor Squad"``, a list of such strings, or a dict
        ``{"Captain": "Intercessor Squad"}``. Names as listed (``Name (2)`` for a second
        unit of the same name). A pair the Leader's printed ability does not allow (a
        character onto a transport, a squad onto its own Leader) is refused, naming the
        units it does allow.
    assume
        Conditional defensive rules to apply on purpose: ``"UNIT: ABILITY"`` or a list of
        them (``"Wardens: Shield Wall"``); the listing's notes name each conditional rule
        and its condition.
    data
        The BSData checkout a plain-text list is read against (default: ``--data`` or
        ``$MATHHAMMER_DATA``); every name it cannot resolve is a note of the list.

    Returns
    -------
    Roster

    Raises
    ------
    RosterError
        One line naming the file and what is wrong: not a roster, an edition other than
        10th or 11th, a damaged or hostile file, an unknown name in ``attach``.

    Examples
    --------
    >>> army = load_roster(example("orks"))
    >>> army.edition, army.points, army.attached_to("Warboss")
    (11, 1080, 'Boyz')
    >>> frame = army.compare("MEQ", phases=["shooting"])
    >>> rows = frame.query("attacker == 'Lootas' and metric == 'expected_damage'")
    >>> rows["value"].round(3).tolist()
    [2.774]
    """
    if not isinstance(path, (str, os.PathLike)):
        raise RosterError(f"a roster is the path of a .ros, .rosz or .json file, not "
                          f"{type(path).__name__} {path!r:.60}")
    path = Path(path)
    pairs = _attach_pairs(attach)
    content = reader.read_bounded_bytes(path, reader.MAX_FILE_BYTES, "roster")
    return _built(_tree(content, path, data), path, pairs, assume)


def roster(path: str | Path, *, attach: AttachSpec = None, assume: AssumeSpec = None,
           data: str | os.PathLike[str] | None = None) -> Roster:
    """The old name of :func:`load_roster` (``load_*`` reads paths, ``parse_*`` text): it
    still works for one release, with a DeprecationWarning."""
    import warnings

    warnings.warn("roster(path) is deprecated and will be removed; use load_roster(path)",
                  DeprecationWarning, stacklevel=2)
    return load_roster(path, attach=attach, assume=assume, data=data)


def _tree(data: bytes, path: Path, folder: str | os.PathLike[str] | None) -> Any:
    """The roster tree of a file's bytes: a plain-text list read against the BSData checkout
    when one is named (``data``, ``--data``, ``MATHHAMMER_DATA``), any other file as is."""
    from mathhammer.wh40k.bsdata.named import checkout_named
    from mathhammer.wh40k.bsdata.textlist import looks_like_text_list

    if looks_like_text_list(data) and checkout_named(folder):
        from mathhammer.wh40k.bsdata.named import open_datasheets
        from mathhammer.wh40k.bsdata.textlist import roster_tree

        return roster_tree(data, str(path), open_datasheets(folder))
    return tree_from_bytes(data, path)


def parse_roster(data: bytes, name: str, *, attach: AttachSpec = None,
                 assume: AssumeSpec = None,
                 checkout: str | os.PathLike[str] | None = None) -> Roster:
    """:func:`load_roster` for a file's content held in memory (an upload): ``name`` is the
    file's name, used in messages only; nothing is read from or written to disk.

    Raises
    ------
    RosterError
        As :func:`load_roster`, naming ``name``.
    """
    if not isinstance(name, str):
        raise RosterError(f"a roster's name is text, not {type(name).__name__}")
    pairs = _attach_pairs(attach)
    if not isinstance(data, (bytes, bytearray)):
        return _built(tree_from_bytes(data, name), Path(name), pairs, assume)
    return _built(_tree(bytes(data), Path(name), checkout), Path(name), pairs, assume)


def roster_from_bytes(data: bytes, name: str, *, attach: AttachSpec = None,
                      assume: AssumeSpec = None,
                      checkout: str | os.PathLike[str] | None = None) -> Roster:
    """The old name of :func:`parse_roster` (``load_*`` reads paths, ``parse_*`` content in
    memory): it still works for one release, with a DeprecationWarning."""
    import warnings

    warnings.warn("roster_from_bytes(data, name) is deprecated and will be removed; use "
                  "parse_roster(data, name)", DeprecationWarning, stacklevel=2)
    return parse_roster(data, name, attach=attach, assume=assume, checkout=checkout)


def _built(tree: Any, path: Path, pairs: list[tuple[str, str]], assume: AssumeSpec) -> Roster:
    """The :class:`Roster` of a file's tree (``path`` names the file in messages)."""
    try:
        data = convert(tree, path)
    except (TypeError, AttributeError, KeyError, IndexError, ValueError) as exc:
        if isinstance(exc, MathhammerError):
            raise
        # a tree of an unexpected shape: still one line, naming the file
        raise RosterError(f"{path}: cannot read this roster's structure ({exc}); is it a "
                          "BattleScribe or New Recruit export?") from None
    return Roster(data, source=str(path), attach=pairs, assume=_assume_pairs(assume))


def example(name: str) -> Path:
    """The path of an example list shipped with mathhammer: ``"marines"`` (11th-edition
    Space Marines, BattleScribe XML, 10 units with a Captain leading Intercessors) or
    ``"orks"`` (11th-edition Orks, a zipped .rosz, 10 units with a Warboss leading Boyz).

    Examples
    --------
    >>> load_roster(example("marines")).points
    1410
    """
    files = {"marines": "example_marines_11e.ros", "orks": "example_orks_11e.rosz"}
    if name not in files:
        raise OptionError(f"no example list '{name}'; choose one of {', '.join(files)}")
    return Path(__file__).resolve().parent / "data" / files[name]


@dataclass(frozen=True)
class Attachment:
    """A Leader (or Support) unit attached to a bodyguard unit."""

    attached: str
    bodyguard: str
    recorded: bool  # True when the file records it, False when given by the user


class Roster:
    """An army list read from a file.

    Attributes
    ----------
    edition
        10 or 11 (from the file's game system).
    faction
        The catalogue name(s) of the list's force(s).
    points
        The roster's total points.
    entries
        One :class:`RosterEntry` per datasheet, in file order.
    units
        The units ready for analysis, in file order: every entry with a statline, with its
        attached Leader / Support units formed into one :class:`Unit` (named after the
        bodyguard, as in scenario files).
    notes
        Settings (detachment, battle size) and anything about the list as a whole.
    """

    def __init__(self, data: RosterData, *, source: str = "",
                 attach: list[tuple[str, str]] | None = None,
                 assume: list[tuple[str, str]] | None = None) -> None:
        self.source = source
        self.edition = data.edition
        self.faction = data.faction
        self.points = data.points
        self.name = data.name
        self.entries = data.entries
        notes = list(data.notes)
        self._defense: dict[str, dict[str, int | bool]] = {}
        self._granted: dict[str, list[Effect]] = {}
        self._lines: dict[str, tuple[Buff, ...]] = {}
        self._unit_buffs: dict[str, tuple[Buff, ...]] = {}
        self._assumed = self._assumptions(assume or [], notes)
        self.attachments = self._attachments(attach or [], notes)
        notes += self._leader_hints()
        self.units = self._form_units(notes)
        self.notes = tuple(notes)

    # -- attaching ------------------------------------------------------------------------
    def _entry(self, name: str) -> RosterEntry:
        for entry in self.entries:
            if entry.name == name:
                return entry
        for entry in self.entries:
            if entry.name.lower() == name.strip().lower():
                return entry
        names = [e.name for e in self.entries]
        raise RosterError(f"{self.source}: no unit '{name}' in this roster"
                          f"{did_you_mean(name, names)}; its units: {', '.join(names)}")

    def _attachments(self, pairs: list[tuple[str, str]], notes: list[str]) -> list[Attachment]:
        """The file's Leading/Supporting links (any that cannot hold are noted and skipped),
        then the user's (any that cannot hold is an error)."""
        out: list[Attachment] = []
        for attached, guard in self._recorded_links(notes):
            problem = self._conflict(out, attached, guard)
            if problem:
                notes.append(f"the file attaches {attached} to {guard}, but {problem}; "
                             "left unattached")
            else:
                out.append(Attachment(attached, guard, recorded=True))
        for leader_name, bodyguard_name in pairs:
            leader, bodyguard = self._entry(leader_name), self._entry(bodyguard_name)
            if leader.name == bodyguard.name:
                raise RosterError(f"{self.source}: attach '{leader_name}={bodyguard_name}' "
                                  "attaches a unit to itself")
            if any(a.attached == leader.name and a.bodyguard == bodyguard.name for a in out):
                continue
            problem = self._conflict(out, leader.name, bodyguard.name) or \
                _not_allowed(leader, bodyguard)
            if problem:
                raise RosterError(f"{self.source}: cannot attach {leader.name} to "
                                  f"{bodyguard.name}: {problem}",   # reversed: the pair
                                  options={"attach": f"{bodyguard.name}={leader.name}"})
            out.append(Attachment(leader.name, bodyguard.name, recorded=False))
        return out

    def _assumptions(self, pairs: list[tuple[str, str]], notes: list[str]
                     ) -> dict[str, list[Effect]]:
        """``UNIT: ABILITY`` pairs to the effects applied as if unconditional."""
        out: dict[str, list[Effect]] = {}
        for unit_name, ability in pairs:
            entry = self._entry(unit_name)
            printed = entry.conditional + entry.leader_effects
            found = [e for e in printed if e.ability.lower() == ability.lower()]
            if not found:
                names = list(dict.fromkeys(e.ability for e in printed))
                offer = (f"its conditional defensive rules: {', '.join(names)}" if names
                         else "it prints no conditional defensive rule we model")
                raise RosterError(f"{self.source}: assume '{unit_name}: {ability}': "
                                  f"{entry.name} has no such rule{did_you_mean(ability, names)}"
                                  f"; {offer}")
            out.setdefault(entry.name, []).extend(replace(e, condition="") for e in found)
            notes.append(f"assumed: {entry.name} '{found[0].ability}' ("
                         f"{', '.join(e.describe() for e in found)})")
        return out

    def _recorded_links(self, notes: list[str]) -> list[tuple[str, str]]:
        by_id = {e.selection_id: e for e in self.entries if e.selection_id}
        links: list[tuple[str, str]] = []
        for entry in self.entries:
            for _, target in entry.associations:
                if target in by_id:
                    links.append((entry.name, by_id[target].name))
                else:
                    notes.append(f"{entry.name} is attached to selection '{target}', which is "
                                 "not a unit of this roster; left unattached")
            for origin in entry.incoming:
                if origin in by_id:
                    links.append((by_id[origin].name, entry.name))
        return [(a, b) for a, b in dict.fromkeys(links) if a != b]

    @staticmethod
    def _conflict(done: list[Attachment], attached: str, bodyguard: str) -> str | None:
        """Why ``attached`` cannot join ``bodyguard`` given the attachments ``done``."""
        for a in done:
            if a.attached == attached:
                return f"{attached} is already attached to {a.bodyguard}"
            if a.attached == bodyguard:
                return f"{bodyguard} is itself attached to {a.bodyguard}"
            if a.bodyguard == attached:
                return f"{attached} has {a.attached} attached to it"
        if sum(a.bodyguard == bodyguard for a in done) >= 2:
            return f"{bodyguard} already has two units attached (19.01)"
        return None

    def _leader_hints(self) -> list[str]:
        """For Leaders left unattached: which units of this list their Leader ability names."""
        hints = []
        for entry in self.entries:
            if not entry.can_lead or self.attached_to(entry.name):
                continue
            bodyguards = [e.name for e in self.entries if e.name != entry.name
                          and any(_same_unit(e.name, n) for n in entry.can_lead)]
            if bodyguards:
                hints.append(f"{entry.name} can lead {' or '.join(bodyguards)}: attach it "
                             f"with --attach \"{entry.name}={bodyguards[0]}\" (attach= in "
                             "Python)")
        return hints

    def attached_to(self, name: str) -> str | None:
        """The bodyguard unit ``name`` is attached to, or None."""
        for a in self.attachments:
            if a.attached == name:
                return a.bodyguard
        return None

    def _form_units(self, notes: list[str]) -> list[Unit]:
        plain: dict[str, Unit] = {}
        for entry in self.entries:
            if entry.groups:
                plain[entry.name] = self._plain_unit(entry)
        units = []
        for entry in self.entries:
            if entry.name not in plain or self.attached_to(entry.name):
                continue
            leaders = [self._entry(a.attached) for a in self.attachments
                       if a.bodyguard == entry.name and a.attached in plain]
            unit = plain[entry.name]
            if leaders:
                unit = self._attach(unit, [plain[e.name] for e in leaders], leaders, notes)
            units.append(unit)
        for a in self.attachments:
            if a.bodyguard not in plain and a.attached in plain:
                notes.append(f"{a.attached} is attached to {a.bodyguard}, which has no "
                             "models; analysed on its own")
                units.append(plain[a.attached])
        return units

    def _plain_unit(self, entry: RosterEntry) -> Unit:
        """An entry's unit with its own unconditional rules and the assumed ones."""
        assumed = self._assumed.get(entry.name, [])
        groups = tuple(replace(g, profile=apply_to_profile(g.profile, assumed))
                       for g in _with_points(entry))
        wide = _merge_defense(dict(entry.defense), unit_defense(assumed))
        self._defense[entry.name] = wide
        return Unit(name=entry.name, groups=groups,
                    damage_minus=int(wide.get("damage_minus", 0)),
                    damage_halved=bool(wide.get("damage_halved", False)))

    def _attach(self, bodyguard: Unit, leaders: list[Unit], entries: list[RosterEntry],
                notes: list[str]) -> Unit:
        """The attached unit, with the Leaders' "while leading" defensive rules applied to
        all its models (per model) or to it (unit-wide), and what they grant its weapons
        (:mod:`.leader_grants`): abilities and characteristics on the lines, the rest kept
        for the analysis (:meth:`granted_buffs`)."""
        mine = self._entry(bodyguard.name)
        grants = granted(mine.name, mine.leader_grants, [(e.name, e.leader_grants)
                                                         for e in entries])
        notes += grants.notes
        self._lines.update(grants.lines)
        self._unit_buffs.update({mine.name: grants.per_unit} if grants.per_unit else {})
        bodyguard, *leaders = grants.on_units([bodyguard, *leaders])
        try:
            unit = attach(bodyguard, *leaders)
        except RosterError:
            raise
        except Exception as exc:  # ScenarioError from attach(): name the file
            raise RosterError(f"{self.source}: {exc}") from None
        given = [e for entry in entries for e in entry.leader_effects if e.leading]
        given += [e for e in mine.leader_effects if e.led]
        if not given:
            return unit
        for name in [bodyguard.name] + [e.name for e in entries]:
            self._granted[name] = given
        groups = tuple(replace(g, profile=apply_to_profile(g.profile, given))
                       for g in unit.groups)
        wide = _merge_defense(self._defense.get(bodyguard.name, {}), unit_defense(given))
        self._defense[bodyguard.name] = wide
        for e in given:
            notes.append(f"{bodyguard.name}: '{e.ability}' of its Leader applied "
                         f"({e.describe()})")
        return replace(unit, groups=groups, damage_minus=int(wide.get("damage_minus", 0)),
                       damage_halved=bool(wide.get("damage_halved", False)))

    def entry_groups(self, name: str) -> tuple[ModelGroup, ...]:
        """The model groups of the entry ``name`` as analysed: with the rules assumed for it
        and those its Leader grants (or it grants, as a Leader) in its attached unit."""
        entry = self._entry(name)
        found = self._assumed.get(entry.name, []) + self._granted.get(entry.name, [])
        groups = tuple(replace(g, profile=apply_to_profile(g.profile, found))
                       for g in entry.groups)
        return on_lines(groups, self._lines.get(entry.name, ()))

    def granted_buffs(self) -> dict[str, tuple[Buff, ...]]:
        """Per analysed unit, what its Leaders grant that holds for whole activations (roll
        modifiers, re-rolls, critical thresholds) or under a condition: the analysis applies
        them to that unit's cells as it applies buffs (:mod:`.buffed`)."""
        return dict(self._unit_buffs)

    def defense_of(self, name: str) -> dict[str, int | bool]:
        """The whole-unit defensive rules of the analysed unit ``name``: ``damage_minus``,
        ``damage_halved`` and hit / wound roll penalties by scope (``hit_minus_ranged``...)."""
        return dict(self._defense.get(name, {}))

    @property
    def targets(self) -> list[Unit]:
        """The analysed units that can be targets: those whose every model has a statline
        in the file (a unit with none still attacks)."""
        blind = {e.name for e in self.entries if not e.has_statline}
        return [u for u in self.units if u.name not in blind
                and not blind & set(u.leaders)]

    # -- views ----------------------------------------------------------------------------
    def unit(self, name: str) -> Unit:
        """The analysed unit called ``name`` (a bodyguard's name for an attached unit)."""
        for unit in self.units:
            if unit.name.lower() == name.strip().lower():
                return unit
        raise RosterError(f"no analysed unit '{name}'"
                          f"{did_you_mean(name, [u.name for u in self.units])}")

    def to_dict(self) -> dict[str, Any]:
        """The ``mathhammer roster FILE --json`` listing."""
        return {"edition": self.edition, "faction": self.faction, "points": self.points,
                "units": [self._entry_dict(e) for e in self.entries]}

    def _entry_dict(self, entry: RosterEntry) -> dict[str, Any]:
        return {"name": entry.name, "points": entry.points, "models": entry.models,
                "groups": [group_dict(g) for g in entry.groups],
                "attached_to": self.attached_to(entry.name), "notes": list(entry.notes)}

    def to_text(self) -> str:
        """The listing as plain text."""
        title = f"{self.name} - " if self.name else ""
        lines = [f"{title}{self.faction}, {self.edition}th edition, {_pts(self.points)} points"]
        lines += [f"  {note}" for note in self.notes]
        for entry in self.entries:
            lines.append("")
            attached = self.attached_to(entry.name)
            suffix = f" (attached to {attached})" if attached else ""
            lines.append(f"{entry.name}: {entry.models} model(s), {_pts(entry.points)} "
                         f"points{suffix}")
            for g in entry.groups:
                d = group_dict(g)
                lines.append(f"  {d['count']}x {d['name']}: {d['profile']}")
                lines += [f"      {w}" for w in d["weapons"]]
            lines += [f"  note: {n}" for n in entry.notes]
        return "\n".join(lines)

    def to_markdown(self) -> str:
        """The listing as a Markdown table."""
        rows = ["| unit | points | models | groups | notes |", "|---|---:|---:|---|---|"]
        for entry in self.entries:
            groups = "<br>".join(f"{g.count}x {g.name}: `{group_dict(g)['profile']}`"
                                 for g in entry.groups)
            attached = self.attached_to(entry.name)
            notes = list(entry.notes) + ([f"attached to {attached}"] if attached else [])
            rows.append(f"| {entry.name} | {_pts(entry.points)} | {entry.models} | {groups} "
                        f"| {'; '.join(notes)} |")
        return "\n".join(rows)

    def to_frame(self) -> pd.DataFrame:
        """One row per weapon line of every model group (unit, points, group, count,
        profile, weapon)."""
        import pandas as pd

        rows = []
        for entry in self.entries:
            for g in entry.groups:
                d = group_dict(g)
                for line in d["weapons"] or [""]:
                    rows.append({"unit": entry.name, "points": entry.points, "group": g.name,
                                 "count": g.count, "profile": d["profile"], "weapon": line})
            if not entry.groups:
                rows.append({"unit": entry.name, "points": entry.points, "group": "",
                             "count": entry.models, "profile": "", "weapon": ""})
        return pd.DataFrame(rows, columns=["unit", "points", "group", "count", "profile",
                                           "weapon"])

    def unit_points(self) -> dict[str, float]:
        """Points of each analysed unit (an attached unit costs its parts together)."""
        return {u.name: u.points for u in self.units if u.points}

    @results_out_deprecated
    def compare(self, targets: Any, *, buffs: Any = None, buff_file: Any = None,
                **kwargs: Any) -> pd.DataFrame | Comparison:
        """Every unit of the list against every target, shooting and fighting.

        Parameters
        ----------
        targets
            Target lines, reference names (``"MEQ"``, ``"10x GEQ"``), profiles, or
            :class:`Unit` s; a dict gives labels.
        **kwargs
            ``method``, ``trials``, ``seed``, ``profiles`` (``"best"`` or ``"first"``),
            ``phases``, ``library``, ``keep_results`` (a
            :class:`~mathhammer.core.comparison.Comparison` of the frame and each cell's
            result instead of the frame), ``progress`` (a bar on stderr stepping per unit,
            target and phase: ``None``, the default, when stderr is a terminal or in a
            notebook; ``True``/``False`` force it) and the situation / modifier / rule
            options of :func:`mathhammer.simulate`; see
            :func:`mathhammer.wh40k.roster.analyse.analyse`.
        buffs
            Named buffs (army and detachment rules, stratagems, auras): texts such as
            ``"Oath of Moment: re-roll hits (1CP)"``, :class:`~mathhammer.wh40k.Buff` s, or
            names of ``buff_file``; each applies to every unit whose weapons its scope
            picks (see :mod:`mathhammer.wh40k.roster.buffed`).
        buff_file
            A TOML buff file (``[buffs]`` table of ``name = "text"``) or its loaded mapping.

        Returns
        -------
        pandas.DataFrame
            Columns ``attacker, target, phase, metric, value, stderr, method``, with the
            metrics of :func:`mathhammer.compare` including the per-100-points ones.
        """
        from mathhammer.wh40k.roster.analyse import analyse
        from mathhammer.wh40k.roster.buffed import with_buffs

        return analyse(self, targets, **with_buffs(kwargs, buffs, buff_file))

    @results_out_deprecated
    def against(self, other: Roster, *, buffs: Any = None, buff_file: Any = None,
                other_buffs: Any = None, **kwargs: Any) -> pd.DataFrame | Comparison:
        """Every unit of this list against every unit of ``other`` (their own statlines,
        invulnerable saves, Feel No Pain, keywords and attached Leaders); arguments and frame
        as :meth:`compare` (``buffs`` are this list's: its attacks'). ``other_buffs``: the
        other list's buffs: their FNP, invulnerable save, cover, +1 save, -1 or halved damage
        protect its units (see :func:`mathhammer.wh40k.roster.buffed.defended`).

        Raises
        ------
        RosterError
            When the two lists are of different editions (unless ``edition=`` says which
            rules to use for both).
        """
        from mathhammer.wh40k.roster.analyse import analyse
        from mathhammer.wh40k.roster.buffed import defended, situation_of as _situation
        from mathhammer.wh40k.roster.buffed import with_buffs

        if not isinstance(other, Roster):
            raise OptionError("against() takes another Roster (mh.load_roster(path))")
        if other.edition != self.edition and kwargs.get("edition") is None:
            raise RosterError(f"{self.source} is a {self.edition}th-edition list and "
                              f"{other.source} a {other.edition}th-edition one; compare lists "
                              "of the same edition")
        if not other.targets:
            raise RosterError(f"{other.source}: no unit of this list has a statline to "
                              "attack")
        targets = defended(other, other_buffs, buff_file,
                           _situation(kwargs) if other_buffs else None)
        return analyse(self, targets, **with_buffs(kwargs, buffs, buff_file))

    def to_toml(self, path: str | Path | None = None) -> str:
        """The units as a scenario file for ``mathhammer run`` (returned, and written to
        ``path`` when given); see :func:`mathhammer.wh40k.roster.scenario.roster_toml`."""
        from mathhammer.wh40k.roster.scenario import check_scenario_path, roster_toml

        if path is not None:
            check_scenario_path(path, self.source)
        text = roster_toml(self)
        if path is not None:
            Path(path).write_text(text, encoding="utf-8")
        return text

    def _repr_html_(self) -> str:
        import pandas as pd

        frame = pd.DataFrame([{
            "unit": e.name, "points": e.points, "models": e.models,
            "groups": "; ".join(f"{g.count}x {g.name}: {group_dict(g)['profile']}"
                                for g in e.groups),
            "attached to": self.attached_to(e.name) or "",
            "notes": "; ".join(e.notes)} for e in self.entries])
        title = f"{self.faction}, {self.edition}th edition, {_pts(self.points)} points"
        return f"<p><b>{html.escape(title)}</b></p>" + frame.to_html(index=False)

    def __repr__(self) -> str:
        return (f"Roster({self.faction!r}, edition={self.edition}, points={self.points}, "
                f"{len(self.entries)} units)")


def group_dict(group: ModelGroup) -> dict[str, Any]:
    """A model group in the listing shape: name, count, target line, weapon lines."""
    profile = replace(group.profile, count=1, name="")
    weapons = []
    for carried in group.weapons:
        for p in carried.profiles:
            count = group.count * carried.per_model
            text = str(p.with_count(count))
            weapons.append(text if count != 1 else f"1x {text}")  # the count, always
    return {"name": group.name, "count": group.count, "profile": str(profile),
            "weapons": weapons}


def _with_points(entry: RosterEntry) -> tuple[ModelGroup, ...]:
    total = sum(g.count for g in entry.groups)
    return tuple(replace(g, points=entry.points * g.count / total) for g in entry.groups)


def _merge_defense(old: Mapping[str, int | bool], new: Mapping[str, int | bool]
                   ) -> dict[str, int | bool]:
    """Two sets of whole-unit rules: the larger penalty of each kind, halving if either."""
    out = dict(old)
    for key, value in new.items():
        out[key] = True if key == "damage_halved" else max(int(out.get(key, 0)), int(value))
    return out


def _assume_pairs(spec: AssumeSpec) -> list[tuple[str, str]]:
    if spec is None:
        return []
    out = []
    for item in one_or_many(spec, (), "assume", "Custodian Guard: Shield Wall"):
        unit, sep, ability = item.partition(":")
        if not sep or not unit.strip() or not ability.strip():
            raise OptionError(f"assume '{item}': write UNIT: ABILITY, e.g. "
                              "\"Custodian Guard: Shield Wall\"")
        out.append((unit.strip(), ability.strip()))
    return out


def _attach_pairs(spec: AttachSpec) -> list[tuple[str, str]]:
    if spec is None:
        return []
    if isinstance(spec, Mapping):
        for key, value in spec.items():
            text(key, "an attach Leader name")
            text(value, f"the unit '{key}' attaches to")
        return list(spec.items())
    out = []
    for item in one_or_many(spec, (), "attach", "Captain=Intercessor Squad"):
        leader, sep, bodyguard = item.partition("=")
        if not sep or not leader.strip() or not bodyguard.strip():
            raise OptionError(f"attach '{item}': write LEADER=BODYGUARD, e.g. "
                              "\"Captain=Intercessor Squad\"")
        out.append((leader.strip(), bodyguard.strip()))
    return out


def _same_unit(a: str, b: str) -> bool:
    """Datasheet names equal but for case, punctuation and a plural ``s``, or one holding
    the other ("Boyz" and "Ork Boyz": a Leader list may shorten a name)."""
    def key(text: str) -> str:
        return "".join(c for c in _base_name(text).lower() if c.isalnum()).rstrip("s")
    first, second = key(a), key(b)
    return bool(first and second) and (first == second or first in second
                                       or second in first)


def _not_allowed(leader: RosterEntry, bodyguard: RosterEntry) -> str | None:
    """Why the Leader text of the file forbids ``leader`` onto ``bodyguard``, or None (also
    when the file prints no Leader text for it). A reversed pair is named in an
    ``{--attach}`` slot (the caller's option: the pair the other way round)."""
    if any(_same_unit(bodyguard.name, name) for name in leader.can_lead):
        return None
    if any(_same_unit(leader.name, name) for name in bodyguard.can_lead):
        return (f"the pair is reversed: {bodyguard.name}'s Leader ability names "
                f"{_base_name(leader.name)}; write {{--attach}}")
    if leader.can_lead:
        return (f"{leader.name}'s Leader ability allows only {', '.join(leader.can_lead)}")
    return None


def _base_name(name: str) -> str:
    """``Intercessor Squad (2)`` -> ``Intercessor Squad``."""
    head, sep, tail = name.rpartition(" (")
    return head if sep and tail[:-1].isdigit() and tail.endswith(")") else name


def _pts(value: float) -> str:
    return f"{value:g}"

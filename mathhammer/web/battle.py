"""The battle page: a scenario (TOML) typed in the page or written from two rosters, run by
the whole-unit engine and shown round by round."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from mathhammer.errors import OptionError
from mathhammer.web import forms
from mathhammer.web.jobs import Answer
from mathhammer.web.render import Chart, chart_views, csv_download, frame_html, text_download
from mathhammer.web.templating import page

#: Trials of a battle a page may ask for (each trial plays every activation).
MAX_BATTLE_TRIALS = 500_000
DEFAULT_BATTLE_TRIALS = 20_000

EXAMPLE = '''rounds = 2

[units.Intercessors]
models = [{ name = "Intercessor", count = 5, profile = "T4 Sv3+ W2 [INFANTRY]",
            weapons = ['Bolt rifle: 24" A2 BS3+ S4 AP-1 D1',
                       "Close combat weapon: Melee A3 WS3+ S4 AP0 D1"] }]

[units.Boyz]
models = [{ name = "Boy", count = 10, profile = "T5 Sv5+ W1 [INFANTRY]",
           weapons = ["Choppa: Melee A3 WS3+ S5 AP-1 D1"] }]

[[activations]]
phase = "shooting"
attacker = "Intercessors"
target = "Boyz"

[[activations]]
phase = "fight"
attacker = "Boyz"
target = "Intercessors"
'''


def battle_job(query: Mapping[str, str]) -> Any:
    """Read the battle page's query (the scenario is parsed at once); the work running it."""
    from mathhammer.wh40k.scenario.reader import parse_scenario

    text = forms.text_field(query, "scenario", forms.MAX_SCENARIO_CHARS)
    if not text.strip():
        raise OptionError("type a scenario, or write one from two lists")
    scenario = parse_scenario(text, "scenario", buffs=forms.wh40k_buffs(query))
    engine = forms.read_engine(query, MAX_BATTLE_TRIALS)
    trials = engine.trials if (query.get("trials") or "").strip() else DEFAULT_BATTLE_TRIALS
    engine = forms.Engine(False, trials, engine.seed)

    def work() -> Answer:
        from mathhammer.wh40k.scenario.api import run

        return battle_answer(run(scenario, trials=engine.trials, seed=engine.seed), engine)
    return work


def battle_answer(result: Any, engine: forms.Engine) -> Answer:
    """The scenario's table, its round-by-round table and its chart."""
    rounds = per_round(result)
    chart = Chart(lambda: result.plot(), "battle")
    downloads = {"battle.md": text_download(result.to_markdown),
                 "battle.csv": csv_download(result.to_frame), **chart.downloads()}
    html = page("answer_battle.html", table=result.table().to_html(),
                rounds=frame_html(rounds, index=False), chart=chart, downloads=downloads,
                engine=engine.words(per=""))
    return Answer(html, downloads, chart_views([chart]))


def per_round(result: Any) -> Any:
    """Each unit at the end of each round: expected models destroyed, wounds lost and
    P(destroyed)."""
    import pandas as pd

    rows = []
    for checkpoint in range(result.checkpoints):
        name = result.checkpoint_name(checkpoint)
        if not name.endswith(" end"):
            continue
        for unit in result.units:
            models = result.models_destroyed(unit, checkpoint).mean
            rows.append({"round": name.removesuffix(" end"), "unit": unit,
                         "models destroyed": f"{models:.2f}",
                         "wounds lost": f"{result.wounds_lost(unit, checkpoint).mean:.2f}",
                         "P(destroyed)": f"{result.destroyed(unit, checkpoint):.1%}"})
    return pd.DataFrame(rows)


_UNIT_HEADER = re.compile(r'^\[units\.("(?:[^"\\]|\\.)*"|[A-Za-z0-9_-]+)\]$')


def two_lists(first: Any, second: Any) -> str:
    """A scenario of two rosters: each list's units, then one example round in which every
    shooting unit of each side shoots the other side's first unit (edit the activations to
    play out the turn). Names and the lists' file names are written escaped
    (:func:`~mathhammer.wh40k.roster.scenario.toml_string`,
    :func:`~mathhammer.wh40k.roster.scenario.toml_comment`)."""
    from mathhammer.wh40k.roster.scenario import toml_comment, toml_string

    ours = first.to_toml()
    ours = ours[:_placeholder_at(ours)].rstrip()
    theirs, renamed = _units_of(second.to_toml(), {e.name for e in first.entries})
    first_targets = [u.name for u in first.targets]
    second_targets = [renamed.get(u.name, u.name) for u in second.targets]
    if not first_targets or not second_targets:
        raise OptionError("one of the lists has no unit with a statline to target")
    lines = [ours, "", toml_comment(f"The opposing list: {second.source}"), theirs, ""]
    for shooters, target, names in ((first.units, second_targets[0], {}),
                                    (second.units, first_targets[0], renamed)):
        for unit in shooters:
            if any(not w.melee for g in unit.groups for w in g.weapons):
                lines += ["[[activations]]", 'phase = "shooting"',
                          f"attacker = {toml_string(names.get(unit.name, unit.name))}",
                          f"target = {toml_string(target)}", ""]
    return "\n".join(lines)


_PLACEHOLDER_NOTE = "\n# A placeholder target"
_FIRST_UNIT = re.compile(r"^\[units\.", re.M)


def _placeholder_at(text: str) -> int:
    """Where the placeholder enemy of a roster's scenario text begins: at the last line
    that starts with its note (a unit of the list named like the note comes earlier)."""
    return text.rindex(_PLACEHOLDER_NOTE) + 1


def _units_of(text: str, taken: set[str]) -> tuple[str, dict[str, str]]:
    """The unit tables of a roster's scenario text as the enemy side, renamed where a name
    is taken by the first list."""
    from mathhammer.wh40k.roster.scenario import toml_string

    start = _FIRST_UNIT.search(text)
    body = text[start.start() if start else 0:_placeholder_at(text)].splitlines()
    renamed: dict[str, str] = {}
    for line in body:
        match = _UNIT_HEADER.match(line)
        if match:
            name = _name(match.group(1))
            new = name
            while new in taken:
                new += " (enemy)"
            renamed[name] = new
    out = []
    for line in body:
        match = _UNIT_HEADER.match(line)
        if match:
            line = f"[units.{toml_string(renamed[_name(match.group(1))])}]"
        elif line == 'side = "list"':
            line = 'side = "enemy"'
        elif line.startswith("attached = ["):
            names = _value(line.partition("=")[2])
            line = f"attached = [{', '.join(toml_string(renamed.get(n, n)) for n in names)}]"
        out.append(line)
    return "\n".join(out).rstrip(), renamed


def _name(key: str) -> str:
    return _value(key) if key.startswith('"') else key


def _value(text: str) -> Any:
    """A TOML value written by the roster's scenario writer (a string, a list of them)."""
    import tomllib

    return tomllib.loads(f"value = {text}")["value"]

"""The work behind the weapon pages: 40k weapons against targets, Warmachine, Dust.

Each ``*_job`` function reads and checks the query at once (a bad field is refused before
anything runs) and returns the work to run in the job pool, which answers an
:class:`~mathhammer.web.jobs.Answer`: the command line's tables and charts.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

from mathhammer.errors import OptionError
from mathhammer.web import forms
from mathhammer.web.checks import refuse_file_reference
from mathhammer.web.jobs import Answer
from mathhammer.web.render import (Chart, at_least_html, chart_views, csv_download,
                                   text_download)
from mathhammer.web.templating import page
from mathhammer.web.units import Units, melee_when_charged
from mathhammer.web import words

Work = Callable[[], Answer]

#: Cells one 40k grid may have (attacker lines times target lines).
MAX_CELLS = 64


def _attackers(lines: list[str]) -> list[Any]:
    """Attacker lines: weapon lines of one unit joined with ' + ' make one attacker."""
    out: list[Any] = []
    for line in lines:
        parts = [p.strip() for p in line.split(" + ") if p.strip()]
        out.append(parts if len(parts) > 1 else line)
    return out


def wh40k_job(query: Mapping[str, str], units: Units | None = None) -> Work:
    """Weapon lines against target lines (:func:`mathhammer.compare`), as the page asks.

    ``@Name`` lines are datasheets of the checkout ``units`` reads (checked now: an unknown
    name is refused before anything runs); a unit that charged attacks with its melee
    weapons, as on the command line."""
    units = units or Units(None)
    weapons = forms.lines_field(query, "weapons", "weapon")
    targets = forms.lines_field(query, "targets", "target")
    if not weapons or not targets:
        raise OptionError("type at least one weapon line and one target line")
    if len(weapons) * len(targets) > MAX_CELLS:
        raise OptionError(f"{len(weapons)} weapon lines by {len(targets)} targets is "
                          f"{len(weapons) * len(targets)} pairings; at most {MAX_CELLS} at once")
    options = forms.wh40k_options(query)
    options["buffs"] = forms.wh40k_buffs(query)
    engine = forms.read_engine(query)
    weapons = melee_when_charged(weapons, options.get("charged", False))
    for line in weapons + targets:
        units.check(line)
    return units.wrap(lambda: _wh40k_answer(_attackers(weapons), targets, options, engine))


def _wh40k_answer(attackers: list[Any], targets: list[str], options: dict[str, Any],
                  engine: forms.Engine) -> Answer:
    """One pairing (:func:`mathhammer.exact` / :func:`mathhammer.simulate`: its table and
    distributions), or a grid (:func:`mathhammer.compare`: its table, heat map and "at least
    k" chart); ``options["buffs"]``: the named buffs of every cell."""
    from mathhammer import charts
    from mathhammer.wh40k.comparisons import compare, table, to_markdown

    if len(attackers) == 1 and len(targets) == 1:
        return _pairing_answer(attackers[0], targets[0], options, engine)
    kept = compare(attackers, targets, method=engine.method, trials=engine.trials,
                   seed=engine.seed, keep_results=True, **options)
    frame = kept.frame
    shown = [Chart(lambda: charts.heatmap(frame), "heatmap"),
             Chart(lambda: charts.overlay(kept.results, "damage"), "at-least-k")]
    downloads = {"grid.csv": csv_download(lambda: frame),
                 "grid.md": text_download(lambda: to_markdown(frame, caption=True))}
    for chart in shown:
        downloads.update(chart.downloads())
    html = page("answer_40k.html", grid=table(frame).to_html(), single=None, single_table="",
                charts=shown, engine=engine.words(), downloads=downloads,
                buffs=buff_words(kept.results.values()))
    return Answer(html, downloads, chart_views(shown))


def _pairing_answer(attacker: Any, target: str, options: dict[str, Any],
                    engine: forms.Engine) -> Answer:
    from mathhammer.wh40k.api import exact, parse_target, simulate

    weapons = attacker if isinstance(attacker, list) else [attacker]
    profile = parse_target(target, options.get("edition", 11))
    result = exact(weapons, profile, **options) if engine.exact else \
        simulate(weapons, profile, trials=engine.trials, seed=engine.seed, **options)
    shown = [Chart(functools.partial(result.plot, o), o.replace("_", "-"))
             for o in ("damage", "models_destroyed") if varies(result, o)]
    downloads = {"result.md": text_download(result.to_markdown),
                 "result.csv": csv_download(result.to_frame)}
    for chart in shown:
        downloads.update(chart.downloads())
    html = page("answer_40k.html", grid="", single=result,
                single_table=result.table().to_html(),
                at_least=at_least_html(result, ("damage", "models_destroyed")), charts=shown,
                engine=engine.words(per=""), downloads=downloads, buffs=buff_words([result]),
                policy=_policy_html(weapons, profile, options) if engine.exact else "")
    return Answer(html, downloads, chart_views(shown))


def _policy_html(weapons: list[Any], profile: Any, options: dict[str, Any]) -> str:
    """The best Damage re-roll's choices as tables, when the question asks for it
    (``reroll_damage = best`` or ``command_reroll = damage_best``); else ``""``."""
    import html

    from mathhammer.report.tables import Table
    from mathhammer.wh40k.damage_policy import best_damage_rerolls

    command = options.get("command_reroll") == "damage_best"
    if options.get("reroll_damage") != "best" and not command:
        return ""
    rest = {k: v for k, v in options.items()
            if k not in ("reroll_damage", "command_reroll", "reroll_goal")}
    policy = best_damage_rerolls(weapons, profile, goal=options.get("reroll_goal",
                                                                    "models_destroyed"),
                                 command=command, **rest)
    parts = [f"<p class=\"hint\">{html.escape(policy.header())}</p>"]
    for grid in policy.grids():
        parts.append(Table(grid.frame.reset_index(), caption=grid.title).to_html())
        parts += [f"<p class=\"hint\">* {html.escape(e)}</p>" for e in grid.exceptions]
    parts.append("<p>" + "<br>".join(html.escape(line) for line in policy.summary()) + "</p>")
    return "\n".join(parts)


def buff_words(results: Any) -> list[str]:
    """``Buffs: ...`` and ``Not applied: ...`` lines over ``results`` (each name once)."""
    said: dict[str, list[str]] = {"Buffs": [], "Not applied": []}
    for result in results:
        found = result.inputs.get("buffs") or {}
        said["Buffs"] += found.get("applied", [])
        said["Not applied"] += found.get("not_applied", [])
    return [f"{key}: {'; '.join(dict.fromkeys(names))}" for key, names in said.items() if names]


#: Warmachine rule switches the page offers (the command line's flags of the same names).
WARMACHINE_SWITCHES = (
    forms.Switch("no_tough", "No Tough rolls"),
    forms.Switch("no_all_ones_miss", "All 1s do not miss"),
    forms.Switch("roll_vs_auto_hit", "Roll against automatic hits"),
    forms.Switch("apply_crippling", "Apply crippled systems"),
)


def warmachine_job(query: Mapping[str, str]) -> Work:
    """Warmachine attacks against targets (:func:`mathhammer.warmachine.api.exact` or
    ``simulate``)."""
    attacks = forms.lines_field(query, "attacks", "attack")
    targets = forms.lines_field(query, "targets", "target")
    if not attacks or not targets:
        raise OptionError("type at least one attack line and one target line")
    switches = forms.read_fields(query, WARMACHINE_SWITCHES)
    engine = forms.read_engine(query)

    def work() -> Answer:
        from mathhammer.warmachine import api
        from mathhammer.warmachine.profiles import Rules

        rules = Rules(tough_allowed=not switches["no_tough"],
                      all_ones_miss=not switches["no_all_ones_miss"],
                      roll_vs_auto_hit=switches["roll_vs_auto_hit"],
                      apply_crippling=switches["apply_crippling"])
        result = api.exact(attacks, targets, rules=rules) if engine.exact else \
            api.simulate(attacks, targets, trials=engine.trials, seed=engine.seed, rules=rules)
        return result_answer(result, engine, ("damage", "models_destroyed"))
    return work


#: Dust rule choices the page offers.
DUST_FIELDS = (
    forms.Switch("sustained", "Sustained attack"),
    forms.Choice("ruleset", "Rules", ("dust_tactics", "dust1947")),
    forms.Choice("cover_save_per", "Cover save per", ("hit", "damage_point")),
    forms.Number("distance", "Distance", 0, 100, None, optional=True),
)
words.register(*WARMACHINE_SWITCHES, *DUST_FIELDS)  # refusals name these controls


def dust_job(query: Mapping[str, str]) -> Work:
    """Dust weapons against one target (:func:`mathhammer.dust.api.exact` or ``simulate``)."""
    weapons = forms.lines_field(query, "weapons", "weapon")
    targets = forms.lines_field(query, "targets", "target")
    if not weapons or len(targets) != 1:
        raise OptionError("type at least one weapon line and exactly one target line")
    for line in weapons + targets:
        refuse_file_reference(line)
    fields = forms.read_fields(query, DUST_FIELDS)
    engine = forms.read_engine(query)

    def work() -> Answer:
        from mathhammer.dust import api

        kwargs = dict(sustained=fields["sustained"], distance=fields["distance"],
                      ruleset=fields["ruleset"], cover_save_per=fields["cover_save_per"])
        result = api.exact(weapons, targets[0], **kwargs) if engine.exact else \
            api.simulate(weapons, targets[0], trials=engine.trials, seed=engine.seed, **kwargs)
        return result_answer(result, engine, ("damage", "models_destroyed"))
    return work


def varies(result: Any, outcome: str) -> bool:
    """Whether an outcome can take more than one value (else its chart says nothing);
    wounds lost are always drawn."""
    return outcome == "damage" or len(result.distribution(outcome).probabilities) > 1


def result_answer(result: Any, engine: forms.Engine, outcomes: tuple[str, ...]) -> Answer:
    """One result: its table, the distribution chart of each outcome present, downloads."""
    charts = [Chart(functools.partial(result.plot, o), o.replace("_", "-"))
              for o in outcomes if o in result.outcomes and varies(result, o)]
    downloads = {"result.md": text_download(result.to_markdown),
                 "result.csv": csv_download(result.to_frame)}
    for chart in charts:
        downloads.update(chart.downloads())
    html = page("answer_result.html", table=result.table().to_html(), charts=charts,
                at_least=at_least_html(result, outcomes),
                engine=engine.words(), downloads=downloads, text=result.to_text())
    return Answer(html, downloads, chart_views(charts))

"""The "my army" page: a dropped roster's listing, and its matrix against archetypes or a
second list, each cell opening the full distributions of that pairing."""

from __future__ import annotations

import functools
import html
from collections.abc import Mapping
from typing import Any

from mathhammer.errors import OptionError
from mathhammer.web import forms
from mathhammer.web.jobs import Answer
from mathhammer.web.render import Chart, chart_views, csv_download, text_download
from mathhammer.web.templating import page
from mathhammer.web.uploads import RosterStore
from mathhammer.web import words

#: Targets offered when the box is left empty.
DEFAULT_TARGETS = "GEQ\nMEQ\nTEQ\nVEQ\nKEQ"
PHASES = forms.Choice("phase", "Phase", ("both", "shooting", "fight"))
PROFILES = forms.Choice("profiles", "Weapon profiles", ("best", "first"))
METRIC = forms.Choice("metric", "Metric", ("", "expected_damage", "expected_models_destroyed",
                                           "p_unit_destroyed", "damage_per_100pts",
                                           "models_destroyed_per_100pts"))
words.register(PHASES, PROFILES, METRIC)  # refusals name these controls
#: Most Monte Carlo trials per cell of a matrix a page may ask for.
MATRIX_TRIALS = 200_000


def load(store: RosterStore, key: str, attach: list[str] | None = None,
         assume: list[str] | None = None) -> Any:
    """The :class:`~mathhammer.wh40k.roster.api.Roster` of an uploaded list."""
    from mathhammer.wh40k.roster.api import parse_roster

    upload = store.get(key)
    return parse_roster(upload.data, upload.name, attach=attach or None,
                        assume=assume or None)


def pairs_field(query: Mapping[str, str], name: str) -> list[str]:
    """``LEADER=BODYGUARD`` or ``UNIT: ABILITY`` lines."""
    return forms.lines_field(query, name, "pair")


def listing(army: Any) -> str:
    """The roster listing as HTML: units, points, model groups, weapons, notes."""
    from mathhammer.wh40k.roster.api import group_dict

    units = []
    for entry in army.entries:
        groups = [group_dict(g) for g in entry.groups]
        units.append({"name": entry.name, "points": entry.points, "models": entry.models,
                      "groups": groups, "attached": army.attached_to(entry.name),
                      "notes": list(entry.notes)})
    return page("listing.html", army=army, units=units)


def matrix_job(query: Mapping[str, str], store: RosterStore) -> Any:
    """Read the army page's query; the work computing the matrix."""
    key = (query.get("list") or "").strip()
    if not key:
        raise OptionError("drop a roster file first")
    other_key = (query.get("against") or "").strip()
    targets = forms.lines_field(query, "targets", "target") or DEFAULT_TARGETS.split("\n")
    if len(targets) > forms.MAX_LINES:
        raise OptionError(f"at most {forms.MAX_LINES} targets at once")
    attach, assume = pairs_field(query, "attach"), pairs_field(query, "assume")
    other_attach = pairs_field(query, "attach_other")
    phase = forms.choice(query, PHASES)
    profiles = forms.choice(query, PROFILES)
    metric = forms.choice(query, METRIC) or None
    options = forms.wh40k_options(query)
    if not (query.get("edition") or "").strip():
        options.pop("edition")  # the list's own edition
    engine = forms.read_engine(query, MATRIX_TRIALS)
    army = load(store, key, attach, assume)
    other = load(store, other_key, other_attach) if other_key else None
    phases = ("shooting", "fight") if phase == "both" else (phase,)
    common = dict(method="auto" if engine.exact else "monte-carlo", trials=engine.trials,
                  seed=engine.seed, profiles=profiles, phases=phases, **options)
    buffs, other_buffs = split_buffs(forms.wh40k_buffs(query), other is not None)
    if buffs:
        common["buffs"] = buffs
    if other_buffs:
        common["other_buffs"] = other_buffs

    def work() -> Answer:
        kept = army.against(other, keep_results=True, **common) if other is not None \
            else army.compare(targets, keep_results=True, **common)
        said = [f"Buffs: {'; '.join(texts)}" for texts in (buffs,) if texts] + [
            f"The opponent's buffs: {'; '.join(other_buffs)}" for _ in [0] if other_buffs]
        return _matrix_answer(kept.frame, kept.results, metric, engine, said)
    return work


def split_buffs(texts: list[str], against: bool) -> tuple[list[str], list[str]]:
    """The page's buffs as the list's (``buffs=``) and the opponent's (``other_buffs=``):
    a buff whose every grant protects (FNP, cover, ``-1 damage``...) is the opponent's units'.

    Raises
    ------
    OptionError
        A protecting buff without an opponent's list (one line, naming it).
    """
    from mathhammer.wh40k.buff_reader import DEFENSIVE_KINDS
    from mathhammer.wh40k.buffs import parse_buff

    ours, theirs = [], []
    for text in texts:
        buff = parse_buff(text)
        if buff.grants and all(g.kind in DEFENSIVE_KINDS for g in buff.grants):
            if not against:
                raise OptionError(f"buff '{buff.name}' protects the targets, and the targets "
                                  "here are lines: type it on them (e.g. 'MEQ' as 'T4 Sv3+ W2 "
                                  "FNP5+') or drop the opponent's list", token=buff.name)
            theirs.append(text)
        else:
            ours.append(text)
    return ours, theirs


def _matrix_answer(frame: Any, cells: dict, metric: str | None, engine: forms.Engine,
                   said: list[str] | None = None) -> Answer:
    from mathhammer.wh40k.comparisons import METRIC_LABELS
    from mathhammer.wh40k.roster.cli import analysis_figure, default_metric
    from mathhammer.wh40k.roster.tables import metric_table

    metric = metric or default_metric(frame)
    if metric not in set(frame["metric"]):
        raise OptionError(f"metric '{metric}' is not in this analysis (a list without points "
                          "has no per-100-points metrics)")
    views: dict[str, Any] = {}
    keys = {key: f"cell-{n}" for n, key in enumerate(cells)}
    tables = []
    for phase in ("shooting", "fight"):
        part = frame[frame["phase"] == phase]
        if part.empty:
            continue
        wide = metric_table(part, metric)
        tables.append({"phase": phase, "html": _clickable(wide, phase, keys)})
    for key, name in keys.items():
        views[name] = lambda key=key: cell_view(key, cells[key])
    chart = Chart(lambda: analysis_figure(frame, metric), "matrix")
    downloads = {"matrix.csv": csv_download(lambda: frame), **chart.downloads(),
                 "matrix.md": text_download(lambda: _markdown(frame, metric))}
    notes = list(frame.attrs.get("notes", [])) + list(frame.attrs.get("choices", []))
    text = page("answer_matrix.html", tables=tables, chart=chart, downloads=downloads,
                label=METRIC_LABELS.get(metric, metric), engine=engine.words(), notes=notes,
                buffs=said or [],
                method=frame.attrs.get("method"))
    return Answer(text, downloads, {**views, **chart_views([chart])})


def _markdown(frame: Any, metric: str) -> str:
    """The matrix of each phase as a Markdown table (the command line's ``--markdown``)."""
    from mathhammer.report.tables import Table
    from mathhammer.wh40k.comparisons import METRIC_LABELS
    from mathhammer.wh40k.roster.tables import metric_table

    parts = []
    for phase in ("shooting", "fight"):
        part = frame[frame["phase"] == phase]
        if not part.empty:
            parts.append(f"### {phase.capitalize()} phase: {METRIC_LABELS.get(metric, metric)}"
                         f"\n\n{Table(metric_table(part, metric).reset_index()).to_markdown()}")
    return "\n\n".join(parts)


def _clickable(wide: Any, phase: str, keys: dict) -> str:
    """A metric table whose cells open their pairing's distributions."""
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in wide.columns)
    rows = []
    for attacker, row in wide.iterrows():
        cells = []
        for target, value in row.items():
            name = keys.get((attacker, target, phase))
            text = html.escape(str(value))
            cells.append(f'<td><a href="#" class="cell" data-view="{name}">{text}</a></td>'
                         if name else f"<td>{text}</td>")
        rows.append(f"<tr><th>{html.escape(str(attacker))}</th>{''.join(cells)}</tr>")
    return (f'<table class="grid matrix" data-phase="{phase}"><thead><tr><th></th>{head}'
            f"</tr></thead><tbody>{''.join(rows)}</tbody></table>")


def cell_view(key: tuple[str, str, str], result: Any) -> str:
    """The full distributions of one matrix cell: its table and charts."""
    attacker, target, phase = key
    if hasattr(result, "distributions"):
        charts = [Chart(functools.partial(result.plot, o), o)
                  for o in ("damage", "models_destroyed") if o in result.outcomes]
    else:  # the whole-unit engine's result (a target of several statlines)
        charts = [Chart(lambda: result.plot(), "battle")]
    return page("cell.html", attacker=attacker, target=target, phase=phase,
                table=result.table().to_html(), charts=charts)

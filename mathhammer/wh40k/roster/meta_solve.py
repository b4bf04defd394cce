"""Solving a meta matrix's unit pairings: in fixed chunks, here or as Dask tasks, each chunk
written to the ``--out`` folder as it comes so that a re-run skips what is done.

A chunk is solved by the roster analysis's own code
(:mod:`mathhammer.wh40k.roster.analyse`: the weapon selection, the one-pass exact matrix,
Monte Carlo where the exact engine refuses a pairing), with each pairing's seed made from
its digest (:func:`pairing_seed`), so a pairing's figures do not depend on the chunk it
lands in or on the machine that runs it.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from mathhammer.core.progress import Bar, bar as progress_bar
from mathhammer.core.signatures import EXACT, MONTE_CARLO
from mathhammer.errors import OptionError, UnsupportedError
from mathhammer.wh40k.roster.meta_settings import FIGURES, Pairing, Settings

#: Unit pairings per task: the same chunks here and on a cluster.
CHUNK = 96
#: The file of solved pairings in an ``--out`` folder, one JSON object a line.
STORE_NAME = "pairings.jsonl"

Answer = dict[str, Any]


def pairing_seed(seed: int, key: str) -> Any:
    """The random stream of the pairing with digest ``key``: a child of ``seed`` whose spawn
    key is read from the digest.

    Examples
    --------
    >>> pairing_seed(1, "00000001" * 3).spawn_key
    (1, 1, 1)
    """
    import numpy as np

    return np.random.SeedSequence(seed, spawn_key=tuple(int(key[i:i + 8], 16)
                                                        for i in range(0, 24, 8)))


def solve_chunk(chunk: list[Pairing], settings: Settings) -> dict[str, Answer]:
    """Each pairing's figures, by digest: ``{"method": ..., "figures": {metric: [value,
    stderr]}}`` (``figures`` empty when the attacker has no weapon for the phase).

    Raises
    ------
    UnsupportedError
        With ``method="exact"``, naming the first pairing the exact engine does not cover.
    """
    from mathhammer.wh40k.roster import analyse

    cells = [(dataclasses.replace(p.unit, name=f"u{i}"),
              dataclasses.replace(p.target, label=f"t{i}"), p.phase)
             for i, p in enumerate(chunk)]
    children = [pairing_seed(settings.seed, p.key) for p in chunk]
    options = settings.options
    if any(p.buffs for p in chunk):   # each pairing's own roll grants (buffs, Leaders)
        from mathhammer.wh40k.roster.buffed import per_unit_options

        options = per_unit_options(options, {f"u{i}": p.buffs for i, p in enumerate(chunk)})
    if settings.method == MONTE_CARLO:
        frames = [analyse.cell_frame(unit, target, phase, child, [], None, exact=False,
                                trials=settings.trials, profiles=settings.profiles,
                                options=options)
                  for (unit, target, phase), child in zip(cells, children)]
        found = [f for f in frames if f is not None]
        rows = _rows(found)
    else:
        planned = analyse.plan_cells(cells, children, settings.profiles, options, [], Bar())
        every = "every" if settings.method == EXACT else True
        try:
            frame = analyse.exact_matrix(planned, every, settings.trials, None, [], Bar())
        except analyse.NotEveryCell:
            _refuse_first(chunk, children, settings)
            raise
        rows = _rows([frame] if frame is not None else [])
    out: dict[str, Answer] = {}
    for i, p in enumerate(chunk):
        out[p.key] = rows.get(f"u{i}", {"method": "none", "figures": {}})
    return out


def _refuse_first(chunk: list[Pairing], children: list[Any], settings: Settings) -> None:
    """The one-line refusal of the chunk's first pairing the exact engine does not cover,
    named as the lists name its units (each pairing tried alone)."""
    from mathhammer.wh40k.roster import analyse

    from mathhammer.wh40k.roster.buffed import per_unit_options

    for p, child in zip(chunk, children):
        options = per_unit_options(settings.options, {p.unit.name: p.buffs})
        planned = analyse.plan_cells([(p.unit, p.target, p.phase)], [child], settings.profiles,
                                     options, [], Bar())
        try:
            analyse.exact_matrix(planned, "every", settings.trials, None, [], Bar())
        except analyse.NotEveryCell as exc:
            raise UnsupportedError(f"the exact engine does not cover {exc}; leave out "
                                   "--exact to run Monte Carlo there") from None


def _rows(frames: Iterable[Any]) -> dict[str, Answer]:
    out: dict[str, Answer] = {}
    for frame in frames:
        for attacker, metric, value, stderr, method in zip(
                frame["attacker"], frame["metric"], frame["value"], frame["stderr"],
                frame["method"]):
            if metric not in FIGURES:
                continue
            answer = out.setdefault(attacker, {"method": method, "figures": {}})
            answer["figures"][metric] = [float(value),
                                         None if math.isnan(stderr) else float(stderr)]
            if answer["method"] != method:
                answer["method"] = "mixed"
    return out


class Store:
    """The solved pairings of an ``--out`` folder: read at the start, appended per chunk."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        if self.folder.exists() and not self.folder.is_dir():
            raise OptionError(f"--out '{folder}' is a file; give a folder for the results "
                              "(it is created if missing)")
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise OptionError(f"cannot create the --out folder '{folder}': "
                              f"{exc.strerror or exc}") from None
        self.path = self.folder / STORE_NAME

    def load(self) -> dict[str, Answer]:
        """The pairings already solved (a line cut short by an interruption is ignored)."""
        out: dict[str, Answer] = {}
        if not self.path.exists():
            return out
        with self.path.open(encoding="utf-8") as handle:
            for line in handle:
                try:
                    item = json.loads(line)
                    out[str(item["key"])] = {"method": str(item["method"]),
                                             "figures": dict(item["figures"])}
                except (ValueError, KeyError, TypeError):
                    continue
        return out

    def write(self, answers: Mapping[str, Answer]) -> None:
        """Append ``answers`` and flush them to disk."""
        with self.path.open("a", encoding="utf-8") as handle:
            for key, answer in answers.items():
                handle.write(json.dumps({"key": key, **answer}) + "\n")
            handle.flush()


def solve(unique: Mapping[str, Pairing], settings: Settings, *, client: Any = None,
          store: Store | None = None, progress: bool | None = None
          ) -> tuple[dict[str, Answer], int, int]:
    """Every unique pairing's answer, the number solved now and the number read back from
    ``store`` (pairings solved by an earlier run).

    The pairings to solve are cut into chunks of :data:`CHUNK` in digest order; each chunk
    is one call of :func:`solve_chunk` here, or one task on ``client`` (a
    ``dask.distributed.Client``), and is written to ``store`` as soon as it is back.
    """
    answers = {k: v for k, v in (store.load() if store else {}).items() if k in unique}
    resumed = len(answers)
    todo = [unique[k] for k in sorted(unique) if k not in answers]
    chunks = [todo[i:i + CHUNK] for i in range(0, len(todo), CHUNK)]
    with progress_bar(len(todo), "meta", progress=progress, unit="pairing") as bar:
        def done(got: dict[str, Answer], n: int) -> None:
            answers.update(got)
            if store is not None:
                store.write(got)
            bar.update(n)

        if client is None:
            for chunk in chunks:
                done(solve_chunk(chunk, settings), len(chunk))
        else:
            from distributed import as_completed

            futures = {client.submit(solve_chunk, chunk, settings, pure=False): len(chunk)
                       for chunk in chunks}
            for future in as_completed(list(futures)):
                done(future.result(), futures[future])
    return answers, len(todo), resumed

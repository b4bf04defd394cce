"""The benchmark table: one :class:`Row` per engine and scenario, and how figures print."""

from __future__ import annotations

from dataclasses import dataclass


def mib(n_bytes: float) -> str:
    if n_bytes < 2**20:
        return f"{n_bytes / 2**10:.0f} KiB"
    return f"{n_bytes / 2**20:.1f} MiB"


def rate(x: float) -> str:
    for unit, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if x >= scale:
            return f"{x / scale:.3g} {unit}/s"
    return f"{x:.3g} /s"


def secs(x: float) -> str:
    return f"{x * 1e3:.3g} ms" if x < 1 else f"{x:.3g} s"


@dataclass
class Row:
    scenario: str
    engine: str
    trials: str = "-"
    trials_per_s: str = "-"
    dice_per_s: str = "-"
    time_per_answer: str = "-"
    peak_mem: str = "-"
    ratio: str = "-"
    target: str = "-"
    check: str = "-"

    def cells(self) -> list[str]:
        return [self.scenario, self.engine, self.trials, self.trials_per_s, self.dice_per_s,
                self.time_per_answer, self.peak_mem, self.ratio, self.target, self.check]


HEADER = ["scenario", "engine", "trials", "trials/s", "attack dice/s", "time/answer",
          "peak mem", "mathhammer / this", "target", "answer check"]


def markdown_table(rows: list[Row]) -> str:
    table = [HEADER] + [r.cells() for r in rows]
    widths = [max(len(line[i]) for line in table) for i in range(len(HEADER))]
    out = []
    for k, line in enumerate(table):
        out.append("| " + " | ".join(c.ljust(w) for c, w in zip(line, widths)) + " |")
        if k == 0:
            out.append("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return "\n".join(out)

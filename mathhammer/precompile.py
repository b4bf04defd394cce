"""Compile every kernel ahead of first use: ``mathhammer warmup`` and ``mh.warmup()``.

Each engine's kernels compile the first time they run with an empty numba cache (seconds
each); later processes load the cached machine code at once. Warming up runs each engine
once on a tiny input so that a prepared machine, a notebook server or a CI job pays that cost
up front, not on a user's first question. Warming up an engine that is already compiled
only loads it from the cache.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from mathhammer.errors import OptionError, did_you_mean


def _wh40k() -> None:
    from mathhammer.wh40k.api import simulate

    # Both trial loops of the Monte Carlo kernel: the chain shortcuts' (every batch takes
    # one) and the whole one ([SUSTAINED HITS] with [LETHAL HITS] takes none).
    for abilities in ("", " [SUSTAINED HITS 1, LETHAL HITS]"):
        simulate(f'Rifle: 24" A2 BS3+ S4 AP-1 D1{abilities}', "2x Trooper: T4 Sv3+ W2",
                 trials=64, seed=0, progress=False)


def _scenario() -> None:
    from mathhammer.wh40k.scenario.api import run
    from mathhammer.wh40k.scenario.helper_recording import SMALL_SCENARIO
    from mathhammer.wh40k.scenario.reader import parse_scenario

    # Both versions of the scenario kernel: without the rare rules' code, and with it (any
    # rare rule, here [HAZARDOUS]; CompiledScenario.rare_rules).
    for text in (SMALL_SCENARIO, SMALL_SCENARIO.replace("AP-1 D1", "AP-1 D1 [HAZARDOUS]")):
        run(parse_scenario(text, "<warmup>"), trials=64, seed=0, progress=False)


def _warmachine() -> None:
    from mathhammer.warmachine.api import simulate

    simulate("Hammer: MAT7 POW12", "Jack: DEF12 ARM16 BOXES10", trials=64, seed=0,
             progress=False)


def _dust() -> None:
    from mathhammer.dust.api import simulate
    from mathhammer.dust.exchanges import exchange
    from mathhammer.dust.parse import parse_target, parse_weapon_line
    from mathhammer.dust.profiles import ModelGroup, Unit

    simulate("Rifle: 3/1", "2x Soldier: INFANTRY2", trials=64, seed=0, progress=False)
    rifle = parse_weapon_line("Rifle: 3/1")[0]
    squad = Unit("Squad", parse_target("2x Soldier: INFANTRY2"), (rifle,),
                 (ModelGroup(2, ("Rifle",)),))
    exchange(squad, squad, 1, method="monte-carlo", trials=64, seed=0, progress=False)


#: Engine name -> what warms it, in the order ``warmup`` runs them.
ENGINES: dict[str, Callable[[], None]] = {
    "40k": _wh40k,
    "scenario": _scenario,
    "warmachine": _warmachine,
    "dust": _dust,
}


def warmup(engines: Iterable[str] | None = None,
           report: Callable[[str, float], None] | None = None) -> dict[str, float]:
    """Compile (or load from numba's cache) every kernel of the given engines.

    Parameters
    ----------
    engines
        Names from :data:`ENGINES` (``"40k"``, ``"scenario"``, ``"warmachine"``,
        ``"dust"``); all of them by default.
    report
        Called with each engine's name and seconds as soon as it is ready.

    Returns
    -------
    dict
        Seconds each engine took: its compile time on a cold cache, its load time on a warm
        one.

    Examples
    --------
    >>> seconds = warmup(["40k"])
    >>> sorted(seconds)
    ['40k']
    """
    names = list(ENGINES) if engines is None else _checked(engines)
    seconds = {}
    for name in names:
        start = time.perf_counter()
        ENGINES[name]()
        seconds[name] = time.perf_counter() - start
        if report is not None:
            report(name, seconds[name])
    return seconds


def _checked(engines: Iterable[str]) -> list[str]:
    if isinstance(engines, str):
        engines = [engines]
    if not isinstance(engines, Iterable) or isinstance(engines, (Mapping, bytes)):
        raise OptionError(f"warmup(engines={engines!r:.40}): give a list of engine names "
                          f"({', '.join(ENGINES)}), or None for all")
    names = []
    for name in engines:
        if name not in ENGINES:
            raise OptionError(f"unknown engine {str(name)[:40]!r}"
                              f"{did_you_mean(str(name), ENGINES)}; engines: "
                              f"{', '.join(ENGINES)}")
        names.append(name)
    return names


def register(subparsers: Any) -> None:
    """Add the ``warmup`` subcommand (called by :mod:`mathhammer.main`)."""
    parser = subparsers.add_parser(
        "warmup", help="compile every engine's kernels now, so later runs start at once",
        description="Compile (or load from the cache) the kernels of every engine, or of the "
                    "engines named, and print the seconds each took. Use it to prepare a "
                    "machine, a notebook server or a CI job: on a cold cache the first "
                    "answer of each engine otherwise waits for its compile.")
    parser.add_argument("--engine", action="append", choices=list(ENGINES), default=None,
                        help="warm up only this engine (repeat for several); default all")
    parser.add_argument("--json", action="store_true",
                        help='print {"seconds": {engine: seconds}} instead of lines')
    parser.set_defaults(handler=_run_command)


def _run_command(args) -> int:
    import json
    import sys

    def line(name: str, seconds: float) -> None:
        if not args.json:
            print(f"{name:<11} ready in {seconds:5.1f} s", flush=True)

    seconds = warmup(args.engine, report=line)
    if args.json:
        json.dump({"seconds": {k: round(v, 3) for k, v in seconds.items()}}, sys.stdout)
        print()
    else:
        print(f"all ready in {sum(seconds.values()):.1f} s; later runs load the compiled "
              f"kernels from numba's cache")
    return 0

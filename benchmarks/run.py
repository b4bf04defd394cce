"""mathhammer benchmark suite: one command, one table of figures and ratios.

    python benchmarks/run.py            # full run (about 6-8 minutes on 2 cores)
    python benchmarks/run.py --quick    # smaller trial counts, no 100M-trial run (~1.5 min)

Every engine runs on the same fixed scenarios (benchmarks/scenarios.py) in the same process
and the same run, so the ratios compare like with like:

- mathhammer Monte Carlo: ``mathhammer.simulate`` end to end (parse, compile, kernel,
  result), the number a user sees;
- the dice-rolling floor (numba; three generator variants measured, the fastest is "floor");
- a vectorised numpy Monte Carlo; icepool (exact); mathhammer's exact engine.

Each engine's answer is checked against mathhammer's exact answer (Monte Carlo means within
5 standard errors, exact pmfs equal to 1e-12); a mismatch stops the run. No time is ever
asserted. Times are the median of several repeats after a warm-up run (JIT compiled and
cached). Peak memory per engine is the tracemalloc peak of one separate, untimed run: every
numpy array and Python object allocated, not memory numba allocates inside a kernel; the
100M-trial row reports the peak RSS (VmHWM) of a fresh process instead.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
import tracemalloc
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import numba  # noqa: E402
import numpy as np  # noqa: E402

import mathhammer as mh  # noqa: E402
from benchmarks import exact_rows  # noqa: E402
from benchmarks.table import HEADER, Row, markdown_table, mib, rate, secs  # noqa: E402
from benchmarks.baselines import dice_floor, icepool_exact, numpy_mc  # noqa: E402
from benchmarks.scenarios import SCENARIOS, SHOOT_THEN_FIGHT_TOML, Scenario  # noqa: E402

SEED = 20261129
Z_LIMIT = 5.0


# --- measurement helpers ---------------------------------------------------------------------

def median_time(fn, repeats: int) -> tuple[float, object]:
    """Median wall time of ``repeats`` calls (after the caller's warm-up) and the last value."""
    times = []
    value = None
    for _ in range(repeats):
        start = time.perf_counter()
        value = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), value


def traced_peak(fn) -> int:
    """tracemalloc peak (bytes) of one call."""
    tracemalloc.start()
    tracemalloc.reset_peak()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def hist_mean_se(hist: np.ndarray) -> tuple[float, float]:
    values = np.arange(len(hist))
    n = hist.sum()
    mean = float((hist * values).sum() / n)
    var = float((hist * (values - mean) ** 2).sum() / n)
    return mean, math.sqrt(var / n)


@dataclass
class Targets:
    """Figures behind each issue-5 target (filled as the run goes)."""

    floor_ratio: dict[str, float] = field(default_factory=dict)     # mh time/trial ÷ floor
    numpy_ratio: dict[str, float] = field(default_factory=dict)     # mh throughput ÷ numpy
    icepool_ratio: dict[str, float] = field(default_factory=dict)   # icepool time ÷ mh exact
    issue24: exact_rows.Issue24 = field(default_factory=exact_rows.Issue24)
    extra: dict[str, object] = field(default_factory=dict)


# --- per-scenario engines ---------------------------------------------------------------------

def check_mc(mean: float, se: float, exact_mean: float) -> tuple[float, str]:
    z = (mean - exact_mean) / se if se > 0 else 0.0
    if abs(z) > Z_LIMIT:
        raise AssertionError(f"Monte Carlo mean {mean} is {z:.1f} SE from exact {exact_mean}")
    return z, f"mean {mean:.4f} vs exact {exact_mean:.4f} ({z:+.1f} SE) ok"


def bench_scenario(s: Scenario, trials: int, repeats: int, targets: Targets) -> list[Row]:
    rows: list[Row] = []
    weapons, target, opts = list(s.weapons), s.target, s.options
    size = s.models * s.wounds + 1
    attacks = float(s.mean_attacks)

    # mathhammer exact: the reference answer.
    mh.exact(weapons, target, **opts)  # warm-up (imports, caches)
    t_exact, exact = median_time(lambda: mh.exact(weapons, target, **opts),
                                 max(repeats * 3, 5))
    exact_pmf = np.zeros(size)
    exact_series = exact.pmf("damage")
    exact_pmf[: len(exact_series)] = exact_series.to_numpy()
    exact_mean = exact.mean("damage")
    mem_exact = traced_peak(lambda: mh.exact(weapons, target, **opts))

    # mathhammer Monte Carlo, end to end.
    mh.simulate(weapons, target, trials=1000, seed=SEED, **opts)  # JIT warm-up / cache load
    t_mc, result = median_time(
        lambda: mh.simulate(weapons, target, trials=trials, seed=SEED, **opts), repeats)
    mc_tps = trials / t_mc
    _, mc_check = check_mc(result.mean("damage"), result.stderr("damage"), exact_mean)
    mem_mc = traced_peak(lambda: mh.simulate(weapons, target, trials=trials, seed=SEED,
                                             **opts))
    rows.append(Row(s.title, "mathhammer MC", f"{trials:,}", rate(mc_tps),
                    rate(mc_tps * attacks), secs(t_mc), mib(mem_mc), "1", "-", mc_check))

    # Dice-rolling floor: all variants, the fastest is the floor.
    d6 = s.d6_per_trial()
    variant_tps = {}
    for variant in dice_floor.VARIANTS:
        dice_floor.roll_floor(d6, 1000, SEED, variant)  # JIT warm-up / cache load
        t_v, hist = median_time(lambda: dice_floor.roll_floor(d6, trials, SEED, variant),
                                repeats)
        z = dice_floor.check_floor(hist, d6, trials)
        if abs(z) > Z_LIMIT:
            raise AssertionError(f"floor {variant}: mean face {z:.1f} SE from 3.5")
        variant_tps[variant] = (trials / t_v, t_v, z)
    best = max(variant_tps, key=lambda v: variant_tps[v][0])
    for variant, (tps, t_v, z) in variant_tps.items():
        name = f"floor {variant}" + (" *" if variant == best else "")
        mem = traced_peak(lambda: dice_floor.roll_floor(d6, trials, SEED, variant)) \
            if variant == best else None
        rows.append(Row(s.title, name, f"{trials:,}", rate(tps), rate(tps * attacks),
                        secs(t_v), mib(mem) if mem is not None else "-",
                        f"{mc_tps / tps:.3g}x speed ({tps / mc_tps:.3g}x time/trial)",
                        "time/trial <= 2x" if variant == best else "-",
                        f"{d6:.1f} D6/trial, {rate(tps * d6)} D6; mean face {z:+.1f} SE ok"))
    targets.floor_ratio[s.key] = variant_tps[best][0] / mc_tps

    # Vectorised numpy Monte Carlo.
    numpy_mc.simulate(s, 1000, SEED)
    t_np, hist = median_time(lambda: numpy_mc.simulate(s, trials, SEED), repeats)
    np_tps = trials / t_np
    mean, se = hist_mean_se(hist)
    _, np_check = check_mc(mean, se, exact_mean)
    mem_np = traced_peak(lambda: numpy_mc.simulate(s, trials, SEED))
    rows.append(Row(s.title, "numpy MC", f"{trials:,}", rate(np_tps), rate(np_tps * attacks),
                    secs(t_np), mib(mem_np), f"{mc_tps / np_tps:.3g}x speed", ">= 20x",
                    np_check))
    targets.numpy_ratio[s.key] = mc_tps / np_tps

    # icepool (exact). Each repeat rebuilds every die from scratch.
    def icepool_answer():
        return icepool_exact.pmf(icepool_exact.wounds_lost(s), size)

    icepool_answer()
    t_ice, ice_pmf = median_time(icepool_answer, max(repeats * 3, 5))
    diff = float(np.abs(ice_pmf - exact_pmf).max())
    if diff > 1e-12:
        raise AssertionError(f"icepool pmf differs from exact by {diff}")
    mem_ice = traced_peak(icepool_answer)
    rows.append(Row(s.title, "icepool (exact)", "-", "-", "-", secs(t_ice), mib(mem_ice),
                    f"{t_ice / t_exact:.3g}x speed", ">= 100x",
                    f"pmf = exact (max diff {diff:.0e}) ok"))
    targets.icepool_ratio[s.key] = t_ice / t_exact
    rows += exact_rows.exact_answer_rows(s, icepool_answer, max(repeats * 3, 5),
                                         targets.issue24)

    rows.append(Row(s.title, "mathhammer exact", "-", "-", "-", secs(t_exact),
                    mib(mem_exact), "1", "-", f"mean {exact_mean:.4f} (reference)"))
    return rows


# --- whole-unit shoot-then-fight ---------------------------------------------------------------

def scenario_engine():
    """The callable that runs a scenario, or None while issue 3's engine is pending.

    Issue 3's engine is ``mathhammer.run(scenario, trials=, seed=)`` (in
    ``mathhammer.wh40k.scenario.api``); this row prints "n/a (scenario engine pending)" in a
    checkout without it.
    """
    try:
        from mathhammer.wh40k import scenario  # noqa: F401
    except ImportError:
        return None
    fn = getattr(mh, "run", None)
    return fn if callable(fn) else None


#: The first activation of SHOOT_THEN_FIGHT_TOML is one batch, which the exact engine solves:
#: the scenario's Boyz after the shooting are checked against it.
SHOOTING_ONLY = (['5x Bolt rifle: 24" A2 BS3+ S4 AP-1 D1 [ASSAULT, HEAVY]'],
                 "10x Boy: T5 Sv5+ W1 [INFANTRY]", {"half_range": True, "stationary": True})


def bench_shoot_then_fight(trials: int, repeats: int) -> Row:
    title = "shoot then fight (whole units)"
    run = scenario_engine()
    if run is None:
        return Row(title, "mathhammer MC", check="n/a (scenario engine pending)")
    try:
        from mathhammer.wh40k.scenario.reader import parse_scenario

        scenario = parse_scenario(SHOOT_THEN_FIGHT_TOML)
        run(scenario, trials=1000, seed=SEED)
        t, result = median_time(lambda: run(scenario, trials=trials, seed=SEED), repeats)
        boyz = result.wounds_lost("Boyz", 0)
        marines = result.wounds_lost("Intercessors")
    except Exception as exc:  # noqa: BLE001 - a work-in-progress engine must not sink the run
        return Row(title, "mathhammer MC",
                   check=f"n/a (scenario engine failed: {type(exc).__name__}: {exc})")
    weapons, target, opts = SHOOTING_ONLY
    _, check = check_mc(boyz.mean, boyz.stderr, mh.exact(weapons, target, **opts).mean("damage"))
    mem = traced_peak(lambda: run(scenario, trials=trials, seed=SEED))
    return Row(title, "mathhammer MC (mh.run)", f"{trials:,}", rate(trials / t), "-", secs(t),
               mib(mem), "-", "-",
               f"Boyz after shooting: {check}; Intercessors lose {marines.mean:.3f} W "
               f"(no exact engine for the fight)")


ARCHETYPES = ["GEQ", "MEQ", "TEQ", "VEQ", "KEQ"]


def bench_rosters(repeats: int) -> list[Row]:
    """Issue 11: a 10-unit list against five archetypes (exact wherever the target is one
    allocation group) and against another 10-unit list (both phases, default trials)."""
    from mathhammer.wh40k.roster.api import example

    marines, orks = mh.load_roster(example("marines")), mh.load_roster(example("orks"))
    title = "army list (10 units)"
    marines.compare(ARCHETYPES, method="auto")  # warm-up: JIT, caches
    t, grid = median_time(lambda: marines.compare(ARCHETYPES, method="auto"), repeats)
    cell = grid.query("attacker == 'Intercessor Squad (2)' and target == 'MEQ' and "
                      "phase == 'shooting' and metric == 'expected_damage'")["value"].item()
    reference = mh.exact(['4x Bolt rifle: 24" A2 BS3+ S4 AP-1 D1',
                          'Bolt rifle: 24" A2 BS3+ S4 AP-1 D1'], "MEQ").mean("damage")
    if abs(cell - reference) > 1e-12:
        raise AssertionError(f"roster cell {cell} != mh.exact {reference}")
    exact_share = (grid["method"] == "exact").mean()
    n_cells = len(grid.groupby(["attacker", "target", "phase"]))
    rows = [Row(title, "vs 5 archetypes, exact", "-", "-", "-", secs(t), "-", "-", "< 5 s warm",
                f"{n_cells} cells, {exact_share:.0%} exact; Intercessors vs MEQ = "
                f"mh.exact ({cell:.4f}) ok")]
    marines.against(orks, phases=["fight"], trials=2_000)  # warm-up of the whole-unit engine
    t, frame = median_time(lambda: marines.against(orks), max(1, repeats // 2))
    row = frame.query("attacker == 'Gladiator Lancer' and target == 'Battlewagon' and "
                      "phase == 'shooting' and metric == 'expected_damage'").iloc[0]
    exact_mean = mh.exact(['Lancer laser destroyer: 72" A2 BS3+ S14 AP-4 DD6+3 [HEAVY]',
                           '2x Storm bolter: 24" A2 BS3+ S4 AP0 D1 [RAPID FIRE 2]'],
                          "T10 Sv3+ W16 [VEHICLE, TRANSPORT]").mean("damage")
    _, check = check_mc(row.value, row.stderr, exact_mean)
    cells = len(frame.groupby(["attacker", "target", "phase"]))
    rows.append(Row(title, "vs another 10-unit list, MC", "200,000 per cell", "-", "-", secs(t),
                    "-", "-", "< 30 s warm", f"{cells} cells; Lancer vs Battlewagon: {check}"))
    rows.append(bench_hostile_rosters())
    return rows


def bench_hostile_rosters() -> Row:
    """The slowest refusal among hostile roster files, and the largest tracemalloc peak."""
    import zipfile

    from mathhammer.errors import RosterError
    from mathhammer.wh40k.roster import read

    head = ('<roster xmlns="http://www.battlescribe.net/schema/rosterSchema" '
            'gameSystemId="sys-352e-adc2-7639-d6a9">')
    laughs = ['<?xml version="1.0"?>', '<!DOCTYPE roster [', '<!ENTITY l0 "lol">']
    laughs += [f'<!ENTITY l{i} "{f"&l{i - 1};" * 10}">' for i in range(1, 10)]
    laughs += [']>', '<roster name="&l9;"/>']
    with tempfile.TemporaryDirectory() as tmp:
        files = {"billion laughs": Path(tmp, "laughs.ros"), "16 MiB of elements":
                 Path(tmp, "flood.ros"), "elements up to the cap": Path(tmp, "edge.ros"),
                 "zip bomb": Path(tmp, "bomb.rosz"), "16 MiB of JSON objects":
                 Path(tmp, "flood.json")}
        files["billion laughs"].write_text("\n".join(laughs))
        files["16 MiB of elements"].write_text(head + "<a/>" * 4_000_000 + "</roster>")
        files["elements up to the cap"].write_text(head + "<a/>" * (2 * read.MAX_NODES)
                                                   + "</roster>")
        files["16 MiB of JSON objects"].write_text('{"roster": {"forces": ['
                                                   + ",".join(["{}"] * 5_000_000) + "]}}")
        with zipfile.ZipFile(files["zip bomb"], "w", zipfile.ZIP_DEFLATED) as archive:
            with archive.open("army.ros", "w") as member:
                for _ in range(read.MAX_XML_BYTES // 2**20 + 64):
                    member.write(b"<" * 2**20)
        worst, peak, slowest = 0.0, 0, ""
        for name, path in files.items():
            start = time.perf_counter()
            try:
                read.read_tree(path)
                raise AssertionError(f"{name} was not refused")
            except RosterError:
                pass
            elapsed = time.perf_counter() - start
            if elapsed > worst:
                worst, slowest = elapsed, name
            peak = max(peak, traced_peak(lambda p=path: _refused(read, p)))
    return Row("hostile roster files", "refused with one error", "-", "-", "-", secs(worst),
               mib(peak), "-", "< 1 s", f"all {len(files)} refused; slowest: {slowest}")


def _refused(read, path) -> None:
    from mathhammer.errors import RosterError

    try:
        read.read_tree(path)
    except RosterError:
        pass


# --- measurements in fresh processes -----------------------------------------------------------

RIFLE = SCENARIOS[0]


def _python(code: str, env: dict | None = None, timeout: float = 900) -> tuple[float, str]:
    full_env = dict(os.environ)
    full_env.update(env or {})
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=full_env, timeout=timeout, cwd=ROOT)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        raise RuntimeError(f"subprocess failed:\n{proc.stderr}")
    return wall, proc.stdout


def memory_for_trials(trials: int) -> dict:
    """Peak RSS of a fresh process running ``trials`` trials of the rifle squad."""
    code = textwrap.dedent(f"""
        import json, time, psutil, mathhammer as mh
        import mathhammer.wh40k.api

        def vm_hwm():
            # The peak RSS of this process image. Not ru_maxrss: Linux carries the parent's
            # high-water mark across fork + exec into the child's ru_maxrss.
            with open("/proc/self/status") as status:
                for line in status:
                    if line.startswith("VmHWM:"):
                        return int(line.split()[1]) * 1024
            raise RuntimeError("no VmHWM in /proc/self/status")

        w, t = {list(RIFLE.weapons)!r}, {RIFLE.target!r}
        imported = psutil.Process().memory_info().rss  # after imports, before any kernel
        mh.simulate(w, t, trials=1000, seed=1)  # loads (or compiles) the JIT code
        warm = psutil.Process().memory_info().rss
        warm_peak = vm_hwm()
        start = time.perf_counter()
        r = mh.simulate(w, t, trials={trials}, seed={SEED})
        elapsed = time.perf_counter() - start
        peak = vm_hwm()
        print(json.dumps(dict(imported=imported, warm=warm, warm_peak=warm_peak, peak=peak,
                              elapsed=elapsed, mean=r.mean("damage"), se=r.stderr("damage"))))
    """)
    # A first process brings numba's on-disk cache up to date, so the measured process loads
    # machine code instead of compiling it (LLVM's compile-time peak is not the run's memory).
    _python(f"import mathhammer as mh; mh.simulate({list(RIFLE.weapons)!r}, {RIFLE.target!r}, "
            f"trials=1000, seed=1)")
    _, out = _python(code, timeout=3600)
    return json.loads(out.strip().splitlines()[-1])


def cli_command(trials: int) -> list[str]:
    return [sys.executable, "-m", "mathhammer", "simulate", *RIFLE.weapons, "--target",
            RIFLE.target, "--trials", str(trials), "--seed", "1"]


def _wall(cmd: list[str], env: dict | None = None) -> float:
    full_env = dict(os.environ)
    full_env.update(env or {})
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=full_env, cwd=ROOT)
    return time.perf_counter() - start


def cli_startup(runs: int = 5) -> dict:
    """Warm-cache CLI wall time (1M trials) minus the wall time of importing the API."""
    _wall(cli_command(1_000_000))  # make sure the JIT cache is warm
    cli = statistics.median(_wall(cli_command(1_000_000)) for _ in range(runs))
    tiny = statistics.median(_wall(cli_command(1)) for _ in range(runs))
    imp = statistics.median(
        _wall([sys.executable, "-c", "import mathhammer.wh40k.api"]) for _ in range(runs))
    return {"cli_1m": cli, "cli_1_trial": tiny, "import": imp, "beyond_import": cli - imp}


#: The first answers a new user waits for (issue 19): (label, command, cold target in s).
COLD_COMMANDS = (
    ("simulate (README command 1)",
     ["simulate", *RIFLE.weapons, "--target", RIFLE.target, "--half-range", "--stationary"], 8),
    ("exact", ["exact", *RIFLE.weapons, "--target", RIFLE.target], None),
    ("run examples/shoot_charge_fight.toml", ["run", "examples/shoot_charge_fight.toml"], 12),
    ("roster example vs 4 archetypes",
     ["roster", "mathhammer/wh40k/roster/data/example_marines_11e.ros", "--target", "MEQ",
      "--target", "GEQ", "--target", "TEQ", "--target", "VEQ"], 10),
)


def cold_start(runs: int) -> dict[str, dict]:
    """Each of :data:`COLD_COMMANDS` in fresh processes: ``runs`` times with an empty numba
    cache (a new NUMBA_CACHE_DIR each), then once more with that cache warm."""
    out = {}
    for label, args, target in COLD_COMMANDS:
        cmd = [sys.executable, "-m", "mathhammer", *args]
        cold = []
        for _ in range(runs):
            with tempfile.TemporaryDirectory() as cache:
                cold.append(_wall(cmd, {"NUMBA_CACHE_DIR": cache}))
                warm = _wall(cmd, {"NUMBA_CACHE_DIR": cache})
        out[label] = {"cold": statistics.median(cold), "min": min(cold), "max": max(cold),
                      "warm": warm, "target": target}
    return out


def thread_scaling(trials: int) -> dict:
    """Kernel throughput with NUMBA_NUM_THREADS=1 and 2, and a hash of the histograms."""
    code = textwrap.dedent(f"""
        import hashlib, json, time, numpy as np
        from mathhammer.wh40k.api import GAME, run_monte_carlo
        plan = GAME.compile({list(RIFLE.weapons)!r}, {RIFLE.target!r}).plan
        run_monte_carlo(plan, 1000, 1)
        times = []
        for _ in range(3):
            start = time.perf_counter()
            hists = run_monte_carlo(plan, {trials}, {SEED})
            times.append(time.perf_counter() - start)
        digest = hashlib.sha256(b"".join(np.ascontiguousarray(h).tobytes()
                                         for h in hists.histograms.values())).hexdigest()
        print(json.dumps(dict(seconds=sorted(times)[1], digest=digest)))
    """)
    out = {}
    for threads in (1, 2):
        _, text = _python(code, {"NUMBA_NUM_THREADS": str(threads)})
        out[threads] = json.loads(text.strip().splitlines()[-1])
    return out


def extra_rows(quick: bool, targets: Targets) -> list[Row]:
    rows = []
    title = RIFLE.title

    big = 10_000_000 if quick else 100_000_000
    m = memory_for_trials(big)
    _, check = check_mc(m["mean"], m["se"], mh.exact(list(RIFLE.weapons),
                                                     RIFLE.target).mean("damage"))
    # VmHWM is the process's high-water mark: if the JIT cache was stale, LLVM's compilation
    # peak during the warm-up shows in it too; "in run" isolates the big run.
    in_run = max(0, m["peak"] - m["warm"]) if m["peak"] > m["warm_peak"] else 0
    targets.extra["memory"] = (big, m["peak"], in_run)
    rows.append(Row(title, f"{big // 1_000_000}M trials, fresh process", f"{big:,}",
                    rate(big / m["elapsed"]), rate(big / m["elapsed"] * float(RIFLE.mean_attacks)),
                    secs(m["elapsed"]),
                    f"{mib(m['peak'])} peak RSS (import {mib(m['imported'])}, JIT loaded "
                    f"{mib(m['warm'])}, +{mib(in_run)} during the run)", "-",
                    "< 500 MB at 100M", check))

    c = cli_startup()
    targets.extra["cli"] = c
    rows.append(Row(title, "CLI 1M trials, warm cache", "1,000,000", "-", "-",
                    f"{secs(c['beyond_import'])} beyond import",
                    "-", "-", "< 0.3 s",
                    f"cli {secs(c['cli_1m'])}, 1-trial cli {secs(c['cli_1_trial'])}, "
                    f"import {secs(c['import'])} (median of 5)"))

    runs = 1 if quick else 3
    for label, c in cold_start(runs).items():
        targets.extra.setdefault("cold", {})[label] = c
        target = f"cold <= {c['target']} s" if c["target"] else "-"
        rows.append(Row(label, f"CLI, empty numba cache ({runs}x)", "-", "-", "-",
                        f"{secs(c['cold'])} cold", "-", "-", target,
                        f"median of {runs} fresh processes (min {secs(c['min'])}, max "
                        f"{secs(c['max'])}); then {secs(c['warm'])} with that cache warm"))

    n = 2_000_000 if quick else 10_000_000
    sc = thread_scaling(n)
    one, two = n / sc[1]["seconds"], n / sc[2]["seconds"]
    same = sc[1]["digest"] == sc[2]["digest"]
    targets.extra["scaling"] = (one, two, same)
    rows.append(Row(title, "kernel, 1 vs 2 threads", f"{n:,}", f"{rate(one)} / {rate(two)}",
                    "-", "-", "-", f"{two / one:.2f}x on 2 threads", ">= 1.7x",
                    "histograms bit-identical" if same else "HISTOGRAMS DIFFER"))
    return rows


# --- report ------------------------------------------------------------------------------------

def code_version() -> str:
    """HEAD and whether package files differ from it (the working tree is what runs)."""
    def git(*args):
        return subprocess.run(["git", *args], capture_output=True, text=True,
                              cwd=ROOT).stdout
    try:
        head = git("rev-parse", "--short", "HEAD").strip()
        dirty = [line[3:] for line in git("status", "--porcelain", "mathhammer").splitlines()
                 if len(line) > 3]
    except OSError:
        return "unknown (no git)"
    if not head:
        return "unknown (not a git checkout)"
    return head + (f" + uncommitted changes in {', '.join(dirty)}" if dirty else " (clean)")


def machine() -> str:
    model = platform.processor()
    try:
        for line in subprocess.run(["lscpu"], capture_output=True, text=True).stdout.splitlines():
            if line.startswith("Model name:"):
                model = line.split(":", 1)[1].strip()
    except OSError:
        pass
    blas = {k: os.environ[k] for k in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE") if k in os.environ}
    import icepool
    dice_floor.roll_floor(1.0, 64, 1)  # a parallel kernel has run: the layer is known
    return (f"{model}, {os.cpu_count()} cores; numba threads {numba.get_num_threads()} "
            f"({numba.threading_layer()} threading layer); "
            f"Python {platform.python_version()}, numba {numba.__version__}, "
            f"numpy {np.__version__}, icepool {icepool.__version__}; "
            f"OpenBLAS env: {blas or 'unset'}")


def verdicts(t: Targets) -> list[str]:
    def worst(d, fn):
        key = fn(d, key=d.get)
        return key, d[key]

    lines = []
    k, v = worst(t.floor_ratio, max)
    ok = all(r <= 2 for r in t.floor_ratio.values())
    lines.append(f"MC <= 2x floor time/trial: {'MET' if ok else 'NOT MET'} "
                 f"(worst {v:.1f}x on {k}; " +
                 ", ".join(f"{x} {r:.1f}x" for x, r in t.floor_ratio.items()) + ")")
    k, v = worst(t.numpy_ratio, min)
    ok = all(r >= 20 for r in t.numpy_ratio.values())
    lines.append(f">= 20x numpy throughput: {'MET' if ok else 'NOT MET'} (worst {v:.2f}x on {k}; "
                 + ", ".join(f"{x} {r:.2f}x" for x, r in t.numpy_ratio.items()) + ")")
    k, v = worst(t.icepool_ratio, min)
    ok = all(r >= 100 for r in t.icepool_ratio.values())
    lines.append(f"exact >= 100x icepool: {'MET' if ok else 'NOT MET'} (worst {v:.2f}x on {k}; "
                 + ", ".join(f"{x} {r:.2f}x" for x, r in t.icepool_ratio.items()) + ")")
    if "memory" in t.extra:
        n, peak, grow = t.extra["memory"]
        lines.append(f"{n:,} trials < 500 MB: {'MET' if peak < 500e6 else 'NOT MET'} "
                     f"(peak RSS of the whole process {mib(peak)}; the run itself added "
                     f"{mib(grow)} above the RSS after JIT loading)")
    if "cli" in t.extra:
        c = t.extra["cli"]["beyond_import"]
        lines.append(f"warm CLI 1M trials < 0.3 s beyond import: "
                     f"{'MET' if c < 0.3 else 'NOT MET'} ({secs(c)})")
    for label, c in t.extra.get("cold", {}).items():
        if c["target"]:
            lines.append(f"cold {label} <= {c['target']} s: "
                         f"{'MET' if c['cold'] <= c['target'] else 'NOT MET'} "
                         f"({secs(c['cold'])}; warm {secs(c['warm'])})")
    if "scaling" in t.extra:
        one, two, same = t.extra["scaling"]
        lines.append(f"2 threads >= 1.7x 1 thread: {'MET' if two / one >= 1.7 else 'NOT MET'} "
                     f"({two / one:.2f}x); bit-identical across thread counts: "
                     f"{'MET' if same else 'NOT MET'}")
    return lines


BEGIN = "<!-- begin: generated by benchmarks/run.py --results -->"
END = "<!-- end: generated by benchmarks/run.py --results -->"


def write_block(path: Path, block: str) -> None:
    """Replace the generated block of ``path`` (or create the file with it)."""
    text = path.read_text() if path.exists() else f"# Benchmark results\n\n{BEGIN}\n{END}\n"
    if BEGIN not in text or END not in text:
        text = text.rstrip() + f"\n\n{BEGIN}\n{END}\n"
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    path.write_text(head + block + tail)


def exact_only(quick: bool) -> int:
    """``--exact-only``: the issue-24 rows alone (a partial run: RESULTS.md is not touched)."""
    repeats = 3 if quick else 5
    load_start = os.getloadavg()[0]
    print(f"mathhammer exact benchmarks (issue 24), {time.strftime('%Y-%m-%d %H:%M UTC')}")
    print(machine(), flush=True)
    issue24 = exact_rows.Issue24()
    rows: list[Row] = []
    for s in SCENARIOS:
        size = s.models * s.wounds + 1
        rows += exact_rows.exact_answer_rows(
            s, lambda s=s, size=size: icepool_exact.pmf(icepool_exact.wounds_lost(s), size),
            max(repeats * 3, 5), issue24)
    rows += exact_rows.bench_exact_issue24(repeats, 20_000 if quick else 200_000, issue24)
    print()
    print(markdown_table(rows))
    print(f"Load average (1 min) {load_start:.2f} at the start, {os.getloadavg()[0]:.2f} at "
          "the end (2 cores).")
    print("Issue-24 targets (CPU time, same run):")
    for line in issue24.verdicts():
        print("- " + line)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="200k trials per engine, 10M-trial memory row, fewer repeats")
    parser.add_argument("--no-extra", action="store_true",
                        help="skip the fresh-process rows (memory, CLI, cold JIT, threads)")
    parser.add_argument("--exact-only", action="store_true",
                        help="only the exact engine's rows (issue 24: per answer against "
                             "icepool, grid per cell, army lists); prints, never --results")
    parser.add_argument("--json", metavar="PATH", help="also write the rows as JSON")
    parser.add_argument("--results", metavar="PATH",
                        help="rewrite the generated block of this Markdown file "
                             "(benchmarks/RESULTS.md), keeping the rest")
    args = parser.parse_args(argv)
    if args.exact_only:
        return exact_only(args.quick)
    trials = 200_000 if args.quick else 2_000_000
    repeats = 3 if args.quick else 5

    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    load_start = os.getloadavg()[0]
    print(f"mathhammer benchmarks, {started}{' (--quick)' if args.quick else ''}")
    version = code_version()
    print(machine(), flush=True)
    print(f"mathhammer at {version}", flush=True)
    targets = Targets()
    rows: list[Row] = []
    for s in SCENARIOS:
        print(f"  {s.title} ...", file=sys.stderr, flush=True)
        rows += bench_scenario(s, trials, repeats, targets)
    rows.append(bench_shoot_then_fight(trials, repeats))
    print("  army lists ...", file=sys.stderr, flush=True)
    rows += bench_rosters(repeats)
    print("  exact grids and lists (issue 24) ...", file=sys.stderr, flush=True)
    rows += exact_rows.bench_exact_issue24(repeats, 20_000 if args.quick else 200_000,
                                           targets.issue24)
    if not args.no_extra:
        print("  fresh-process measurements ...", file=sys.stderr, flush=True)
        rows += extra_rows(args.quick, targets)
    load_note = (f"Load average (1 min) {load_start:.2f} at the start and "
                 f"{os.getloadavg()[0]:.2f} at the end of the run (2 cores: above ~0.5, other "
                 f"processes shared the machine and every figure, thread scaling most, is "
                 f"pessimistic).")
    print()
    print(markdown_table(rows))
    print(load_note)
    print()
    print("floor * = fastest generator variant this run. 'mathhammer / this' is speed "
          "(trials/s, or 1 / time per exact answer) of mathhammer over that engine.")
    print("Peak mem: tracemalloc peak of one untimed run (numpy arrays and Python objects; not "
          "numba-internal allocations) unless it says RSS.")
    print()
    print("Issue-5 targets:")
    for line in verdicts(targets):
        print("- " + line)
    print("Issue-24 targets (CPU time, same run):")
    for line in targets.issue24.verdicts():
        print("- " + line)
    if args.results:
        block = "\n".join([
            BEGIN, f"Measured {started} with `python benchmarks/run.py"
            f"{' --quick' if args.quick else ''}`, mathhammer at {version}.", "",
            f"Machine: {machine()}.", "",
            markdown_table(rows), "",
            "`floor *` = the fastest dice-floor generator variant this run. "
            "'mathhammer / this' = speed of mathhammer over that engine (trials/s, or "
            "1 / time per exact answer; below 1 means the baseline is faster). Peak mem: "
            "tracemalloc peak of one untimed run (numpy arrays and Python objects, not "
            "numba-internal allocations) unless it says RSS.", "",
            load_note, "", "Issue-5 targets (this run):", ""]
        + ["- " + v for v in verdicts(targets)]
        + ["", "Issue-24 targets (CPU time, this run):", ""]
        + ["- " + v for v in targets.issue24.verdicts()] + [END])
        write_block(Path(args.results), block)
    if args.json:
        Path(args.json).write_text(json.dumps(
            {"date": started, "machine": machine(), "rows": [r.cells() for r in rows],
             "header": HEADER, "targets": verdicts(targets)}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

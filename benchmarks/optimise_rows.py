"""Issue 34's benchmark rows: plans per second of the optimiser's evaluators.

    python benchmarks/optimise_rows.py            # about a minute on 2 cores
    python benchmarks/optimise_rows.py --quick    # fewer Monte Carlo plans

On ``examples/optimise_shooting.toml`` (4,536 plans, three targets):

- the exact evaluator scoring every orders with its cache (what ``mathhammer optimise`` does);
- branch and bound proving the best orders for models destroyed (``--max-orders 1000``: the
  space counts as solved, per set of orders in it);
- the exact evaluator scoring a sample of plans each with an empty cache (first-time cost);
- the Monte Carlo evaluator (20,000 trials per set of orders, the default) on a sample of orders;
- the baseline: ``mh.run`` of each sampled orders's own scenario, 20,000 trials, measured in
  the same run; the ratios are against it.

The answers are checked, not the times: every sampled orders's exact value agrees with its
Monte Carlo value within 5 standard errors (a mismatch stops the run). Times are CPU
seconds of this process (``time.process_time``), the median of three repeats after a
warm-up (JIT compiled).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import mathhammer as mh  # noqa: E402
from mathhammer.wh40k.optimise.api import optimise  # noqa: E402
from mathhammer.wh40k.optimise.evaluate import ExactEvaluator, MonteCarloEvaluator  # noqa: E402
from mathhammer.wh40k.optimise.settings import SearchOptions  # noqa: E402
from mathhammer.wh40k.optimise.space import build_space, concrete_scenario  # noqa: E402
from mathhammer.wh40k.scenario.reader import load_scenario  # noqa: E402

from benchmarks.table import Row, markdown_table, rate, secs  # noqa: E402

EXAMPLE = ROOT / "examples" / "optimise_shooting.toml"
TRIALS = 20_000


def _median_cpu(fn, repeats: int = 3) -> float:
    fn()   # warm-up: JIT compiles, imports
    times = []
    for _ in range(repeats):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return statistics.median(times)


def optimise_rows(sample: int) -> list[Row]:
    scenario = load_scenario(EXAMPLE, open_choices=True)
    space = build_space(scenario)
    plans = list(space.every_orders())
    step = max(len(plans) // sample, 1)
    sampled = plans[::step][:sample]
    targets = space.targets()

    def total(outcome) -> float:
        return sum(outcome.models(t)[0] for t in targets)

    def every_plan_cached() -> list[float]:
        evaluator = ExactEvaluator(space)
        return [total(evaluator.outcome(p)) for p in plans]

    def sampled_uncached() -> list[float]:
        return [total(ExactEvaluator(space).outcome(p)) for p in sampled]

    monte = MonteCarloEvaluator(space, TRIALS, seed=1)

    def sampled_monte_carlo() -> list:
        return [monte.outcome(p) for p in sampled]

    def baseline_runs() -> list:
        return [mh.run(concrete_scenario(space, p), trials=TRIALS, seed=1, progress=False)
                for p in sampled]

    def branch_and_bound() -> float:
        return optimise(scenario, "expected_models_destroyed", method="exact",
                        options=SearchOptions(max_orders=1_000), progress=False).value

    every_best = optimise(scenario, "expected_models_destroyed", method="exact",
                          progress=False).value
    if abs(branch_and_bound() - every_best) > 1e-9:
        raise SystemExit("answer check failed: branch and bound's optimum is not the "
                         "enumeration's")
    exact_values = dict(zip(sampled, sampled_uncached()))
    for orders, outcome in zip(sampled, sampled_monte_carlo()):
        mean = sum(outcome.models(t)[0] for t in targets)
        stderr = sum(outcome.models(t)[1] ** 2 for t in targets) ** 0.5
        if abs(mean - exact_values[orders]) > 5 * stderr + 1e-9:
            raise SystemExit(f"answer check failed: {orders}: exact {exact_values[orders]:.4f}, "
                             f"Monte Carlo {mean:.4f} +- {stderr:.4f}")
    measured = []
    for engine, fn, count, trials in (
            ("optimiser exact, every set of orders (cached)", every_plan_cached, len(plans), "-"),
            ("optimiser exact, branch and bound (whole space proven)", branch_and_bound,
             len(plans), "-"),
            ("optimiser exact, sampled plans, empty cache", sampled_uncached, len(sampled),
             "-"),
            ("optimiser Monte Carlo, sampled plans", sampled_monte_carlo, len(sampled),
             f"{TRIALS:,}"),
            ("baseline: mh.run of each orders's scenario", baseline_runs, len(sampled),
             f"{TRIALS:,}")):
        measured.append((engine, count, trials, _median_cpu(fn) / count))
    base = measured[-1][3]
    return [Row(f"optimise example ({count:,} plans)", engine, trials=trials,
                trials_per_s=rate(1 / per_plan).replace("/s", "plans/s"),
                time_per_answer=secs(per_plan), ratio=f"{base / per_plan:.3g}x",
                check="MC within 5 SE of exact")
            for engine, count, trials, per_plan in measured]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="8 sampled plans instead of 24")
    args = parser.parse_args(argv)
    rows = optimise_rows(8 if args.quick else 24)
    print(markdown_table(rows))
    print("\n'trials/s' holds plans per second; 'mathhammer / this' is the baseline's time per "
          "orders over this row's (above 1: faster than running the orders's scenario).")


if __name__ == "__main__":
    main()

"""The meta matrix's choices in words: what the command line offers is what the matrix and its
chart take, and offering it loads no numeric library."""

import subprocess
import sys

from mathhammer.wh40k.roster.meta_result import check_metric
from mathhammer.wh40k.roster.meta_words import DEFAULT_METRIC, METRICS, ORDERS


def test_every_metric_offered_is_taken_and_the_default_is_one():
    assert DEFAULT_METRIC in METRICS
    for metric in METRICS:
        assert check_metric(metric) == metric
    assert ORDERS[0] == "cluster" and len(set(ORDERS)) == len(ORDERS)


def test_meta_help_loads_no_numeric_stack():
    code = ("import sys, mathhammer.cli as cli\n"
            "try:\n    cli.main(['meta', '--help'])\nexcept SystemExit:\n    pass\n"
            "print([m for m in ('numpy', 'pandas', 'matplotlib') if m in sys.modules], "
            "file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert "--metric" in done.stdout and "margin" in done.stdout
    assert done.stderr.strip().splitlines()[-1] == "[]"

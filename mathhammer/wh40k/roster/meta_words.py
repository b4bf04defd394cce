"""The meta matrix's choices, in words: its metrics and heat-map orders.

Kept apart from :mod:`~mathhammer.wh40k.roster.meta_result` and
:mod:`~mathhammer.wh40k.roster.meta_chart` (pandas, matplotlib) so that the command line
builds ``mathhammer meta --help`` without loading the numeric stack.
"""

from __future__ import annotations

#: What a cell of the matrix can show, and its words.
METRICS = {
    "margin": "expected points destroyed minus points lost",
    "points_destroyed": "expected points destroyed",
    "points_lost": "expected points lost",
    "models_destroyed": "expected models destroyed",
    "models_lost": "expected models lost",
}
#: The metric shown when none is asked for.
DEFAULT_METRIC = "margin"
#: How the heat map orders its lists.
ORDERS = ("cluster", "mean", "file")

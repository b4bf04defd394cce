"""
A chart drawn into your own axes
================================

Given ``ax=``, a chart is laid out inside the figure it is given: the figure keeps its size,
the axes shrink within their slot until tick labels, legend and caption fit, then the text is
scaled down step by step (never below 5 pt).
"""

from matplotlib.figure import Figure

import mathhammer as mh
from mathhammer import charts

figure = Figure(figsize=(7.0, 4.2), layout="constrained")
ax = figure.add_subplot()
lines = {
    "Lascannon": 'Lascannon: 48" A1 BS3+ S12 AP-3 D6+1',
    "Multi-melta": 'Multi-melta: 18" A2 BS3+ S9 AP-4 DD6 [MELTA 2]',
    "Plasma cannon (supercharged)": 'Plasma cannon: 36" AD3 BS3+ S8 AP-3 D 3 [BLAST]',
}
cells = {name: mh.exact(line, "Rhino: T9 Sv3+ W10 [VEHICLE]") for name, line in lines.items()}
art = charts.overlay(cells, ax=ax)

"""Charts for articles and notebooks: the public face of :mod:`mathhammer.core.charts`.

``from mathhammer import charts`` then ``charts.heatmap(frame)``, ``charts.bars(frame,
"expected_damage")``, ``charts.overlay(results)``, ``charts.save(art, "chart.svg")``...
See :mod:`mathhammer.core.charts` for every chart kind and how labels are read from the data.
"""

from mathhammer.core.charts import *  # noqa: F401,F403
from mathhammer.core.charts import __all__  # noqa: F401

"""Charts and tables as the web page shows them (web/render.py)."""

import re

import matplotlib

matplotlib.use("Agg")

import pandas as pd  # noqa: E402

from mathhammer.charts.layout import new_axes  # noqa: E402
from mathhammer.web.render import Chart, chart_views, csv_download, frame_html  # noqa: E402


def drawn(calls):
    def draw():
        calls.append(1)
        ax = new_axes()
        ax.plot([0, 1], [0, 1])
        return ax
    return draw


def test_a_chart_is_drawn_once_and_its_svg_ids_are_unique_on_the_page():
    calls = []
    one, two = Chart(drawn(calls), "bars"), Chart(drawn(calls), "heat")
    assert calls == []                      # nothing drawn until asked
    first, second = one.inline, two.inline
    assert first.startswith("<svg") and one.inline is first and len(calls) == 2
    ids = set(re.findall(r'id="([^"]+)"', first)) & set(re.findall(r'id="([^"]+)"', second))
    assert ids == set()
    assert one.file("png")[:4] == b"\x89PNG"
    assert set(one.downloads()) == {"bars.png", "bars.svg"}
    assert chart_views([one])["chart-bars"]() is first


def test_tables_are_escaped_and_csv_made_on_demand():
    frame = pd.DataFrame({"unit": ["<b>Boyz</b>"], "value": [float("nan")]})
    html = frame_html(frame, index=False)
    assert "&lt;b&gt;Boyz&lt;/b&gt;" in html and "<td>-</td>" in html
    made = []
    download = csv_download(lambda: made.append(1) or frame)
    assert made == [] and download.make().decode().splitlines()[0] == "unit,value"
    assert download.media_type.startswith("text/csv")


def test_a_chart_is_drawn_for_the_width_it_gets():
    import re

    import mathhammer as mh
    from mathhammer.web.render import WIDTHS, Chart

    result = mh.exact('Lascannon: 48" A1 BS3+ S12 AP-3 DD6+1', "Rhino: T10 Sv3+ W10")
    chart = Chart(lambda: result.plot("damage"), "damage")

    def points_wide(svg):
        return float(re.search(r'<svg[^>]*\swidth="([\d.]+)pt"', svg).group(1))

    article = points_wide(chart.inline)
    phone = points_wide(chart.inline_for(360))
    asked = 360 / 100 * 72   # points; a chart may grow a little where its labels need it
    assert asked * 0.99 <= phone <= asked * 1.25 and phone < article
    assert chart.inline_for(361) is chart.inline_for(360)            # rounded, drawn once
    assert chart.inline_for(10) is chart.inline_for(WIDTHS[0])         # never drawn narrower

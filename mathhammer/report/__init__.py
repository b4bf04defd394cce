"""What tables and charts print: :mod:`~mathhammer.report.tables` (the :class:`Table` of
text, Markdown, CSV and JSON, and the rule that writes an estimate with no more decimals than
its standard error supports) and :mod:`~mathhammer.report.labels` (metric ids in words,
registered by the games).

Both import nothing of the engines, so results, frames, charts and the command line share
them.
"""

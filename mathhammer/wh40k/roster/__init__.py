"""Army lists from BattleScribe (.ros, .rosz) and New Recruit (.ros, .json) files.

``read`` (safe file reading into a neutral tree) -> ``convert`` (datasheets to model
groups, weapon and target lines; ``keywords`` turns roster text into our syntax, ``defense``
reads the printed defensive rules and their conditions) -> ``api`` (:func:`load_roster`,
:class:`Roster`) -> ``analyse`` (every unit against targets or another list, through
:mod:`mathhammer.wh40k.comparisons` and the whole-unit engine) -> ``scenario`` (a scenario file)
and ``cli`` (``mathhammer roster``, its tables laid out by ``tables``).
"""

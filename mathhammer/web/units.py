"""Units by name on the 40k page: ``@Name`` lines read from the user's BSData checkout.

The checkout is the one ``mathhammer serve --data DIR`` names, else ``$MATHHAMMER_DATA`` when
the server starts; without either the page works as before and its unit box says, in one
line, how to name one. The unit box completes names from :meth:`Units.names` (the JSON route
``/api/units``); every ``@Name`` line is resolved before a computation starts, so an unknown
name is the usual one-line 400 (with the nearest names), never a failed job.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from mathhammer.errors import MathhammerError, OptionError

log = logging.getLogger("mathhammer.web")

#: The one line a page without a checkout shows, and an ``@Name`` line without one is refused with.
NO_DATA = ("units by name need a BSData checkout: start the page with "
           "'mathhammer serve --data DIR' (or set MATHHAMMER_DATA=DIR), DIR your clone of "
           "BSData/wh40k-10e or BSData/wh40k-11e")
#: Names one completion answer lists at most.
MAX_NAMES = 40
#: Characters of the text a completion looks for.
MAX_FIND = 60


def is_named(line: str) -> bool:
    """Whether a line (or one ' + ' part of an attacker) names a datasheet (``@Name``)."""
    return line.lstrip().startswith("@")


class Units:
    """The checkout a page reads ``@Name`` from (``folder`` None: no checkout)."""

    def __init__(self, folder: str | os.PathLike[str] | None) -> None:
        self.folder = None if folder is None else os.fspath(folder)
        self._lock = threading.Lock()  # one reading of the checkout at a time

    @property
    def ready(self) -> bool:
        return self.folder is not None

    def index(self) -> Any:
        """The checkout's index (read once, then kept while its files are unchanged)."""
        from mathhammer.wh40k.bsdata.named import open_datasheets

        if self.folder is None:
            raise OptionError(NO_DATA)
        with self._lock:
            return open_datasheets(self.folder)

    def warm(self) -> None:
        """Read (or load the cache of) the checkout before the first question."""
        try:
            self.index()
        except MathhammerError as exc:
            log.warning("mathhammer: the BSData checkout cannot be read: %s", exc)

    @contextmanager
    def using(self) -> Iterator[None]:
        """``@Name`` resolves against this page's checkout inside the block."""
        from mathhammer.wh40k.bsdata.named import using_data

        if self.folder is None:
            yield
            return
        self.index()  # read under the lock: two first questions do not both read the files
        with using_data(self.folder):
            yield

    def wrap(self, work: Callable[[], Any]) -> Callable[[], Any]:
        """``work`` run with ``@Name`` resolved against this checkout (in any thread)."""
        def run() -> Any:
            with self.using():
                return work()
        return run

    def names(self, text: str) -> dict[str, Any]:
        """The datasheets whose name holds ``text`` (any case), at most :data:`MAX_NAMES`:
        each with its faction, the ``@`` line that names it and its legal sizes."""
        text = " ".join(text.split())[:MAX_FIND]
        index = self.index()
        found = index.find(text) if text else index.names()
        everywhere: dict[str, int] = {}
        for _, name in found:
            everywhere[name.lower()] = everywhere.get(name.lower(), 0) + 1
        units = []
        for faction, name in found[:MAX_NAMES]:
            record = index.record(name, faction)
            token = name if everywhere[name.lower()] == 1 else f"{name}@{faction}"
            units.append({"name": name, "faction": faction, "line": f"@{token}",
                          "sizes": [record.min_size, record.max_size]})
        return {"ok": True, "units": units, "more": max(0, len(found) - MAX_NAMES)}

    def check(self, line: str) -> None:
        """Refuse a line naming a datasheet this checkout does not have (or any ``@Name``
        when there is no checkout), in one line."""
        from mathhammer.wh40k.bsdata.named import named_sheet

        for part in line.split(" + "):
            if is_named(part):
                self._named(part, named_sheet)

    def weapon_lines(self, part: str) -> list[str]:
        """The default weapons of the unit ``@Name`` names, as weapon lines."""
        from mathhammer.wh40k.bsdata.named import named_weapon_lines

        return self._named(part, named_weapon_lines)

    def target_line(self, line: str) -> str:
        """The unit ``@Name`` names, as a target line."""
        from mathhammer.wh40k.bsdata.named import named_target_line

        return self._named(line, named_target_line)

    def _named(self, text: str, read: Callable[[str], Any]) -> Any:
        if self.folder is None:
            raise OptionError(f"'{text.strip()[:60]}': {NO_DATA}")
        with self.using():
            return read(text.strip())


def melee_when_charged(lines: list[str], charged: bool) -> list[str]:
    """Attacker lines with ``@Name`` parts asking for the unit's melee weapons when it
    charged (as the command line's ``--charged``), unless a part says ``:ranged``."""
    if not charged:
        return lines
    out = []
    for line in lines:
        parts = [f"{p.strip()}:melee" if is_named(p) and not p.rstrip().lower().endswith(
            (":melee", ":ranged")) else p.strip() for p in line.split(" + ")]
        out.append(" + ".join(parts))
    return out

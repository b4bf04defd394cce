"""Words on a chart: wrapping, shortening, and labels that stay distinct when shortened.

No matplotlib here. :func:`wrap` breaks text between words and cuts what does not fit with
an ellipsis; :func:`distinct_labels` shortens a set of labels so that different labels
never read the same (issue 41), warning once (:class:`~mathhammer.charts.fitting.
CrowdedChart`) when the room given cannot tell them apart.
"""

from __future__ import annotations

import textwrap
import warnings
from collections.abc import Sequence
from typing import Any

from mathhammer.charts.fitting import CrowdedChart

def wrap(text: str, width: int = 28, max_lines: int = 2) -> str:
    """``text`` on at most ``max_lines`` lines of about ``width`` characters, broken between
    words only (never inside one); what does not fit is cut at a word with an ellipsis, and a
    single word longer than a line is cut with an ellipsis (the caller keeps the full
    text)."""
    text = " ".join(str(text).split())
    width = max(int(width), 4)
    if len(text) <= width:
        return text
    lines = [clip_line(line, width) for line in
             textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=True)]
    if len(lines) > max_lines:
        lines = lines[:max_lines]
        lines[-1] = _with_ellipsis(lines[-1], width)
    return "\n".join(lines)


def clip_line(line: str, width: int) -> str:
    return line if len(line) <= width else line[: width - 1].rstrip() + "…"


def _with_ellipsis(line: str, width: int) -> str:
    """``line`` ending in "…", cut at a word when the ellipsis needs room."""
    if len(line) + 1 > width:
        cut = line.rfind(" ", 0, width - 1)
        line = line[:cut] if cut > width // 2 else line[: width - 1]
    return line.rstrip(" ,;:(–-") + "…"


#: Smallest text a chart draws, in points (8 pt at 100 dpi is the smallest a reader reads
#: without zooming); :func:`~mathhammer.charts.fitting.fit_to_figure` never scales below it.
MIN_READABLE = 8.0


#: The warning of a chart that cannot tell its labels apart (see
#: :class:`~mathhammer.charts.fitting.CrowdedChart`).
CrowdedLabels = CrowdedChart


def _fits(text: str, width: int, max_lines: int) -> bool:
    """Whether ``text`` wraps onto ``max_lines`` lines of ``width`` characters uncut."""
    lines = textwrap.wrap(text, max(int(width), 4), break_long_words=False)
    return len(lines) <= max_lines and all(len(line) <= max(int(width), 4) for line in lines)


def _common_ends(word_lists: list[list[str]]) -> tuple[int, int]:
    """Words every list starts with, and words every list ends with (not overlapping)."""
    shortest = min(len(w) for w in word_lists)
    head = 0
    while head < shortest and all(w[head] == word_lists[0][head] for w in word_lists):
        head += 1
    tail = 0
    while tail < shortest - head and all(w[-1 - tail] == word_lists[0][-1 - tail]
                                         for w in word_lists):
        tail += 1
    return head, tail


def _keep_difference(words: list[str], head: int, tail: int, width: int,
                     max_lines: int) -> str:
    """``words`` shortened around what sets them apart (``words[head:len - tail]``): as much
    of the shared beginning as fits, "…" for the rest, the differing words whole, the shared
    end if it fits (else "…"); the differing words alone, cut, when nothing else fits."""
    middle = words[head:len(words) - tail]
    ends = [words[len(words) - tail:]] if tail else [[]]
    if tail:
        ends.append(["…"])
    for keep in range(head, -1, -1):
        for end in ends:
            text = " ".join(words[:keep] + (["…"] if keep < head else []) + middle + end)
            if _fits(text, width, max_lines):
                return wrap(text, width, max_lines)
    text = " ".join(middle) or " ".join(words)
    if _fits(text, width, max_lines):
        return wrap(text, width, max_lines)
    if len(text.split(" ")) > 1:  # the name's first word, then what differs, cut at a word
        shown = wrap(" ".join(words[:1] + (["…"] if head > 1 else []) + middle)
                     if head else text, width, max_lines)
        if not middle or middle[0][:4] in shown:
            return shown
        return wrap(text, width, max_lines)  # no room for the first word: what differs
    return _middle_cut(text, width)


def _middle_cut(text: str, width: int) -> str:
    """One line of ``text``'s first and last characters around "…" (two names that
    differ only at the end, such as one long word and a number, stay apart)."""
    keep = max(int(width), 4) - 1
    end = keep // 2
    return text[:keep - end].rstrip() + "…" + text[len(text) - end:].lstrip()


def _cut_peers(full: list[str], shown: list[str], i: int) -> list[int]:
    """The labels a cut label ``i`` could be taken for: those that start as its shown
    text does (its last, perhaps partial, word left out)."""
    flat = " ".join(shown[i].split())
    if "…" not in flat or flat == full[i]:
        return []
    before = flat[:flat.index("…")]
    prefix = " ".join(before.split(" ")[:-1]) or before
    if not prefix:
        return []
    return [j for j, text in enumerate(full) if j != i and text != full[i]
            and text.startswith(prefix)]


def distinct_labels(labels: Sequence[Any], width: int, max_lines: int = 2, *,
                    what: str = "labels") -> list[str]:
    """``labels`` wrapped (:func:`wrap`) to lines of ``width`` characters, at most
    ``max_lines`` of them, and never two alike where the labels differ.

    Labels are wrapped before anything is cut. A label that must be cut is shortened around
    the words that set it apart from the labels it could be taken for ("Hellblasters, 5
    plasma incinerators (supercharge)" and "... (standard)" read "Hellblasters, 5 …
    (supercharge)" and "Hellblasters, 5 … (standard)", not both "Hellblasters, 5 plasma…").
    If even that cannot tell them apart in the room given, one :class:`CrowdedLabels`
    warning says so and the repeats are numbered.
    """
    full = [" ".join(str(label).split()) for label in labels]
    shown = [wrap(text, width, max_lines) for text in full]
    first = list(shown)
    for i in range(len(full)):
        peers = _cut_peers(full, first, i)
        if peers:
            words = [full[k].split(" ") for k in [i, *peers]]
            head, tail = _common_ends(words)
            shown[i] = _keep_difference(words[0], head, tail, width, max_lines)
    for _ in range(3):  # labels shortened alike: shortened again around what sets them apart
        groups: dict[str, list[int]] = {}
        for i, text in enumerate(shown):
            groups.setdefault(text, []).append(i)
        clashes = [g for g in groups.values() if len({full[i] for i in g}) > 1]
        if not clashes:
            break
        for members in clashes:
            words = [full[i].split(" ") for i in members]
            head, tail = _common_ends(words)
            for i, mine in zip(members, words):
                shown[i] = _keep_difference(mine, head, tail, width, max_lines)
    return _numbered_repeats(full, shown, what)


def _numbered_repeats(full: list[str], shown: list[str], what: str) -> list[str]:
    """``shown`` with any text that two different labels share numbered, after one
    warning."""
    owners: dict[str, list[str]] = {}
    for text, whole in zip(shown, full):
        owners.setdefault(text, [])
        if whole not in owners[text]:
            owners[text].append(whole)
    crowded = {text: wholes for text, wholes in owners.items() if len(wholes) > 1}
    if not crowded:
        return shown
    example = next(iter(crowded.values()))
    warnings.warn(f"the chart has no room to tell its {what} apart ({example[0]!r} and "
                  f"{example[1]!r} would read {next(iter(crowded))!r}): they are numbered; "
                  "give the chart more room (a larger figure or ax=) or shorter names",
                  CrowdedChart, stacklevel=4)
    return [f"{text} [{crowded[text].index(whole) + 1}]" if text in crowded else text
            for text, whole in zip(shown, full)]

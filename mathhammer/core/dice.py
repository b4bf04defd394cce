"""Dice expressions such as ``3``, ``D3``, ``D6+3``, ``2D6`` and ``2D3``.

Pure Python (no numpy) so the model layer stays light. A D3 is a D6 halved and rounded up.
"""

from __future__ import annotations

import numbers
import re
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING

from mathhammer.core.limits import MAX_DICE, MAX_NUMBER, first_foreign_digit
from mathhammer.errors import ProfileError

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

_DICE_RE = re.compile(r"^(?:(\d*)D(\d+))?(?:([+-])?(\d+))?$", re.IGNORECASE)
_SIGN_SPACES_RE = re.compile(r"\s*([+-])\s*")
_SPACE_RE = re.compile(r"\s")
_DIGITS_RE = re.compile(r"\d+")
_SUPPORTED_SIDES = (3, 6)


@dataclass(frozen=True, slots=True)
class DiceExpr:
    """``count`` dice of ``sides`` faces plus ``constant``.

    ``sides`` is 0 for a plain number. Construct with :meth:`parse` or :meth:`fixed`.

    Examples
    --------
    >>> d = DiceExpr.parse("d6+3")
    >>> str(d), d.minimum, d.maximum, float(d.mean)
    ('D6+3', 4, 9, 6.5)
    >>> DiceExpr.parse("2D3").pmf()[4] == Fraction(1, 3)
    True
    """

    count: int = 0
    sides: int = 0
    constant: int = 0

    def __post_init__(self) -> None:
        for field in ("count", "sides", "constant"):
            value = getattr(self, field)
            if type(value) is not int and (isinstance(value, bool)
                                           or not isinstance(value, numbers.Integral)):
                raise ProfileError(f"DiceExpr {field} must be a whole number (int), not "
                                   f"{type(value).__name__} {value!r:.40}")
        if self.sides not in (0, *_SUPPORTED_SIDES):
            raise ProfileError(f"dice must be D3 or D6, not D{self.sides}")
        if self.count < 0 or (self.sides == 0 and self.count != 0):
            raise ProfileError(f"invalid dice count {self.count}")
        if self.sides and self.count == 0:
            raise ProfileError("a dice expression needs at least one die")
        if self.minimum < 0:
            raise ProfileError(f"dice expression {self} can be negative")
        if self.count > MAX_DICE:
            raise ProfileError(f"{self.count} dice in '{self}' are too many: at most {MAX_DICE}")
        if abs(self.constant) > MAX_NUMBER:
            raise ProfileError(f"{self.constant:,} in '{self}' is too large: at most "
                               f"{MAX_NUMBER:,}")

    @classmethod
    def fixed(cls, value: int) -> DiceExpr:
        """A constant expression."""
        return cls(0, 0, int(value))

    @classmethod
    def parse(cls, text: str | int | DiceExpr) -> DiceExpr:
        """Parse ``3``, ``D3``, ``D6+1``, ``2D6``, ``2d3+2`` (case-insensitive).

        Spaces may stand around ``+`` and ``-`` only: ``1 D6`` and ``2 3`` are refused, never
        read as ``D6`` or ``23``.

        Raises
        ------
        ProfileError
            For anything else, naming the text and the accepted forms.
        """
        if isinstance(text, DiceExpr):
            return text
        if isinstance(text, numbers.Integral) and not isinstance(text, bool):
            return cls.fixed(int(text))
        if not isinstance(text, str):
            raise ProfileError(f"a dice expression is text such as 'D6+1' or a whole number, "
                               f"not {type(text).__name__} {text!r:.40}")
        raw = text
        compact = raw.strip()
        if _SPACE_RE.search(compact):
            compact = _SIGN_SPACES_RE.sub(r"\1", compact)
        if _SPACE_RE.search(compact):
            raise ProfileError(f"space inside dice expression '{raw}': write one number or "
                               "dice without spaces, e.g. 'D6', '2D6' or 'D6+1'", token=raw)
        foreign = first_foreign_digit(compact)
        if foreign is not None:
            raise ProfileError(f"'{foreign[1]}' in dice expression '{raw}' is not a digit 0-9: "
                               "type the number with the digits 0-9", token=raw)
        if any(len(digits) > 6 for digits in _DIGITS_RE.findall(compact)):
            raise ProfileError(f"dice expression '{raw}' holds a number too large: at most "
                               f"{MAX_NUMBER:,} (and {MAX_DICE} dice)", token=raw)
        match = _DICE_RE.match(compact)
        if not compact or match is None or (match.group(2) is None and match.group(3) is not None):
            raise ProfileError(
                f"malformed dice expression '{raw}': write a number (3), a die (D3, D6), "
                "dice (2D6) or dice plus a number (D6+3)", token=raw)
        count_text, sides_text, sign, const_text = match.groups()
        if sides_text is None:
            return cls.fixed(int(const_text))
        sides = int(sides_text)
        if sides not in _SUPPORTED_SIDES:
            raise ProfileError(f"malformed dice expression '{raw}': D{sides} is not a die of the "
                               "game; use D3 or D6", token=raw)
        count = int(count_text) if count_text else 1
        if count == 0:
            raise ProfileError(f"malformed dice expression '{raw}': roll at least one die",
                               token=raw)
        constant = int(const_text) if const_text else 0
        if sign == "-":
            constant = -constant
        try:
            return cls(count, sides, constant)
        except ProfileError as exc:
            raise ProfileError(f"malformed dice expression '{raw}': {exc}", token=raw) from None

    def __str__(self) -> str:
        if self.sides == 0:
            return str(self.constant)
        dice = f"{self.count if self.count > 1 else ''}D{self.sides}"
        if self.constant > 0:
            return f"{dice}+{self.constant}"
        if self.constant < 0:
            return f"{dice}{self.constant}"
        return dice

    @property
    def is_random(self) -> bool:
        return self.sides != 0

    @property
    def minimum(self) -> int:
        return self.count + self.constant

    @property
    def maximum(self) -> int:
        return self.count * self.sides + self.constant

    @property
    def mean(self) -> Fraction:
        face_mean = Fraction(self.sides + 1, 2) if self.sides else Fraction(0)
        return self.count * face_mean + self.constant

    def pmf(self) -> dict[int, Fraction]:
        """Exact probability of each value, as fractions."""
        return dict(_pmf(self.count, self.sides, self.constant))

    def probabilities(self) -> list[float]:
        """Probabilities as a dense list indexed by value, from 0 to :attr:`maximum`."""
        dense = [0.0] * (self.maximum + 1)
        for value, p in _pmf(self.count, self.sides, self.constant):
            dense[value] = float(p)
        return dense

    def sample(self, rng: np.random.Generator) -> int:
        """Roll the expression once with ``rng`` (anything with ``integers(low, high)``,
        such as :func:`numpy.random.default_rng`)."""
        total = self.constant
        for _ in range(self.count):
            face = int(rng.integers(1, 7))
            total += (face + 1) // 2 if self.sides == 3 else face
        return total


def d3_from_d6(face: int) -> int:
    """The D3 value of a D6 face: the face halved, rounded up."""
    return (face + 1) // 2


@lru_cache(maxsize=256)
def _pmf(count: int, sides: int, constant: int) -> tuple[tuple[int, Fraction], ...]:
    dist = {constant: Fraction(1)}
    for _ in range(count):
        step: dict[int, Fraction] = {}
        for value, p in dist.items():
            for face in range(1, sides + 1):
                step[value + face] = step.get(value + face, Fraction(0)) + p / sides
        dist = step
    return tuple(sorted(dist.items()))

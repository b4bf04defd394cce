"""The optimiser's defaults and search options, in a module that loads nothing numeric (the
command tree reads them before numpy is needed)."""

from __future__ import annotations

import warnings
from dataclasses import dataclass

from mathhammer.core.inputs import switch
from mathhammer.errors import OptionError

DEFAULT_OPTIMISE_TRIALS = 20_000
"""Monte Carlo trials per set of orders when the orders cannot be scored exactly (a first
pass uses an eighth of them)."""


@dataclass(frozen=True, init=False)
class SearchOptions:
    """Which choices besides targets and listed values the optimiser may make, and how many
    sets of orders it scores (``mh.optimise(..., options=SearchOptions(...))``).

    Parameters
    ----------
    split
        A model group's models may split between its activation's targets (default
        ``True``; many more sets of orders).
    open_profiles
        The profile of each multi-profile weapon is a choice (default ``True``).
    activation_order
        The order of the activations is a choice too (default ``False``).
    max_orders
        Enumerate every set of orders up to this many (default 200,000 exact, 256 Monte Carlo);
        beyond, greedy + local search.
    budget
        Sets of orders a greedy + local search scores at most (default 20,000 exact, 400 Monte
        Carlo).
    max_plans
        The old name of ``max_orders``: it works for one release, with a
        :class:`DeprecationWarning` (so does reading ``options.max_plans``).

    Examples
    --------
    >>> options = SearchOptions(split=False, max_orders=1_000)
    >>> options.split, options.open_profiles, options.max_orders
    (False, True, 1000)
    """

    split: bool = True
    open_profiles: bool = True
    activation_order: bool = False
    max_orders: int | None = None
    budget: int | None = None

    # The generated __init__ with one more keyword, the old name of max_orders (for one
    # release): the fields, their order, equality, hashing and replace() are the dataclass's.
    def __init__(self, split: bool = True, open_profiles: bool = True,
                 activation_order: bool = False, max_orders: int | None = None,
                 budget: int | None = None, *, max_plans: int | None = None) -> None:
        if max_plans is not None:
            if max_orders is not None:
                raise OptionError("SearchOptions: give max_orders= alone; max_plans= is its "
                                  "old name", token="max_plans")
            warnings.warn("SearchOptions(max_plans=...) is deprecated and will be removed; use "
                          f"max_orders={max_plans!r:.30}", DeprecationWarning, stacklevel=2)
            max_orders = max_plans
        for name, value in (("split", split), ("open_profiles", open_profiles),
                            ("activation_order", activation_order),
                            ("max_orders", max_orders), ("budget", budget)):
            object.__setattr__(self, name, value)
        self.__post_init__()

    @property
    def max_plans(self) -> int | None:
        """The old name of :attr:`max_orders` (one release, with a DeprecationWarning)."""
        warnings.warn("SearchOptions.max_plans is deprecated and will be removed; use "
                      ".max_orders", DeprecationWarning, stacklevel=2)
        return self.max_orders

    def __post_init__(self) -> None:
        for name in ("split", "open_profiles", "activation_order"):
            object.__setattr__(self, name, switch(getattr(self, name), name))
        for name in ("max_orders", "budget"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                      or not 1 <= value <= 10_000_000):
                raise OptionError(f"{name}={value!r:.30} must be a whole number from 1 to "
                                  "10,000,000", token=name)

"""The optimiser's settings: its default trials and SearchOptions (issue 40, item 8)."""

import pytest

from mathhammer.errors import OptionError
from mathhammer.wh40k.optimise.settings import DEFAULT_OPTIMISE_TRIALS, SearchOptions


def test_search_options_default_to_the_optimiser_s_old_defaults():
    options = SearchOptions()
    assert (options.split, options.open_profiles, options.activation_order) == (True, True,
                                                                                False)
    assert options.max_orders is None and options.budget is None
    assert DEFAULT_OPTIMISE_TRIALS == 20_000


@pytest.mark.parametrize("bad, message", [
    ({"split": "no"}, "split must be True or False"),
    ({"activation_order": 1}, "activation_order must be True or False"),
    ({"max_orders": 0}, "max_orders=0 must be a whole number from 1 to 10,000,000"),
    ({"budget": True}, "budget=True must be a whole number"),
    ({"budget": 10**8}, "budget=100000000"),
])
def test_search_options_refuse_what_the_optimiser_cannot_use(bad, message):
    with pytest.raises(OptionError, match=message):
        SearchOptions(**bad)


def test_search_options_are_values():
    assert SearchOptions(split=False) == SearchOptions(split=False)
    assert hash(SearchOptions(max_orders=5)) == hash(SearchOptions(max_orders=5))
    with pytest.raises(AttributeError):
        SearchOptions().split = False  # type: ignore[misc]


def test_max_plans_is_the_old_name_of_max_orders():
    """SearchOptions(max_plans=N) and options.max_plans work for one release, each with a
    DeprecationWarning naming max_orders (issue 40, item 7: 'plan' is the compiled plan)."""
    with pytest.warns(DeprecationWarning, match="use max_orders=5"):
        old = SearchOptions(max_plans=5)
    assert old == SearchOptions(max_orders=5)
    with pytest.warns(DeprecationWarning, match="use .max_orders"):
        assert old.max_plans == 5
    with pytest.raises(OptionError, match="give max_orders= alone"):
        SearchOptions(max_orders=5, max_plans=5)
    # positional order and replace() are the dataclass's
    import dataclasses

    assert SearchOptions(True, True, False, 7).max_orders == 7
    assert dataclasses.replace(old, budget=9) == SearchOptions(max_orders=5, budget=9)

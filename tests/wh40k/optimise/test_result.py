"""What ``optimise`` returns (wh40k/optimise/result.py): orders, margins, text, JSON, frame."""

import json

import pytest

from mathhammer.wh40k.optimise.api import optimise

from .test_api import scenario


@pytest.fixture(scope="module")
def result():
    return optimise(scenario(), "expected_models_destroyed")


def test_orders_and_margin(result):
    assert result.describe(result.best.orders) == "S: 2x Bolter -> B | activation 1 " \
                                                "reroll_hits ones"
    assert result.choices(result.best.orders) == {"activation 1 reroll_hits": "ones"}
    # the runner-up: one model at each target re-rolling 1s,
    # 2 x 7/9 x 2/3 x 1/3 + 2 x 7/9 x 1/2 x 1/3 = 98/162
    lead, se = result.margin()
    assert lead == pytest.approx(56 / 81 - 98 / 162) and se == 0.0


def test_text_json_and_frame(result):
    text = result.to_text()
    assert "proven optimal" in text and "S: 2x Bolter -> B" in text
    data = json.loads(json.dumps(result.to_dict()))
    assert data["optimal"] is True and data["orders_in_space"] == 6
    assert data["ranked"][0]["value"] == pytest.approx(56 / 81)
    frame = result.to_frame()
    assert len(frame) >= 1 and frame.iloc[0]["value"] == pytest.approx(56 / 81)
    assert "S: 2x Bolter -> B" in result.to_markdown()
    assert "Best orders:" in text and "every one of the 6 sets of orders scored" in text
    assert frame.iloc[0]["candidate"] == "#1"


def test_plan_names_answer_for_one_release(result):
    """The optimiser's choice was a 'plan' ("plan" is kept for a compiled plan): the old
    names still answer, each with a DeprecationWarning naming the new one."""
    from mathhammer.wh40k.optimise import space

    with pytest.warns(DeprecationWarning, match="use OptimiseResult.ranked"):
        assert result.plans is result.ranked
    with pytest.warns(DeprecationWarning, match="use OptimiseResult.orders_in_space"):
        assert result.plan_count == result.orders_in_space == 6
    with pytest.warns(DeprecationWarning, match="use Scored.orders"):
        assert result.best.plan is result.best.orders
    with pytest.warns(DeprecationWarning, match="use mathhammer.wh40k.optimise.space.Orders"):
        assert space.Plan is space.Orders

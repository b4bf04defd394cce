"""What ``optimise`` returns (wh40k/optimise/result.py): orders, margins, text, JSON, frame."""

import json

import pytest

from mathhammer.wh40k.optimise.api import optimise

from .test_api import scenario


@pytest.fixture(scope="module")
def result():
    return optimise(scenario(), "expected_models_destroyed")


def test_orders_and_margin(result):
    assert result.describe(result.best.plan) == "S: 2x Bolter -> B | activation 1 " \
                                                "reroll_hits ones"
    assert result.choices(result.best.plan) == {"activation 1 reroll_hits": "ones"}
    # the runner-up: one model at each target re-rolling 1s,
    # 2 x 7/9 x 2/3 x 1/3 + 2 x 7/9 x 1/2 x 1/3 = 98/162
    lead, se = result.margin()
    assert lead == pytest.approx(56 / 81 - 98 / 162) and se == 0.0


def test_text_json_and_frame(result):
    text = result.to_text()
    assert "proven optimal" in text and "S: 2x Bolter -> B" in text
    data = json.loads(json.dumps(result.to_dict()))
    assert data["optimal"] is True and data["plans_in_space"] == 6
    assert data["plans"][0]["value"] == pytest.approx(56 / 81)
    frame = result.to_frame()
    assert len(frame) >= 1 and frame.iloc[0]["value"] == pytest.approx(56 / 81)
    assert "S: 2x Bolter -> B" in result.to_markdown()

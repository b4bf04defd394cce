"""The web page's game questions (web/games.py): checked when asked, answered in a job."""

import pytest

from mathhammer.errors import OptionError, ProfileError
from mathhammer.web.games import MAX_CELLS, dust_job, warmachine_job, wh40k_job


def test_40k_pairing_answer_by_hand():
    # one bolter shot at a one-wound model without a save: 2/3 x 1/2 = 1/3 destroyed
    answer = wh40k_job({"weapons": 'Bolter: 24" A1 BS3+ S4 AP0 D1',
                        "targets": "T4 Sv7+ W1"})()
    assert "0.333" in answer.html and "33.3%" in answer.html   # mean and P(destroyed)
    assert "result.md" in answer.downloads


def test_40k_questions_are_bounded():
    with pytest.raises(OptionError, match="at least one weapon line and one target line"):
        wh40k_job({"weapons": "", "targets": "MEQ"})
    many = "\n".join(f'Gun {i}: 24" A1 BS3+ S4 AP0 D1' for i in range(9))
    with pytest.raises(OptionError, match=f"at most {MAX_CELLS} at once"):
        wh40k_job({"weapons": many, "targets": "\n".join(["MEQ"] * 8)})


def test_warmachine_and_dust_answers():
    # MAT7 against DEF13 hits with 26/36; every hit takes the one-box model
    answer = warmachine_job({"attacks": "Sword: MAT7 POW12",
                             "targets": "Grunt: DEF13 ARM13 BOXES1"})()
    assert "0.722" in answer.html and "72.2%" in answer.html
    # six dice at 1/3: two hits on average
    assert "2.00" in dust_job({"weapons": "Gun: 6/1", "targets": "5x G: INFANTRY2"})().html
    with pytest.raises(OptionError, match="exactly one target line"):
        dust_job({"weapons": "Gun: 6/1", "targets": "A: INFANTRY1\nB: INFANTRY1"})
    with pytest.raises(ProfileError, match="unit-card files"):
        dust_job({"weapons": "seed.toml#Rangers", "targets": "A: INFANTRY1"})

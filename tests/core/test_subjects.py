"""A result's subject through its game's hook (core/subjects.py): core names no game's input
keys; each game says which inputs are its attacker and target lines."""

from pathlib import Path

import numpy as np

import mathhammer as mh
from mathhammer.core.result import Distribution, Result
from mathhammer.core.subjects import subject_lines

CORE = Path(mh.__file__).parent / "core"


def _bare(**fields) -> Result:
    return Result(method="exact", distributions={"d": Distribution(np.array([1.0]))}, **fields)


def test_each_game_says_its_subject():
    forty = mh.wh40k.exact('Gun: 24" A1 BS4+ S4 AP0 D1', "5x T4 Sv3+ W1")
    assert forty.game == "wh40k" and forty.subject == "Gun vs 5x T4 Sv3+ W1"
    machine = mh.warmachine.exact(["Hammer: MAT7 POW12"], "Trencher: DEF13 ARM13 BOXES1")
    assert machine.game == "warmachine" and machine.subject == "1x Hammer vs 1x Trencher"
    dust = mh.dust.exact("Gun: 3/1", "2x G: INFANTRY2")
    assert dust.game == "dust" and dust.subject == "Gun vs 2x G"


def test_a_warmachine_policys_one_attack_is_its_subject():
    from mathhammer.warmachine.policies import attacks_to_kill

    result = attacks_to_kill("Hammer: MAT7 POW12", "Trencher: DEF13 ARM13 BOXES1")
    assert result.subject == "1x Hammer vs 1x Trencher"
    assert result.profiles == "1x Hammer: MAT7 POW12 vs 1x Trencher: DEF13 ARM13 BOXES1"


def test_a_result_no_game_made_has_only_its_own_subject():
    assert _bare(inputs={"weapons": ["Gun: 3/1"], "target": "MEQ"}).subject == ""
    assert _bare(inputs={"subject": "Boyz"}).subject == "Boyz"
    assert subject_lines("no such game", {"weapons": ["Gun"]}) == ([], [])


def test_results_read_no_games_input_keys():
    import re

    reading = re.compile(r"""inputs(\.get\(|\[)["'](weapons|attacks?|targets?)["']""")
    for path in CORE.glob("*.py"):
        assert not reading.search(path.read_text()), path.name


def test_a_game_not_imported_yet_is_imported_for_its_reader_and_an_unknown_one_names_nothing():
    import subprocess
    import sys

    code = ("import sys\nfrom mathhammer.core.subjects import subject_lines\n"
            "print(subject_lines('wh40k', {'weapons': ['Gun: A1'], 'target': 'MEQ'}), "
            "'mathhammer.wh40k' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "(['Gun: A1'], ['MEQ']) True"
    from mathhammer.core.subjects import subject_lines

    assert subject_lines("no_such_game", {"weapons": ["Gun: A1"]}) == ([], [])

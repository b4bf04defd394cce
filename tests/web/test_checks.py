"""Lines checked as they are typed on the web page (web/checks.py)."""

from mathhammer.web.checks import check_line


def test_good_lines_read_back():
    out = check_line("40k", "weapon", 'Bolter: 24" A2 BS3+ S4 AP0 D1 + Knife: Melee A1 WS3+ S4 '
                                      "AP0 D1")
    assert out["ok"] and " + " in out["read"] and out["read"].startswith("Bolter")
    assert check_line("warmachine", "attack", "Sword: MAT7 POW12")["ok"]
    assert check_line("dust", "target", "5x G: INFANTRY2")["ok"]


def test_bad_lines_get_the_parsers_one_line_message():
    out = check_line("40k", "weapon", "Bolter: A1 BS9+")
    assert not out["ok"] and "\n" not in out["message"] and out["message"]
    assert check_line("chess", "weapon", "x") == {
        "ok": False, "message": "no line kind 'weapon' for 'chess'"}


def test_dust_file_references_never_reach_the_file_system():
    out = check_line("dust", "weapon", "seed.toml#Assault Rangers")
    assert not out["ok"] and "does not read unit-card files" in out["message"]


def test_warmachine_reference_target_names_are_good_lines():
    out = check_line("warmachine", "target", "3x light jack [KNOCKED DOWN]")
    assert out["ok"] and out["read"].startswith("3x ") and "KNOCKED DOWN" in out["read"]
    wrong = check_line("warmachine", "target", "HEAVY_JAK")
    assert not wrong["ok"] and "HEAVY_JACK" in wrong["message"]

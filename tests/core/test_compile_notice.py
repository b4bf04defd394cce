"""The one-line notice of a first compile (core/compile_notice.py)."""

from mathhammer.core.compile_notice import ENGINES, notice


def test_each_engine_module_has_its_line():
    assert set(ENGINES) == {"mathhammer.wh40k.monte_carlo.kernels",
                            "mathhammer.wh40k.scenario.kernels",
                            "mathhammer.warmachine.kernels", "mathhammer.dust.kernels"}
    assert notice("mathhammer.warmachine.kernels") == (
        "mathhammer: compiling the Warmachine kernels once (about 8 s; later runs start at "
        "once)")


def test_helper_modules_are_not_announced():
    assert notice("mathhammer.core.rng") is None
    assert notice("mathhammer.wh40k.monte_carlo.dice_steps") is None


def test_a_first_compile_ticks_while_it_runs_and_says_how_long_it_took(monkeypatch, capsys):
    import time

    from mathhammer.core import compile_notice, progress

    monkeypatch.setattr(compile_notice, "stderr_is_terminal", lambda: True)
    monkeypatch.setattr(compile_notice, "_announced", set())
    monkeypatch.setattr(compile_notice, "TICK", 0.05)
    compile_notice._on_compile_start("mathhammer.dust.kernels")
    assert progress._compiling.is_set() and compile_notice.compiling() == "the Dust kernels"
    for _ in range(3):   # helpers compiled inside the entry kernel
        compile_notice._on_compile_start("mathhammer.core.rng")
        compile_notice._on_compile_end()
    time.sleep(0.3)
    compile_notice._on_compile_end()
    err = capsys.readouterr().err
    assert not progress._compiling.is_set() and compile_notice.compiling() is None
    ticks = err.split("\r")
    assert "s, 4 functions compiled" in err and len(ticks) >= 3   # it moved
    assert ticks[-1].startswith(notice("mathhammer.dust.kernels") + " done in ")
    assert err.endswith("\n") and capsys.readouterr().out == ""


def test_in_a_notebook_the_line_is_rewritten_without_terminal_escapes(monkeypatch, capsys):
    # a notebook's first mh.simulate waits as long as a terminal's first command: Jupyter
    # honours the bare \r (one line rewritten) and would print the erase escape as junk
    import time

    from mathhammer.core import compile_notice

    monkeypatch.setattr(compile_notice, "stderr_is_terminal", lambda: False)
    monkeypatch.setattr(compile_notice, "in_notebook", lambda: True)
    monkeypatch.setattr(compile_notice, "_announced", set())
    monkeypatch.setattr(compile_notice, "TICK", 0.05)
    compile_notice._on_compile_start("mathhammer.wh40k.monte_carlo.kernels")
    time.sleep(0.2)
    compile_notice._on_compile_end()
    err = capsys.readouterr().err
    assert "\x1b" not in err and err.count("\r") >= 2
    line = notice("mathhammer.wh40k.monte_carlo.kernels")
    assert err.split("\r")[-1].startswith(line + " done in ") and err.endswith(" s\n")


def test_a_terminal_line_erases_what_a_longer_tick_left(monkeypatch, capsys):
    from mathhammer.core import compile_notice

    monkeypatch.setattr(compile_notice, "stderr_is_terminal", lambda: True)
    monkeypatch.setattr(compile_notice, "in_notebook", lambda: True)   # a terminal wins
    monkeypatch.setattr(compile_notice, "_announced", set())
    compile_notice._on_compile_start("mathhammer.dust.kernels")
    compile_notice._on_compile_end()
    assert capsys.readouterr().err.endswith(compile_notice.ERASE_TO_END + "\n")


def test_nothing_is_printed_off_a_terminal(monkeypatch, capsys):
    from mathhammer.core import compile_notice, progress

    monkeypatch.setattr(compile_notice, "stderr_is_terminal", lambda: False)
    monkeypatch.setattr(compile_notice, "in_notebook", lambda: False)
    monkeypatch.setattr(compile_notice, "_announced", set())
    compile_notice._on_compile_start("mathhammer.dust.kernels")
    assert progress._compiling.is_set()   # bars still hold while kernels compile
    compile_notice._on_compile_end()
    assert capsys.readouterr().err == ""


def test_a_bar_holds_while_kernels_compile_and_restarts_its_clock(monkeypatch):
    from mathhammer.core import progress

    restarted, seen = [], []
    monkeypatch.setattr(progress, "POLL", 0.01)
    monkeypatch.setattr(progress.Bar, "restart_clock", lambda self: restarted.append(1))
    monkeypatch.setattr(progress.Bar, "update_to", lambda self, n: seen.append(n))

    def work():
        import time

        progress.set_compiling(True)
        time.sleep(0.1)
        progress.set_compiling(False)
        time.sleep(0.1)
        return "answer"

    class FakeTqdm:
        def close(self):
            pass

    monkeypatch.setattr(progress, "_make", lambda total, desc, unit: FakeTqdm())
    assert progress.watch(work, lambda: 0, 10, "trials", progress=True) == "answer"
    assert restarted == [1] and seen and seen[-1] == 10

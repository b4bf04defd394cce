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

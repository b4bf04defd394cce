"""``core.lazy``: packages load their public names on first use (PEP 562 ``__getattr__``
and ``__dir__``, no class swapping), and importing an engine module leaves the public function
of the same game in place."""

import subprocess
import sys

import pytest


@pytest.mark.parametrize("package,function,submodule", [
    ("mathhammer.dust", "exact", "mathhammer.dust.exact_engine"),
    ("mathhammer.warmachine", "exact", "mathhammer.warmachine.exact_engine"),
    ("mathhammer", "compare", "mathhammer.wh40k.comparisons"),
    ("mathhammer.wh40k", "compare", "mathhammer.wh40k.comparisons"),
    ("mathhammer.wh40k", "exact", "mathhammer.wh40k.exact_engine"),
])
def test_function_survives_its_submodule_being_imported(package, function, submodule):
    code = (f"import importlib, {package} as p\n"
            f"importlib.import_module('{submodule}')\n"
            f"f = getattr(p, '{function}')\n"
            "print(not isinstance(f, type(p)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "True"


def test_import_mathhammer_loads_no_numeric_stack():
    code = ("import sys, mathhammer, mathhammer.dust, mathhammer.warmachine, mathhammer.wh40k\n"
            "print([m for m in ('numpy', 'numba', 'pandas') if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"


def test_unknown_names_raise_attribute_error():
    import mathhammer

    with pytest.raises(AttributeError, match="no attribute 'nonsense'"):
        mathhammer.nonsense  # noqa: B018
    assert "simulate" in dir(mathhammer)


def test_the_command_tree_builds_without_the_numeric_stack():
    # `mathhammer --help` and every argument error answer before numpy, numba or pandas load
    code = ("import sys, mathhammer.cli as cli\n"
            "cli.build_parser()\n"
            "print([m for m in ('numpy', 'numba', 'pandas') if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("argv", [["--help"], ["simulate", "--help"], ["run", "--help"],
                                  ["roster", "--help"], ["warmup", "--help"],
                                  ["dust", "--help"], ["warmachine", "--help"]])
def test_help_imports_no_kernel_module(argv):
    # `mathhammer --help` answers in a fraction of a second: no kernel module (each would
    # load numba and its cached machine code), no progress or plotting library
    code = ("import sys, mathhammer.cli as cli\n"
            f"try:\n    cli.main({argv!r})\nexcept SystemExit:\n    pass\n"
            "heavy = [m for m in sys.modules if m.endswith('.kernels') or m.split('.')[0] in "
            "('numba', 'tqdm', 'matplotlib', 'numpy', 'pandas')]\n"
            "print(heavy, file=sys.stderr)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stderr.strip().splitlines()[-1] == "[]"


@pytest.mark.parametrize("package", ["mathhammer", "mathhammer.dust", "mathhammer.warmachine",
                                     "mathhammer.core", "mathhammer.wh40k",
                                     "mathhammer.wh40k.scenario", "mathhammer.wh40k.roster",
                                     "mathhammer.wh40k.exact_engine",
                                     "mathhammer.wh40k.monte_carlo"])
def test_dir_shows_only_public_names(package):
    # the names an __init__ only uses (annotations, lazy_names, _LAZY, helpers it calls)
    # are not the package's API; dunders and loaded public submodules are
    code = (f"import importlib, types\n"
            f"p = importlib.import_module('{package}')\n"
            "public = set(getattr(p, '__all__', ()))\n"
            "extra = [n for n in dir(p) if n not in public and not n.startswith('__')\n"
            "         and not isinstance(getattr(p, n), types.ModuleType)]\n"
            "print(extra, sorted(public - set(dir(p))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[] []"


@pytest.mark.parametrize("package,function,submodule", [
    ("mathhammer.dust", "exact", "mathhammer.dust.exact_engine"),
    ("mathhammer", "exact", "mathhammer.wh40k.exact_engine.chains"),
])
def test_a_resolved_name_is_kept_and_stays_the_function(package, function, submodule):
    # resolved once, then read from the package itself (no __getattr__), still the function
    # after the engine module of the same name is imported
    code = (f"import importlib, {package} as p\n"
            f"first = getattr(p, '{function}')\n"
            f"kept = vars(p).get('{function}') is first\n"
            f"importlib.import_module('{submodule}')\n"
            f"print(kept, getattr(p, '{function}') is first)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "True True"


@pytest.mark.parametrize("package", ["mathhammer", "mathhammer.dust", "mathhammer.warmachine",
                                     "mathhammer.cli", "mathhammer.wh40k.exact_engine",
                                     "mathhammer.wh40k.monte_carlo"])
def test_lazy_packages_are_plain_modules(package):
    # PEP 562 names on a plain module: no package swaps its class to guard its names
    import importlib
    import types

    module = importlib.import_module(package)
    assert type(module) is types.ModuleType
    assert callable(vars(module)["__getattr__"]) and callable(vars(module)["__dir__"])


def test_names_moved_off_the_top_level_answer_with_a_warning_naming_their_home():
    # issue 40, item 7: 40k's names under generic ones (mh.Rules) live in mh.wh40k now; for
    # one release the old names still answer, each time with the new home in the warning
    import importlib

    import mathhammer as mh

    assert len(mh.__all__) <= 30
    for name, spelling in mh._MOVED.items():
        with pytest.warns(DeprecationWarning, match=rf"use {spelling}$"):
            value = getattr(mh, name)
        home, _, new = spelling.rpartition(".")
        assert value is getattr(importlib.import_module(home), new)
        assert name not in mh.__all__ and name not in dir(mh)
        assert name not in vars(mh)          # not kept: every use warns


def test_the_games_need_no_import_of_their_own():
    code = ("import mathhammer as mh\n"
            "print(mh.wh40k.simulate is mh.simulate, mh.dust.__name__, "
            "mh.warmachine.__name__, mh.charts.__name__)")
    out = subprocess.run([sys.executable, "-W", "error", "-c", code], capture_output=True,
                         text=True, check=True)
    assert out.stdout.split() == ["True", "mathhammer.dust", "mathhammer.warmachine",
                                  "mathhammer.charts"]

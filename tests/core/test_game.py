"""One contract for every game (issue 23): the three games side by side.

Each game's ``simulate``, ``exact`` and ``compare`` have the same signature shape (the
attackers and targets first, keyword-only ``trials`` and ``seed``), return the same types
(:class:`Result`, a DataFrame with the same columns), and each game's :class:`Game` meets
core's contract (its Monte Carlo runner returns :class:`Tallies`). Core's pieces are checked
against figures derived by hand.
"""

from __future__ import annotations

import importlib
import inspect
import json
import math

import numpy as np
import pandas as pd
import pytest

from mathhammer import dust, warmachine
from mathhammer.core import game as contract
from mathhammer.core.frames import COLUMNS, tidy_frame, to_json_dict
from mathhammer.report.frame_tables import pivot
from mathhammer.core.game import Cell, Game, Tallies
from mathhammer.core.result import Result
from mathhammer.errors import OptionError, UnsupportedError

# modules by name: a game package's lazy attributes (dust.compare, dust.exact) are functions
dust_api = importlib.import_module("mathhammer.dust.api")
dust_compare = importlib.import_module("mathhammer.dust.comparisons")
warmachine_api = importlib.import_module("mathhammer.warmachine.api")
warmachine_compare = importlib.import_module("mathhammer.warmachine.comparisons")
wh40k_api = importlib.import_module("mathhammer.wh40k.api")
wh40k_compare = importlib.import_module("mathhammer.wh40k.comparisons")

#: One question per game, each with a hand-derived expected damage.
#: 40k: 2 attacks, hit on 3+ (2/3), wound S4 vs T4 on 4+ (1/2), no save: 2 * 1/3.
#: Warmachine: MAT6 vs DEF13 hits on 7+ on 2d6 (21/36), POW12 - ARM14 ... 2d6 + 12 - 14
#: marks max(0, roll - 2) boxes: E = 5.0, so 21/36 * 5.
#: Dust: 6 dice hitting on 1/3 each: 2 hits, every hit a point against INFANTRY2 in the open.
GAMES = {
    "wh40k": dict(module=wh40k_api, compare=wh40k_compare.compare, game=wh40k_api.GAME,
                  attackers="Bolter: A2 BS3+ S4 AP0 D1", target="T4 Sv- W3",
                  damage=2 / 3, exact_kwargs=dict(method="exact")),
    "warmachine": dict(module=warmachine_api, compare=warmachine_compare.compare,
                       game=warmachine_api.GAME, attackers="Fist: MAT6 POW12",
                       target="Jack: DEF13 ARM14 BOXES30", damage=21 / 36 * 5,
                       exact_kwargs=dict(method="exact")),
    "dust": dict(module=dust_api, compare=dust_compare.compare, game=dust_api.GAME,
                 attackers="Gun: 6/1", target="5x G: INFANTRY2", damage=2.0,
                 exact_kwargs=dict(method="exact")),
}
TRIALS = 20_000


def _keyword_only(function, name: str) -> bool:
    parameter = inspect.signature(function).parameters.get(name)
    return parameter is not None and parameter.kind is inspect.Parameter.KEYWORD_ONLY


@pytest.mark.parametrize("name", GAMES)
def test_same_signature_shape(name):
    spec = GAMES[name]
    simulate, exact = spec["module"].simulate, spec["module"].exact
    for function in (simulate, exact, spec["compare"]):
        first_two = list(inspect.signature(function).parameters.values())[:2]
        assert all(p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD for p in first_two), \
            function
    for function in (simulate, spec["compare"]):
        for keyword in ("trials", "seed", "progress"):
            assert _keyword_only(function, keyword), (name, function.__name__, keyword)
        seed = inspect.signature(function).parameters["seed"]
        assert seed.annotation in ("SeedLike", contract.SeedLike,
                                   "int | np.random.SeedSequence"), (name, seed.annotation)
    assert "trials" not in inspect.signature(exact).parameters
    assert "seed" not in inspect.signature(exact).parameters


#: What every game's public functions share: the subjects' names, in order, then these
#: keyword-only options with these defaults (a game may add options of its own).
SHARED_SHAPE = {
    "simulate": (["weapons", "target"], {"trials": 1_000_000, "seed": 1, "progress": None,
                                         "target_stderr": None}),
    "exact": (["weapons", "target"], {}),
    "compare": (["attackers", "targets"], {"method": "auto", "trials": 200_000, "seed": 1,
                                           "progress": None, "keep_results": False}),
    "sweep": (["attackers", "targets", "parameter", "values"],
              {"method": "auto", "trials": 200_000, "seed": 1, "progress": None,
               "keep_results": False}),
}
SWEEPS = {"wh40k": wh40k_compare.sweep, "warmachine": warmachine_compare.sweep,
          "dust": dust_compare.sweep}


@pytest.mark.parametrize("function", SHARED_SHAPE)
@pytest.mark.parametrize("name", GAMES)
def test_the_three_games_take_the_same_keywords_with_the_same_defaults(name, function):
    public = getattr(importlib.import_module(f"mathhammer.{name}"), function)
    assert public is getattr(GAMES[name]["module"], function, None) or \
        public is {"compare": GAMES[name]["compare"], "sweep": SWEEPS[name]}.get(function)
    subjects, shared = SHARED_SHAPE[function]
    parameters = inspect.signature(public).parameters
    kinds = inspect.Parameter
    positional = [p.name for p in parameters.values()
                  if p.kind in (kinds.POSITIONAL_ONLY, kinds.POSITIONAL_OR_KEYWORD)]
    assert positional == subjects, (name, function, positional)
    for keyword, default in shared.items():
        assert _keyword_only(public, keyword), (name, function, keyword)
        assert parameters[keyword].default == default, (name, function, keyword)
    assert not {"exact", "engine", "attacks", "results_out"} & set(parameters), \
        (name, function)


@pytest.mark.parametrize("name", GAMES)
def test_auto_is_exact_where_the_exact_engine_follows_every_cell(name):
    spec = GAMES[name]
    frame = spec["compare"]([spec["attackers"]], [spec["target"]])
    assert set(frame["method"]) == {"exact"} and frame.attrs["method"] == "exact"
    assert frame.attrs["trials"] is None and frame.attrs["seed"] is None


def test_auto_runs_monte_carlo_for_the_cells_the_exact_engine_refuses():
    # [SPRAY 12] over twelve 1-box models is refused by Warmachine's exact engine up front
    attackers = ["Fist: MAT6 POW12", "Flamer: RAT5 POW14 [SPRAY 12]"]
    targets = ["12x Trooper: DEF12 ARM13 BOXES1"]
    with pytest.raises(UnsupportedError, match="Flamer against 12x Trooper"):
        warmachine_compare.compare(attackers, targets, method="exact")
    auto = warmachine_compare.compare(attackers, targets, trials=2_000, seed=5)
    assert auto.groupby("attacker")["method"].unique().map(list).to_dict() == {
        "Fist": ["exact"], "Flamer": ["monte-carlo"]}
    assert auto.attrs["method"] == "mixed" and auto.attrs["trials"] == 2_000
    assert auto.attrs["seed"] == 5
    # each row as its own engine gives it: the exact cell, and the Monte Carlo cell on the
    # seed it has in a Monte Carlo comparison of the same grid (bit for bit)
    exact_fist = warmachine_compare.compare(attackers[:1], targets, method="exact")
    monte_carlo = warmachine_compare.compare(attackers, targets, method="monte-carlo",
                                             trials=2_000, seed=5)
    columns = ["value", "stderr", "method"]
    assert auto[auto.attacker == "Fist"][columns].reset_index(drop=True).equals(
        exact_fist[columns])
    assert auto[auto.attacker == "Flamer"][columns].equals(
        monte_carlo[monte_carlo.attacker == "Flamer"][columns])


@pytest.mark.parametrize("name", GAMES)
def test_the_old_exact_keyword_still_works_for_one_release(name):
    spec = GAMES[name]
    with pytest.warns(DeprecationWarning, match="use method='monte-carlo'"):
        old = spec["compare"]([spec["attackers"]], [spec["target"]], exact=False,
                              trials=1_000, seed=2)
    new = spec["compare"]([spec["attackers"]], [spec["target"]], method="monte-carlo",
                          trials=1_000, seed=2)
    assert old.equals(new)


def test_warmachine_takes_the_subject_names_of_the_other_games():
    with pytest.warns(DeprecationWarning, match=r"exact\(attacks=...\)"):
        old = warmachine_api.exact(attacks=GAMES["warmachine"]["attackers"],
                                   target=GAMES["warmachine"]["target"])
    with pytest.warns(DeprecationWarning, match="rules by position"):
        positional = warmachine_api.exact(GAMES["warmachine"]["attackers"],
                                          GAMES["warmachine"]["target"], None)
    assert old.mean("damage") == positional.mean("damage") == \
        pytest.approx(21 / 36 * 5, abs=1e-12)


@pytest.mark.parametrize("name", GAMES)
def test_same_return_types_and_frame_columns(name):
    spec = GAMES[name]
    exact = spec["module"].exact(spec["attackers"], spec["target"])
    simulated = spec["module"].simulate(spec["attackers"], spec["target"], trials=TRIALS,
                                        seed=3)
    assert isinstance(exact, Result) and isinstance(simulated, Result)
    assert exact.mean("damage") == pytest.approx(spec["damage"], abs=1e-12)
    assert abs(simulated.mean("damage") - spec["damage"]) < 5 * simulated.stderr("damage")
    assert simulated.trials == TRIALS and simulated.seed == 3
    json.dumps(simulated.to_dict())  # plain JSON whatever the game
    for frame, method in ((spec["compare"]([spec["attackers"]], [spec["target"]],
                                           **spec["exact_kwargs"]), "exact"),
                          (spec["compare"]([spec["attackers"]], [spec["target"]],
                                           method="monte-carlo", trials=TRIALS, seed=3),
                           "monte-carlo")):
        assert isinstance(frame, pd.DataFrame)
        assert list(frame.columns[:2]) == COLUMNS[:2]
        assert list(frame.columns[-4:]) == COLUMNS[2:]
        middle = list(frame.columns[2:-4])
        assert middle == list(spec["game"].situation_columns), (name, middle)
        assert set(frame["method"]) == {method} and frame.attrs["method"] == method
        damage = frame[frame["metric"] == "expected_damage"].iloc[0]
        if method == "exact":
            assert damage["value"] == pytest.approx(spec["damage"], abs=1e-12)
            assert math.isnan(damage["stderr"])
        else:
            assert abs(damage["value"] - spec["damage"]) < 5 * damage["stderr"]
        assert {"expected_damage", "expected_models_destroyed",
                "p_unit_destroyed"} <= set(frame["metric"])


@pytest.mark.parametrize("name", GAMES)
def test_every_game_meets_the_contract(name):
    spec = GAMES[name]
    game = spec["game"]
    assert isinstance(game, Game) and game.name == name
    plan = game.compile(spec["attackers"], spec["target"])
    tallies = game.run_monte_carlo(plan, 1_000, 7)
    assert isinstance(tallies, Tallies) and tallies.trials == 1_000
    # one count per trial in every histogram (a subject's row, for Dust's fire orders)
    assert all(int(np.asarray(h).reshape(-1, h.shape[-1])[0].sum()) == 1_000
               for h in tallies.histograms.values())
    # core's simulate and the game's own give the same bits for the same seed
    ours = contract.simulate(game, spec["attackers"], spec["target"], trials=2_000, seed=11)
    theirs = spec["module"].simulate(spec["attackers"], spec["target"], trials=2_000, seed=11)
    for outcome in ("damage", "models_destroyed"):
        assert np.array_equal(ours.distributions[outcome].probabilities,
                              theirs.distributions[outcome].probabilities), outcome
    assert ours.probability("unit_destroyed") == theirs.probability("unit_destroyed")
    assert contract.exact(game, spec["attackers"], spec["target"]).mean("damage") == \
        pytest.approx(spec["damage"], abs=1e-12)


def test_a_seed_sequence_is_recorded_as_plain_values():
    child = np.random.SeedSequence(42).spawn(3)[2]
    result = warmachine.simulate("Fist: MAT6 POW12", "Jack: DEF13 ARM14 BOXES30",
                                 trials=1_000, seed=child)
    assert result.seed == 42 and result.inputs["seed_spawn_key"] == [2]
    json.dumps(result.to_dict())
    again = warmachine.simulate("Fist: MAT6 POW12", "Jack: DEF13 ARM14 BOXES30",
                                trials=1_000, seed=np.random.SeedSequence(42).spawn(3)[2])
    assert np.array_equal(result.distributions["damage"].probabilities,
                          again.distributions["damage"].probabilities)


def test_a_grid_takes_a_seed_sequence_in_every_game():
    root = np.random.SeedSequence(8).spawn(2)[1]
    for name, spec in GAMES.items():
        frame = spec["compare"]([spec["attackers"]], [spec["target"]], method="monte-carlo",
                                trials=2_000, seed=root)
        assert frame.attrs["seed"] == 8, name
        json.dumps(to_json_dict(frame))


def test_grid_cells_are_seeded_by_spawned_children():
    # a cell of a Monte Carlo grid gives the numbers of simulate(seed=its child)
    frame = warmachine_compare.compare(["Fist: MAT6 POW12", "Axe: MAT7 POW14"],
                                       ["Jack: DEF13 ARM14 BOXES30"], method="monte-carlo",
                                       trials=4_000, seed=9)
    child = np.random.SeedSequence(9).spawn(2)[1]
    alone = warmachine.simulate("Axe: MAT7 POW14", "Jack: DEF13 ARM14 BOXES30",
                                trials=4_000, seed=child)
    row = frame[(frame.attacker == "Axe") & (frame.metric == "expected_damage")].iloc[0]
    assert row["value"] == alone.mean("damage") and row["stderr"] == alone.stderr("damage")


def test_variants_share_their_dice():
    # common random numbers: the same variant twice gives the same figures
    same = {"a": dict(weapons="Gun: 6/1", target="5x G: INFANTRY2"),
            "b": dict(weapons="Gun: 6/1", target="5x G: INFANTRY2")}
    frame = dust.compare(same, method="monte-carlo", trials=3_000, seed=4)
    values = frame.pivot(index="metric", columns="attacker", values="value")
    assert (values["a"] == values["b"]).all()
    assert frame["sustained"].tolist() == [False] * len(frame)


def test_cell_seeds_and_labels():
    children = contract.cell_seeds(5, 3)
    assert [c.spawn_key for c in children] == [(0,), (1,), (2,)]
    assert contract.cell_seeds(5, 2, common=True) == [5, 5]
    assert contract.labelled({"x": 1}, (str,), "give one", str) == [("x", 1)]
    with pytest.raises(OptionError, match="give one"):
        contract.labelled([], (str,), "give one", str)


def test_tallies_by_hand():
    tallies = Tallies(4, {"hits": np.array([[1, 3, 0], [2, 1, 1]])}, {"kill": 3})
    assert tallies.probabilities() == {"kill": 0.75}
    assert tallies.subject(1).distributions()["hits"].mean == pytest.approx(3 / 4)
    assert tallies.subject(0).distributions()["hits"].mean == pytest.approx(3 / 4)
    assert tallies.subject(0).histograms["hits"].tolist() == [1, 3, 0]


def test_a_refused_cell_names_itself():
    class Refusing(Game):
        name = "refusing"

        def compile(self, attackers, targets, **options):
            raise UnsupportedError("too big")

    with pytest.raises(UnsupportedError, match="A against B: too big"):
        contract.compare(Refusing(), [Cell("A", "B", "a", "b")], method="exact", trials=1, seed=1)


def test_frames_of_every_game_read_alike():
    rows = [{"attacker": "A", "target": t, "sustained": False, "metric": "p_unit_destroyed",
             "value": v, "stderr": math.nan} for t, v in (("X", 0.25), ("Y", 0.5))]
    frame = tidy_frame(rows, ["sustained"], method="exact", labels={"p_unit_destroyed": "P"})
    assert list(frame.columns) == ["attacker", "target", "sustained", "metric", "value",
                                   "stderr", "method"]
    assert frame.attrs["labels"] == {"p_unit_destroyed": "P"}
    wide = pivot(frame, "p_unit_destroyed")
    assert list(wide.columns) == ["X", "Y"] and wide.iloc[0].tolist() == ["25.00%", "50.00%"]
    out = to_json_dict(frame)
    assert out["method"] == "exact" and out["rows"][0]["stderr"] is None
    assert out["rows"][0]["method"] == "exact"


def test_dust_exchange_meets_the_contract():
    from mathhammer.dust import load_unit

    exchange_module = importlib.import_module("mathhammer.dust.exchanges")
    game = exchange_module.EXCHANGE
    pounder, rangers = load_unit("seed.toml", "Pounder"), load_unit("seed.toml", "Assault Rangers")
    plan = game.compile(pounder, rangers, rounds=1)
    tallies = game.run_monte_carlo(plan, 2_000, 3)
    assert isinstance(tallies, Tallies) and set(tallies.events) == {"a_destroyed",
                                                                    "b_destroyed"}
    # one round: only the Pounder's 10 dice hurt the rangers (1/3 each); 5 hits destroy them
    q = 1 / 3
    p_destroyed = sum(math.comb(10, k) * q ** k * (1 - q) ** (10 - k) for k in range(5, 11))
    exact = contract.exact(game, pounder, rangers, rounds=1)
    assert exact.probability("b_destroyed") == pytest.approx(p_destroyed, abs=1e-12)
    assert exact.probability("b_destroyed") == dust.exchange(pounder, rangers).probability(
        "b_destroyed")


def test_sweeps_share_the_frame():
    # Dust: 6 dice at 1/3 give 2 hits; sustained rerolls the misses: 6 * (1/3 + 2/3 * 1/3)
    frame = dust_compare.sweep("Gun: 6/1", "5x G: INFANTRY2", "sustained", [False, True])
    assert list(frame.columns) == ["attacker", "target", "sustained", "distance", "metric",
                                   "value", "stderr", "method"]
    hits = frame[frame.metric == "expected_hits"]
    assert hits["value"].tolist() == pytest.approx([2.0, 10 / 3], abs=1e-12)
    assert hits["sustained"].tolist() == [False, True]
    # Warmachine: MAT6 hits DEF12 on 6+ of 2d6 (26/36), any damage kills the 1-box grunt,
    # whose Tough roll saves on 5+ (1/3) when Tough rolls are allowed
    frame = warmachine_compare.sweep("Fist: MAT6 POW12", ["Grunt: DEF12 ARM12 BOXES1 [TOUGH]"],
                                     "tough_allowed", [True, False], method="monte-carlo",
                                     trials=TRIALS, seed=2)
    assert list(frame.columns) == ["attacker", "target", "tough_allowed", "metric", "value",
                                   "stderr", "method"]
    kills = frame[frame.metric == "p_unit_destroyed"]
    for (_, row), expected in zip(kills.iterrows(), (26 / 36 * 2 / 3, 26 / 36)):
        assert abs(row["value"] - expected) < 5 * row["stderr"]
    for bad in (lambda: warmachine_compare.sweep("Fist: MAT6 POW12", "G: DEF12 ARM12",
                                                 "nonsense", [1]),
                lambda: dust_compare.sweep("Gun: 6/1", "G: INFANTRY2", "sustained", "yes"),
                lambda: dust_compare.sweep("Gun: 6/1", "G: INFANTRY2", "nonsense", [1])):
        with pytest.raises(OptionError):
            bad()


def test_sweep_values_are_a_non_empty_list():
    assert contract.sweep_values("save", (2, 7)) == contract.sweep_values(
        "save", range(2, 8, 5)) == [2, 7]
    # a set or a generator: the order of the settings (and of the cells' seeds) is not the
    # caller's, or is gone once read
    for values in ({2, 7}, (s for s in (2, 7)), {2: "a", 7: "b"}.keys()):
        with pytest.raises(OptionError, match="order matters"):
            contract.sweep_values("save", values)
    for values, words in [("3+", "takes a list of values, not str"),
                          ({"a": 1}, "takes a list of values, not dict"),
                          (5, "takes a list of values, not int"),
                          ([], "needs at least one value")]:
        with pytest.raises(OptionError, match=words):
            contract.sweep_values("save", values)


class _LightAnswer:
    """An answer as a batched exact engine gives it: figures, and the whole Result on
    demand."""

    def __init__(self, whole: Result) -> None:
        self.whole, self.built = whole, 0
        self.outcomes, self.probabilities = whole.outcomes, whole.probabilities

    def mean(self, outcome):
        return self.whole.mean(outcome)

    def stderr(self, outcome):
        return None

    def probability(self, event):
        return self.whole.probability(event)

    def probability_stderr(self, event):
        return None

    def result(self):
        self.built += 1
        return self.whole


def test_a_games_batched_exact_engine_answers_a_compare():
    # Warmachine by hand: MAT6 vs DEF13 hits 21/36, then 2d6 + 12 - 14 boxes: E = 5
    game = warmachine_api.GAME
    cells = [Cell("Fist", "Jack", "Fist: MAT6 POW12", "Jack: DEF13 ARM14 BOXES30",
                  columns={"setting": s}) for s in (1, 2)]
    calls, answers = [], []

    def solve(batch, done):
        calls.append(len(batch))
        got = [_LightAnswer(contract.exact(game, cell.attackers, cell.targets))
               for cell in batch]
        answers.extend(got)
        for _ in got:
            done()
        return got

    frame = contract.compare(game, cells, method="exact", trials=1, seed=1, solve_exact=solve)
    assert calls == [2] and list(frame["setting"].unique()) == [1, 2]
    damage = frame.query("metric == 'expected_damage'")["value"]
    assert np.allclose(damage, 21 / 36 * 5, atol=1e-12) and frame["stderr"].isna().all()
    assert all(answer.built == 0 for answer in answers)   # no Result built unless asked
    out = contract.compare(game, cells, method="exact", trials=1, seed=1, solve_exact=solve,
                           keep_results=True).results
    assert set(out) == {("Fist", "Jack", 1), ("Fist", "Jack", 2)}   # keyed with the setting
    assert all(isinstance(r, Result) for r in out.values())
    # Monte Carlo never asks the exact engine
    contract.compare(game, cells, method="monte-carlo", trials=500, seed=1, solve_exact=solve)
    assert calls == [2, 2]


def test_a_compare_runs_on_a_dask_client_with_the_same_bits():
    distributed = pytest.importorskip("distributed")
    game = dust_api.GAME
    cells = [Cell("Gun", "G", "Gun: 6/1", "5x G: INFANTRY2"),
             Cell("Gun", "H", "Gun: 6/1", "3x H: INFANTRY2")]
    local = contract.compare(game, cells, method="monte-carlo", trials=2_000, seed=5)
    with distributed.Client(processes=False, n_workers=1, threads_per_worker=1,
                            dashboard_address=":0") as client:
        remote = contract.compare(game, cells, method="monte-carlo", trials=2_000, seed=5,
                                  client=client)
    pd.testing.assert_frame_equal(local, remote)

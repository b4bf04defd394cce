"""The tidy comparison frame and its readers (core/frames.py), on frames written by hand."""

import json
import math
import random

import numpy as np
import pandas as pd
import pytest

from mathhammer.core.frames import (COLUMNS, extra_columns, frame_from_columns, per_points,
                                    repeated_strings, string_columns, tidy_frame, to_json_dict)
from mathhammer.errors import OptionError

NAN = math.nan


def grid(method="exact"):
    rows = [{"attacker": a, "target": t, "save": s, "metric": m, "value": v, "stderr": e}
            for a, t, s, m, v, e in (
                ("Lascannon", "MEQ", 3, "expected_damage", 1.5, NAN),
                ("Lascannon", "MEQ", 3, "p_unit_destroyed", 0.25, NAN),
                ("Lascannon", "VEQ", 3, "expected_damage", 3.0, NAN),
                ("Lascannon", "VEQ", 3, "p_unit_destroyed", 0.0, NAN))]
    return tidy_frame(rows, ["save"], method=method, trials=1000, seed=4,
                      situation="half range")


def test_columns_order_and_provenance():
    frame = grid()
    assert list(frame.columns) == ["attacker", "target", "save", "metric", "value", "stderr",
                                   "method"]
    assert extra_columns(frame) == ["save"] and COLUMNS[-1] == "method"
    # an exact frame keeps no trials or seed
    assert frame.attrs == {"method": "exact", "trials": None, "seed": None,
                           "situation": "half range"}
    assert grid("monte-carlo").attrs["trials"] == 1000


def test_per_points_rows_follow_their_cell():
    frame = per_points(grid(), {"Lascannon": 150})
    # 1.5 wounds for 150 points is 1 per 100 points; probabilities are not scaled
    meq = frame[frame["target"] == "MEQ"]
    assert meq["metric"].tolist() == ["expected_damage", "p_unit_destroyed",
                                      "damage_per_100pts"]
    assert meq["value"].tolist() == [1.5, 0.25, 1.0]
    assert frame.attrs["points"] == {"Lascannon": 150.0}
    with pytest.raises(OptionError, match="must be a positive finite number"):
        per_points(grid(), {"Lascannon": 0})


def per_points_by_pandas(frame, points, by="attacker",
                         metrics=("expected_damage", "expected_models_destroyed")):
    """per_points as first written, with pandas group operations: the reference."""
    keys = [c for c in frame.columns if c not in ("metric", "value", "stderr", "method")]
    cell_ids = pd.Series(pd.factorize(pd.MultiIndex.from_frame(frame[keys].astype(str)))[0],
                         index=frame.index)
    chosen = frame["metric"].isin(list(metrics)) & frame[by].isin(list(points))
    added = frame[chosen].copy()
    scale = 100.0 / added[by].map(lambda label: float(points[label]))
    added["value"] = added["value"] * scale
    added["stderr"] = added["stderr"] * scale
    added["metric"] = [m.removeprefix("expected_") + "_per_100pts" for m in added["metric"]]
    order = pd.concat([cell_ids, cell_ids[chosen]], ignore_index=True)
    out = pd.concat([frame, added], ignore_index=True)
    return out.iloc[np.argsort(order.to_numpy(), kind="stable")].reset_index(drop=True)


@pytest.mark.parametrize("seed", range(12))
def test_per_points_equals_the_pandas_reference(seed):
    rng = random.Random(seed)
    metrics = ["expected_damage", "expected_models_destroyed", "p_unit_destroyed",
               "expected_attacker_mortal_wounds"]
    rows = [{"attacker": rng.choice(["A", "B", "C"]), "target": rng.choice(["MEQ", "GEQ"]),
             "round": rng.randint(1, 3), "metric": rng.choice(metrics),
             "value": rng.random() * 5, "stderr": rng.choice([NAN, rng.random()]),
             "method": "exact"} for _ in range(rng.randint(1, 25))]
    frame = pd.DataFrame(rows)
    frame.attrs["method"] = "exact"
    points = {"A": 150, "B": 85.5}
    got = per_points(frame, points)
    want = per_points_by_pandas(frame, points)
    assert got.equals(want) and list(got.dtypes) == list(want.dtypes)
    assert got.attrs == {"method": "exact", "points": {"A": 150.0, "B": 85.5}}
    assert frame.attrs == {"method": "exact"} and len(frame) == len(rows)


def test_json_dict():
    out = to_json_dict(grid())
    assert out["method"] == "exact" and out["rows"][0]["stderr"] is None
    json.dumps(out)  # plain JSON, no numpy scalars
    assert isinstance(pd.DataFrame(out["rows"]), pd.DataFrame)


@pytest.mark.parametrize("seed", range(6))
def test_repeated_strings_build_the_column_a_list_builds(seed):
    rng = random.Random(seed)
    labels = [rng.choice(["Lascannon", "2x Melta rifle", "MEQ", "Bolt rifles (2)", "é"])
              for _ in range(rng.randint(1, 9))]
    counts = [rng.randint(0, 4) for _ in labels]
    rows = [label for label, n in zip(labels, counts) for _ in range(n)]
    want = pd.DataFrame({"label": rows, "value": np.arange(len(rows), dtype=float)})
    got = pd.DataFrame({"label": repeated_strings(labels, counts),
                        "value": np.arange(len(rows), dtype=float)}, copy=False)
    pd.testing.assert_frame_equal(got, want)
    assert got.equals(want) and got["label"].dtype == want["label"].dtype
    pd.testing.assert_frame_equal(pd.DataFrame({"label": repeated_strings(rows)}),
                                  pd.DataFrame({"label": rows}))


@pytest.mark.parametrize("seed", range(6))
def test_frame_from_columns_equals_the_constructor(seed):
    """The fast frame equals pandas' own from lists, whatever the columns (string arrays,
    floats, ints, plain lists that take the constructor's path), and sharing its columns'
    index with later frames never lets a change of one reach another."""
    rng = random.Random(seed)
    n = rng.randint(1, 7)   # (an empty list has no dtype to compare)
    labels = [rng.choice(["Lascannon", "MEQ", "é", "Bolt rifles (2)"]) for _ in range(n)]
    values = [rng.random() for _ in range(n)]
    names = rng.sample(["attacker", "metric", "value", "save", "method"], 3)
    kinds = [rng.choice(["strings", "floats", "ints", "list"]) for _ in names]
    built, lists = {}, {}
    for name, kind in zip(names, kinds):
        if kind == "strings":
            built[name], lists[name] = string_columns((labels, None))[0], labels
        elif kind == "floats":
            built[name], lists[name] = np.array(values, dtype=float), values
        elif kind == "ints":
            built[name], lists[name] = np.arange(n), list(range(n))
        else:
            built[name] = lists[name] = [rng.choice([None, 2, "x"]) for _ in range(n)]
    got, want = frame_from_columns(built), pd.DataFrame(lists)
    pd.testing.assert_frame_equal(got, want, check_index_type=True, check_column_type=True)
    got.columns.name = "changed"   # in place: must not reach the next frame's columns
    assert frame_from_columns(built).columns.name is None


def test_frame_from_columns_refuses_what_the_constructor_refuses():
    with pytest.raises(ValueError):
        pd.DataFrame({"a": np.zeros(2), "b": np.zeros(3)})
    with pytest.raises(ValueError):   # unequal lengths: the constructor's own error
        frame_from_columns({"a": np.zeros(2), "b": np.zeros(3)})


def test_engine_words_for_every_method():
    from mathhammer.core.frames import engine_words

    def frame(**attrs):
        f = pd.DataFrame()
        f.attrs.update(attrs)
        return f

    assert engine_words(frame(method="exact")) == "exact"
    assert engine_words(frame(method="monte-carlo", trials=2_000, seed=5)) == \
        "Monte Carlo, 2,000 trials per cell, seed 5"
    assert engine_words(frame(method="mixed", trials=2_000, seed=5)) == \
        "exact where it can, else Monte Carlo, 2,000 trials per cell, seed 5"
    assert engine_words(frame()) == ""


def test_core_imports_nothing_of_the_report():
    """The frame's tables are written at the edge (mathhammer.report.frame_tables); their old
    names here answer for one release with a DeprecationWarning naming that home."""
    import mathhammer.core.frames as frames
    from mathhammer.report import frame_tables

    for name in ("pivot", "table", "to_markdown"):
        with pytest.warns(DeprecationWarning, match=f"mathhammer.report.frame_tables.{name}"):
            assert getattr(frames, name) is getattr(frame_tables, name)
    with pytest.raises(AttributeError):
        frames.no_such_name  # noqa: B018

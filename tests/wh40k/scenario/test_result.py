"""ScenarioResult holds a core Result of several subjects for the end of the scenario (issue
23; by composition since issue 40, item 5: no field of a Result left None): its end-of-scenario
distributions agree with the per-checkpoint methods, and its JSON, caption and text never
depend on the kind of seed given beyond its entropy and spawn key."""

import json

import numpy as np
import pytest

from mathhammer.core.result import Result, subject_key
from mathhammer.wh40k.scenario.api import run
from mathhammer.wh40k.scenario.reader import load_scenario
from mathhammer.wh40k.scenario.result import ScenarioResult

EXAMPLE = "examples/shoot_charge_fight.toml"


@pytest.fixture(scope="module")
def example():
    return load_scenario(EXAMPLE)


def test_a_scenario_result_is_a_result_of_every_unit_and_side(example):
    result = run(example, trials=2_000, seed=5, progress=False)
    assert isinstance(result, ScenarioResult) and isinstance(result.end, Result)
    for unit in result.units:
        end = result.models_destroyed(unit)
        assert result.mean(subject_key(unit, "models_destroyed")) == end.mean
        assert result.mean(subject_key(unit, "wounds_lost")) == result.wounds_lost(unit).mean
        assert result.probability(subject_key(unit, "destroyed")) == result.destroyed(unit)
        own = result.for_subject(unit)
        assert own.mean("models_destroyed") == end.mean and own.subject == unit
    for s, side in enumerate(result.plan.side_names):
        wiped = result.sides[s, 1:].sum() / result.trials
        assert result.probability(subject_key(side, "wiped_out")) == wiped


def test_it_holds_its_result_and_reads_it(example):
    import dataclasses

    result = run(example, trials=500, seed=5, progress=False)
    assert not isinstance(result, Result) and isinstance(result.end, Result)
    assert {f.name for f in dataclasses.fields(result)} == {"plan", "models", "wounds",
                                                             "groups", "sides", "end"}
    for name in ("method", "distributions", "probabilities", "trials", "seed", "inputs",
                 "labels", "outcomes", "engine_note", "situation", "caption", "subject"):
        assert getattr(result, name) == getattr(result.end, name), name
    key = subject_key(result.units[0], "models_destroyed")
    assert result.pmf(key).equals(result.end.pmf(key))
    assert result.probability_stderr(subject_key(result.units[0], "destroyed")) == \
        result.end.probability_stderr(subject_key(result.units[0], "destroyed"))


def test_at_a_checkpoint_matches_the_methods(example):
    result = run(example, trials=2_000, seed=5, progress=False)
    first_round = result.at("round 1 end")
    for unit in result.units:
        assert first_round.mean(subject_key(unit, "models_destroyed")) == \
            result.models_destroyed(unit, "round 1 end").mean
    assert "round 1 end" in first_round.caption


def test_a_seed_sequence_gives_json_and_a_caption_without_an_object(example):
    child = np.random.SeedSequence(2026, spawn_key=(4, 1))
    result = run(example, trials=500, seed=child, progress=False)
    data = json.loads(json.dumps(result.to_dict()))
    assert data["seed"] == 2026 and data["seed_spawn_key"] == [4, 1]
    for text in (result.caption, result.table().caption, result.to_text(),
                 result.survival().attrs["caption"], repr(result)):
        assert "SeedSequence" not in text and "object at" not in text
    assert "seed 2026" in result.caption
    # the same entropy and spawn key give the same numbers as the sequence itself
    again = run(example, trials=500, seed=np.random.SeedSequence(2026, spawn_key=(4, 1)),
                progress=False)
    assert np.array_equal(again.models, result.models)


def test_json_keys_of_an_int_seed_are_unchanged(example):
    data = run(example, trials=200, seed=3, progress=False).to_dict()
    assert list(data) == ["method", "trials", "seed", "units", "activations", "rounds",
                          "sides"]
    assert data["seed"] == 3
    first_side = next(iter(data["sides"].values()))
    assert set(first_side) == {"units", "wiped_out_in_round", "standing"}
    sided = [u for side in data["sides"].values() for u in side["units"]]
    assert sorted(sided) == sorted(data["units"])   # each unit on its side (U_SIDE)


def test_sides_are_named_by_their_units_in_the_report():
    import mathhammer as mh
    from pathlib import Path

    path = Path(__file__).resolve().parents[3] / "examples" / "shoot_charge_fight.toml"
    result = mh.run(mh.load_scenario(path), trials=500, seed=1)
    assert result.side_units("A") == ["Intercessors"] and result.side_units("B") == ["Boyz"]
    text = result.to_text()
    assert "  A (Intercessors) round 1:" in text and "  B (Boyz)" in text



def test_a_scenario_results_histograms_are_read_only():
    result = run(load_scenario(EXAMPLE), trials=500, seed=1)
    for array in (result.models, result.wounds, result.groups, result.sides):
        assert not array.flags.writeable
    with pytest.raises(TypeError):
        result.inputs["subject"] = "other"


def test_the_text_and_json_reports_import_no_pandas_and_the_frames_hold_the_same_numbers():
    """``mathhammer run`` prints its report without importing pandas (0.3 s of a warm run);
    the frames, made when asked, hold the numbers the report prints."""
    import subprocess
    import sys

    code = ("import json, sys\n"
            "from mathhammer.wh40k.scenario.api import run\n"
            "from mathhammer.wh40k.scenario.reader import load_scenario\n"
            f"result = run(load_scenario({EXAMPLE!r}), trials=2000, seed=3, progress=False)\n"
            "text, answer = result.to_text(), json.dumps(result.to_dict())\n"
            "assert 'pandas' not in sys.modules, 'pandas imported'\n"
            "groups, wiped = result.group_table(), result.wiped_out()\n"
            "print(json.dumps({'text': text, 'groups': groups.to_dict('records'),\n"
            "                  'wiped': wiped.to_dict('records')}))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-1000:]
    seen = json.loads(done.stdout)
    for row in seen["groups"]:
        printed = "  ".join(f"{row[c]:11.2f}" for c in row if c.startswith("round "))
        assert f"{row['unit']}: {row['model group']}"[:36] in seen["text"]
        assert printed in seen["text"]
    for row in seen["wiped"]:
        assert f"round {row['round']}: {row['p_wiped_out']:.3f}" in seen["text"]

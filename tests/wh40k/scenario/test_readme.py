"""The scenario example of the documentation (docs/guide/wh40k/scenarios.md, once the README's)
is the file in examples/ and it runs."""

from pathlib import Path

import mathhammer as mh

ROOT = Path(__file__).resolve().parents[3]


def test_readme_example_is_the_shipped_file_and_runs():
    readme = (ROOT / "docs" / "guide" / "wh40k" / "scenarios.md").read_text()
    block = readme.split("`examples/shoot_charge_fight.toml`:\n\n```toml\n")[1].split("```")[0]
    assert block == (ROOT / "examples" / "shoot_charge_fight.toml").read_text()
    result = mh.run(ROOT / "examples" / "shoot_charge_fight.toml", trials=2_000, seed=1)
    assert result.checkpoints == 6
    assert set(result.units) == {"Intercessors", "Boyz"}
    frame = result.to_frame()
    assert {"round", "activation", "unit", "group", "outcome", "value", "probability"} <= set(frame)

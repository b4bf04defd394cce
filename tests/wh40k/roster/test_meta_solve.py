"""Solving the meta matrix's pairings: chunks, seeds, the resumable store, Dask."""

import json

import pandas as pd
import pytest

from mathhammer.wh40k.roster.meta import meta
from mathhammer.wh40k.roster.meta_solve import STORE_NAME, Store, pairing_seed

from .event_lists import event_lists


@pytest.fixture(scope="module")
def event(tmp_path_factory):
    return event_lists(tmp_path_factory.mktemp("event"), 3, units=2, seed=5)


def test_a_rerun_skips_the_pairings_already_written(event, tmp_path):
    first = meta(event, method="exact", out=tmp_path)
    assert first.counts["solved"] == first.counts["unique"] and first.counts["resumed"] == 0
    assert {p.name for p in tmp_path.iterdir()} == {STORE_NAME, "matrix.csv", "plans.csv",
                                                     "meta.json"}
    again = meta(event, method="exact", out=tmp_path)
    assert again.counts["solved"] == 0 and again.counts["resumed"] == first.counts["unique"]
    pd.testing.assert_frame_equal(first.frame, again.frame, check_exact=True)
    # interrupted half way, the last line cut short: the rest is solved, same numbers
    lines = (tmp_path / STORE_NAME).read_text(encoding="utf-8").splitlines()
    half = len(lines) // 2
    (tmp_path / STORE_NAME).write_text("\n".join(lines[:half]) + '\n{"key": "ab', "utf-8")
    resumed = meta(event, method="exact", out=tmp_path)
    assert resumed.counts["resumed"] == half
    assert resumed.counts["solved"] == first.counts["unique"] - half
    # the rest is solved in other chunks than the first time, and the exact engine's
    # vectorised solve of a chunk may move a value's last bit: equal to 1e-12
    pd.testing.assert_frame_equal(first.frame, resumed.frame, check_exact=False, rtol=1e-12,
                                  atol=1e-12)


def test_other_options_do_not_reuse_the_store(event, tmp_path):
    meta(event, method="exact", phases="shooting", out=tmp_path)
    fight = meta(event, method="exact", phases="fight", out=tmp_path)
    assert fight.counts["resumed"] == 0
    assert json.loads((tmp_path / "meta.json").read_text())["phases"] == ["fight"]


def test_out_must_be_a_folder(tmp_path, event):
    (tmp_path / "file").write_text("x")
    with pytest.raises(ValueError, match="is a file"):
        Store(tmp_path / "file")


def test_seeds_come_from_the_pairing_not_from_its_place():
    assert pairing_seed(3, "0" * 24).spawn_key == (0, 0, 0)
    a, b = pairing_seed(3, "1" * 24), pairing_seed(3, "1" * 24)
    assert a.generate_state(2).tolist() == b.generate_state(2).tolist()


@pytest.mark.filterwarnings("ignore")
def test_a_small_cluster_gives_the_same_matrix_bit_for_bit(event):
    distributed = pytest.importorskip("distributed")
    local = meta(event, method="monte-carlo", trials=2_000, seed=9, phases="shooting")
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=":0")
    with distributed.Client(cluster) as client:
        client.wait_for_workers(2, timeout=60)
        remote = meta(event, method="monte-carlo", trials=2_000, seed=9, phases="shooting",
                      client=client)
    cluster.close()
    pd.testing.assert_frame_equal(local.frame, remote.frame, check_exact=True)
    pd.testing.assert_frame_equal(local.plans, remote.plans, check_exact=True)
    assert remote.method == "monte-carlo"

"""Comparison grids on a local Dask cluster of worker processes equal the local run."""

import pandas as pd
import pytest

import mathhammer as mh

distributed = pytest.importorskip("distributed")

WEAPONS = ['5x Bolt rifle: 24" A2 BS3+ S4 AP-1 D1',
           'Heavy bolter: 36" A3 BS4+ S5 AP-1 D2 [SUSTAINED HITS 1]']
TARGETS = ["MEQ", "10x GEQ", "TEQ"]


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=":0")
    with distributed.Client(cluster) as client:
        client.wait_for_workers(2, timeout=60)
        yield client
    cluster.close()


@pytest.mark.filterwarnings("ignore")
def test_grid_on_a_cluster_is_bit_identical_to_local(client):
    local = mh.compare(WEAPONS, TARGETS, method="monte-carlo", trials=20_000, seed=5)
    with distributed.get_task_stream(client) as stream:
        remote = mh.compare(WEAPONS, TARGETS, method="monte-carlo", trials=20_000, seed=5, client=client)
    pd.testing.assert_frame_equal(local, remote, check_exact=True)
    # The cells really ran on the cluster's workers (the client's cached identity is
    # refreshed only every few seconds, so ask the scheduler, not scheduler_info()).
    assert len(stream.data) == len(WEAPONS) * len(TARGETS)
    assert len({task["worker"] for task in stream.data}) >= 1
    assert len(client.nthreads()) == 2


@pytest.mark.filterwarnings("ignore")
def test_sweep_on_a_cluster_is_bit_identical_to_local(client):
    local = mh.sweep(WEAPONS[:1], ["MEQ"], "save", [2, 4, 6], method="monte-carlo", trials=10_000, seed=2)
    remote = mh.sweep(WEAPONS[:1], ["MEQ"], "save", [2, 4, 6], method="monte-carlo", trials=10_000, seed=2,
                      client=client)
    pd.testing.assert_frame_equal(local, remote, check_exact=True)


def test_unreachable_scheduler_is_a_clear_error(capsys, monkeypatch):
    from mathhammer.cli import main
    from mathhammer.wh40k import compare_cli

    monkeypatch.setattr(compare_cli, "SCHEDULER_TIMEOUT", 1)   # nothing listens on port 9

    code = main(["compare", WEAPONS[0], "--target", "MEQ", "--trials", "100",
                 "--scheduler", "tcp://127.0.0.1:9"])
    assert code == 2
    assert "cannot reach the Dask scheduler" in capsys.readouterr().err


@pytest.mark.filterwarnings("ignore")
def test_cluster_grid_counts_cells_on_a_progress_bar(client, monkeypatch, capsys):
    from mathhammer.core import progress

    monkeypatch.setattr(progress, "DELAY", 0)
    local = mh.compare(WEAPONS, TARGETS, method="monte-carlo", trials=5_000, seed=5, progress=False)
    remote = mh.compare(WEAPONS, TARGETS, method="monte-carlo", trials=5_000, seed=5, client=client, progress=True)
    pd.testing.assert_frame_equal(local, remote, check_exact=True)
    assert "compare" in capsys.readouterr().err

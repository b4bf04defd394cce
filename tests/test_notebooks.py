"""Every notebook in ``notebooks/`` executes top to bottom (nbclient, the python3 kernel) and
is stored without outputs. The notebooks use only the public API; a notebook that breaks
fails this test, so they cannot rot."""

import os
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))


def test_there_are_notebooks():
    names = {p.name for p in NOTEBOOKS}
    assert {"01_quickstart.ipynb", "02_compare_archetypes.ipynb",
            "04_chart_for_an_article.ipynb"} <= names


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_stored_without_outputs(path):
    nbformat = pytest.importorskip("nbformat")
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, \
                f"{path.name}: clear outputs before committing (jupyter nbconvert " \
                "--clear-output --inplace)"


@pytest.fixture(scope="module")
def kernel():
    """One python3 kernel for the notebooks a worker executes: starting one and importing
    mathhammer, pandas and matplotlib took 2.5 s of each notebook. Each notebook still starts
    from an empty namespace (``%reset -f``) in its own folder, so one that leans on a name
    another defined fails as it would on its own."""
    jupyter_client = pytest.importorskip("jupyter_client")
    # the kernel runs in tmp folders: point it at this checkout, installed or not
    repo = str(Path(__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        filter(None, [repo, os.environ.get("PYTHONPATH")]))}
    manager = jupyter_client.KernelManager(kernel_name="python3")
    manager.start_kernel(env=env)
    yield manager
    manager.shutdown_kernel(now=True)


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_executes(path, tmp_path, kernel):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    nb = nbformat.read(path, as_version=4)
    nb.cells.insert(0, nbformat.v4.new_code_cell(
        f"%reset -f\nimport os\nos.chdir({str(tmp_path)!r})\ndel os"))
    client = nbclient.NotebookClient(nb, km=kernel, timeout=600, kernel_name="python3")
    try:
        client.execute()
    finally:
        if client.kc is not None:
            client.kc.stop_channels()
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs
              if o.output_type == "error"]
    assert not errors
    # a chart cell displays its image, never '<Figure size 700x420 with 1 Axes>' (checked on
    # the one execution of each notebook: executing them twice cost 34 s of the suite)
    shown = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs
             if o.output_type == "execute_result"]
    for output in shown:
        if output["data"].get("text/plain", "").startswith("<Figure"):
            assert "image/png" in output["data"], f"{path.name}: a chart shown as text"
    if path.stem == "03_battle_round":
        chart_cells = [c for c in nb.cells if c.cell_type == "code"
                       and ("plot(" in c.source or "charts." in c.source)]
        assert len(chart_cells) == 2
        for cell in chart_cells:
            images = [o for o in cell.outputs if o.output_type == "execute_result"]
            assert images and "image/png" in images[-1]["data"]
            assert "<Figure" not in images[-1]["data"].get("text/plain", "")

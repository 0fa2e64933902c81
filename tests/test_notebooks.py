"""The notebooks run top to bottom in a fresh kernel, so they cannot rot as the library changes."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))


def test_there_are_notebooks_to_start_from():
    assert len(NOTEBOOKS) >= 2


@pytest.fixture
def kernel_name(tmp_path, monkeypatch):
    """A kernel on this interpreter (the one with reasoner installed), whatever kernels the machine has."""
    folder = tmp_path / "kernels" / "reasoner-tests"
    folder.mkdir(parents=True)
    spec = {"argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
            "display_name": "reasoner tests", "language": "python"}
    (folder / "kernel.json").write_text(json.dumps(spec), encoding="utf-8")
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path))
    return "reasoner-tests"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs_top_to_bottom(path, kernel_name):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    pytest.importorskip("matplotlib")
    notebook = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(notebook, timeout=300, kernel_name=kernel_name,
                                     resources={"metadata": {"path": str(path.parent)}})
    client.execute()
    outputs = [output for cell in notebook.cells if cell.cell_type == "code" for output in cell.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    assert [o for o in outputs if "image/png" in o.get("data", {})], "the notebook draws its charts"

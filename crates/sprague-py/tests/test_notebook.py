"""The tour notebook runs headless from top to bottom (its cells assert what they show)."""

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

TOUR = Path(__file__).resolve().parents[1] / "examples" / "tour.ipynb"


def test_the_tour_notebook_runs(tmp_path):
    nb = nbformat.read(TOUR, as_version=4)
    NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    outputs = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    # The plot was drawn (matplotlib's inline image), and the heap row drew itself as SVG.
    kinds = {k for o in outputs for k in o.get("data", {})}
    assert {"image/png", "image/svg+xml"} <= kinds

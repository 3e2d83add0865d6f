"""The estimator chart's colours: every component of a breakdown gets its own."""

import re
from pathlib import Path

from gpurent.sizing.fit.chart import PALETTE_SIZE, segment_class


def test_a_dozen_components_get_a_dozen_colours():
    """SDXL LoRA training shows eleven components in the chart's legend: no two may share a colour."""
    css = (Path(__file__).resolve().parents[1] / "static" / "sizing" / "sizing.css").read_text()
    classes = [segment_class(index) for index in range(PALETTE_SIZE)]
    assert len(set(classes)) == PALETTE_SIZE >= 12
    colours = [re.search(rf"\.{name} {{ fill: (#\w+);", css) for name in classes]
    assert all(colours)
    assert len({m.group(1) for m in colours if m}) == PALETTE_SIZE

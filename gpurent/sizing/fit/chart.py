"""The stacked-bar chart of the page: the per-card breakdown drawn against each catalog card's memory.

Geometry only (numbers in SVG user units); the template draws it with presentation attributes and CSS
classes, because the Content Security Policy forbids inline `style=` attributes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..calculation import Sizing
from ..texts.components import component_label

__all__ = ["PALETTE_SIZE", "WIDTH", "Bar", "Segment", "chart_rows", "segment_class"]

WIDTH = 1000
PALETTE_SIZE = 12  # colours in sizing.css (.seg-0 … .seg-11): a breakdown has up to a dozen components


@dataclass(frozen=True)
class Segment:
    x: float
    width: float
    css: str
    label: str


@dataclass(frozen=True)
class Bar:
    """One catalog GPU: its card (`track`), its usable share (`usable_x`) and the stacked estimate."""

    name: str
    slug: str
    track: float
    usable_x: float
    segments: tuple[Segment, ...]
    overflows: bool


def segment_class(index: int) -> str:
    """The colour class of the `index`-th component (0-based), shared by the chart and its legend."""
    return f"seg-{int(index) % PALETTE_SIZE}"


def chart_rows(sizing: Sizing) -> list[Bar]:
    """One bar per GPU the table shows (`Sizing.fit_shown`), all on the same scale (the largest of their cards, or
    the peak if larger)."""
    rows = sizing.fit_shown
    if not rows:
        return []
    peak = sizing.result.peak_bytes
    scale = max([peak, *(row.card_bytes for row in rows)])
    components: list[dict[str, Any]] = sizing.peak_components
    segments: list[Segment] = []
    x = 0.0
    for index, component in enumerate(components):
        width = int(component["bytes"]) * WIDTH / scale
        segments.append(Segment(round(x, 2), round(width, 2), segment_class(index), component_label(component)))
        x += width
    return [
        Bar(
            name=row.gpu.name,
            slug=row.gpu.slug,
            track=round(row.card_bytes * WIDTH / scale, 2),
            usable_x=round(row.usable_bytes * WIDTH / scale, 2),
            segments=tuple(segments),
            overflows=peak > row.usable_bytes,
        )
        for row in rows
    ]

"""Template helpers of the journal: observed numbers and peaks as people read them."""

from __future__ import annotations

from django import template

from gpurent.core.formats import bytes_text

from ..observations import measured_text

register = template.Library()


@register.filter
def measured(value: float | None) -> str:
    """A measured number without noise, in the page's language: "1,234.5" ("1.234,5"), "0.8123", "—" when not
    measured."""
    return measured_text(value)


@register.filter
def peaks(values: list[int] | None) -> str:
    """Peaks per GPU: "GPU 0: 21.40 GiB · GPU 1: 21.90 GiB" (one GPU: just the size)."""
    if not values:
        return "—"
    if len(values) == 1:
        return bytes_text(values[0])
    return " · ".join(f"GPU {index}: {bytes_text(value)}" for index, value in enumerate(values))

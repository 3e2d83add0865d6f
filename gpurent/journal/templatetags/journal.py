"""Template helpers of the journal: observed numbers and peaks as people read them."""

from __future__ import annotations

from django import template

from vramcalc.units import format_bytes

register = template.Library()


@register.filter
def measured(value: float | None) -> str:
    """A measured number without noise: "1,234.5", "0.8123", "—" when not measured."""
    if value is None:
        return "—"
    if abs(value) >= 1:
        return f"{value:,.2f}".rstrip("0").rstrip(".")
    return f"{value:.4g}"


@register.filter
def peaks(values: list[int] | None) -> str:
    """Peaks per GPU: "GPU 0: 21.40 GiB · GPU 1: 21.90 GiB" (one GPU: just the size)."""
    if not values:
        return "—"
    if len(values) == 1:
        return format_bytes(values[0])
    return " · ".join(f"GPU {index}: {format_bytes(value)}" for index, value in enumerate(values))

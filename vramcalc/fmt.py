"""Small text helpers for the formulas shown next to each number."""

from __future__ import annotations

from .units import format_bytes

__all__ = ["num", "show"]


def num(value: int) -> str:
    """Integer with thousands separators: ``8,030,261,248``."""
    return f"{value:,}"


def show(expression: str, result: int) -> str:
    """``"<expression> = <result in binary units>"``."""
    return f"{expression} = {format_bytes(result)}"

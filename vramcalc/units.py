"""Byte units and formatting. All memory inside the engine is an ``int`` number of bytes."""

from __future__ import annotations

__all__ = ["GB", "GIB", "KIB", "MIB", "format_bytes", "format_bytes_range", "gib", "to_gib"]

KIB = 1024
MIB = 1024**2
GIB = 1024**3
GB = 10**9


def gib(value: float) -> int:
    """Convert GiB (2**30 bytes) to whole bytes, rounding to the nearest byte."""
    return round(value * GIB)


def to_gib(n_bytes: int) -> float:
    """Convert bytes to GiB (2**30)."""
    return n_bytes / GIB


def _unit(n_bytes: int) -> tuple[str, int] | None:
    """The unit `n_bytes` is written in: the smallest whose figure, to two decimals, stays under 1000 (GiB past
    that); None for plain bytes (under 1000)."""
    size = abs(n_bytes)
    if size < 1000:
        return None
    for unit, factor in (("KiB", KIB), ("MiB", MIB)):
        if float(f"{size / factor:.2f}") < 1000:
            return unit, factor
    return "GiB", GIB


def _written(n_bytes: int, unit: tuple[str, int] | None) -> str:
    sign = "-" if n_bytes < 0 else ""
    if unit is None:
        return f"{sign}{abs(n_bytes)} B"
    return f"{sign}{abs(n_bytes) / unit[1]:.2f} {unit[0]}"


def format_bytes(n_bytes: int) -> str:
    """Render bytes in binary units for people: ``"14.96 GiB"``, ``"800.00 KiB"``, ``"12 B"``.

    A figure never reads 1000 or more of a unit below GiB: 1000 MiB is ``"0.98 GiB"``, not ``"1000.00 MiB"``
    (a range "1000.00 MiB - 1.46 GiB" read as two magnitudes). Negative values keep their sign (used for headroom).
    """
    return _written(n_bytes, _unit(n_bytes))


def format_bytes_range(low: int, high: int) -> tuple[str, str]:
    """Both ends of a range, the low end in the high end's unit where it reads at least 0.10 in it
    (``("0.50 GiB", "1.60 GiB")``, not ``"512.00 MiB"`` beside ``"1.60 GiB"``); a low end under a tenth of that
    unit keeps its own (``("5.00 MiB", "1.46 GiB")``: the units then say that the range spans more than tenfold).
    """
    unit = _unit(high)
    if unit is not None and unit[1] // 10 <= abs(low) <= abs(high):
        return _written(low, unit), _written(high, unit)
    return format_bytes(low), format_bytes(high)

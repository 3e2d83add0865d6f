"""Byte units and formatting. All memory inside the engine is an ``int`` number of bytes."""

from __future__ import annotations

__all__ = ["GB", "GIB", "KIB", "MIB", "format_bytes", "gib", "to_gib"]

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


def format_bytes(n_bytes: int) -> str:
    """Render bytes in binary units for people: ``"14.96 GiB"``, ``"800.00 KiB"``, ``"12 B"``.

    A figure never reads 1000 or more of a unit below GiB: 1000 MiB is ``"0.98 GiB"``, not ``"1000.00 MiB"``
    (a range "1000.00 MiB - 1.46 GiB" read as two magnitudes). Negative values keep their sign (used for headroom).
    """
    sign = "-" if n_bytes < 0 else ""
    size = abs(n_bytes)
    if size < 1000:
        return f"{sign}{size} B"
    for unit, factor in (("KiB", KIB), ("MiB", MIB)):
        text = f"{size / factor:.2f}"
        if float(text) < 1000:
            return f"{sign}{text} {unit}"
    return f"{sign}{size / GIB:.2f} GiB"

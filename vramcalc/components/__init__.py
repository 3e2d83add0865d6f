"""Per-card memory components, one module per kind of memory."""

from __future__ import annotations

__all__: list[str] = []

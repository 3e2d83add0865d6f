"""Engine version: bump when a formula or constant changes, so stored estimates say which one they used."""

from __future__ import annotations

__all__ = ["ENGINE_VERSION", "__version__"]

__version__ = "0.3.45"
ENGINE_VERSION = f"vramcalc {__version__} (formulas 2027-01q, ranges)"

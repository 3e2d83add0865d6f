"""The estimator form's number fields, bounded by the engine's own range of the option each one sets.

The range of every numeric engine input is declared once, on its field (`vramcalc.ranges`, decision 0374); a form
field reads it here, so the web form refuses exactly what the API and the CLI refuse, next to the field.
"""

from __future__ import annotations

from typing import Any

from django import forms

from vramcalc.option_schema import option_range

__all__ = ["engine_number"]


def engine_number(
    label: Any, option: str, *, required: bool = True, help_text: Any = "", unit: int = 1
) -> forms.IntegerField:
    """An integer field for the engine option `option` (`parallel.cards`), within its range. `unit`: the field
    counts in units of that many (the ZeRO-3 limits are entered in millions of parameters)."""
    bounds = option_range(option)
    return forms.IntegerField(
        label=label,
        min_value=-(-bounds.minimum // unit),
        max_value=bounds.maximum // unit,
        required=required,
        help_text=help_text,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "step": 1}),
    )

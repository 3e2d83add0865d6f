"""The form that records a measured peak on a saved estimate."""

from __future__ import annotations

from decimal import Decimal

from django import forms
from django.utils.translation import gettext_lazy as _

from vramcalc.units import GIB

__all__ = ["MEASUREMENT_SOURCES", "MeasurementForm"]


MEASUREMENT_SOURCES = [
    ("nvidia-smi", _("nvidia-smi / NVML memory used")),
    ("max_memory_reserved", _("torch.cuda.max_memory_reserved()")),
    ("max_memory_allocated", _("torch.cuda.max_memory_allocated()")),
    ("rocm-smi", _("rocm-smi")),
    ("other", _("Other")),
]


class MeasurementForm(forms.Form):
    """A peak measured on a real card, in GiB (2^30 bytes), and how it was read."""

    peak_gib = forms.DecimalField(
        label=_("Measured peak per card (GiB)"),
        min_value=Decimal("0.001"),
        max_value=Decimal("100000"),
        decimal_places=3,
        widget=forms.NumberInput(attrs={"step": "0.001", "inputmode": "decimal"}),
    )
    source = forms.ChoiceField(label=_("Measured with"), choices=MEASUREMENT_SOURCES)

    def peak_bytes(self) -> int:
        """The measured peak in whole bytes (exact decimal arithmetic, rounded down)."""
        return int(self.cleaned_data["peak_gib"] * GIB)

"""The names a customer reads for the journal's fields, for messages that name a field (never the field's key)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from .enums import Phase

__all__ = ["FIELD_LABELS", "field_label"]

# The same words as the forms' labels (journal/forms.py), so a message names the field the customer sees.
FIELD_LABELS: dict[str, Any] = {
    "question": _("Question"),
    "hypothesis": _("Hypothesis"),
    "metrics": _("Metrics and quality criteria"),
    "stop_criterion": _("Stop criterion"),
    "estimate": _("Saved estimate"),
    "rental": _("Rental"),
    "name": _("Run name"),
    "code_version": _("Code version"),
    "environment": _("Environment"),
    "versions": _("Library versions"),
    "parameters": _("Parameters"),
    "seeds": _("Seeds"),
    "determinism": _("Determinism settings"),
    "reproducibility": _("Reproducibility definition"),
    "tolerance": _("Tolerance"),
    "outcome": _("Outcome"),
    "failure": _("Failure"),
    "checkpoint": _("Checkpoint"),
    "conclusion": _("Conclusion"),
    "peak": _("Peak memory per GPU (GiB)"),
    "peak_source": _("Peak read with"),
    "throughput": _("Throughput"),
    "throughput_unit": _("Throughput unit"),
    "latency_ms": _("Latency (ms)"),
    "quality_metric": _("Quality metric"),
    "quality_value": _("Quality value"),
}


def field_label(field: str) -> str:
    """The customer's-language name of a service field (``first.throughput``: "First run: Throughput")."""
    phase, _sep, name = field.rpartition(".")
    label = FIELD_LABELS.get(name)
    if label is None:
        return gettext("this field")
    if phase in Phase.values:
        return gettext("%(phase)s: %(field)s") % {"phase": Phase(phase).label, "field": label}
    return str(label)

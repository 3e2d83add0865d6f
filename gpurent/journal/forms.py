"""HTML forms of the journal: input shape only. The services validate ranges and ownership again."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrOrPromise

from gpurent.orders.models import Order
from gpurent.sizing.models import SavedEstimate
from vramcalc.units import GIB

from .enums import Checkpoint, Outcome, Reproducibility
from .models import Run
from .records import EntryDraft, MeasurementDraft, RunDraft

__all__ = ["EntryForm", "RunForm", "pairs_from_text", "pairs_to_text"]

_TEXTAREA = {"rows": 3}
_PAIRS_HELP = _("One per line, as name=value.")


class EntryForm(forms.Form):
    """A new entry: the question and how it will be answered; the rental and estimate lists are the owner's."""

    question = forms.CharField(
        label=_("Question"),
        max_length=300,
        help_text=_("One experimental question per entry, e.g. “bf16 vs fp8 at batch 16”."),
    )
    hypothesis = forms.CharField(label=_("Hypothesis"), required=False, widget=forms.Textarea(attrs=_TEXTAREA))
    metrics = forms.CharField(
        label=_("Metrics and quality criteria"), required=False, widget=forms.Textarea(attrs=_TEXTAREA)
    )
    stop_criterion = forms.CharField(
        label=_("Stop criterion"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("When do you stop running and conclude?"),
    )
    estimate = forms.ChoiceField(label=_("Saved estimate"), required=False)
    rental = forms.ChoiceField(label=_("Rental"), required=False)

    def __init__(self, *args: Any, estimates: list[SavedEstimate], orders: list[Order], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        none = [("", _("None"))]
        estimate_field, rental_field = self.fields["estimate"], self.fields["rental"]
        assert isinstance(estimate_field, forms.ChoiceField)  # noqa: S101 - declared above; narrows for mypy
        assert isinstance(rental_field, forms.ChoiceField)  # noqa: S101 - declared above; narrows for mypy
        estimate_field.choices = none + [(str(e.public_id), e.title_text) for e in estimates]
        rental_field.choices = none + [(o.ref, f"{o.ref} · {o.gpu.name}") for o in orders]
        if not orders:
            del self.fields["rental"]

    def to_draft(self) -> EntryDraft:
        data = self.cleaned_data
        return EntryDraft(
            question=data["question"],
            hypothesis=data["hypothesis"],
            metrics=data["metrics"],
            stop_criterion=data["stop_criterion"],
            order_ref=data.get("rental") or "",
            estimate_id=data["estimate"] or "",
        )


def pairs_from_text(text: str) -> dict[str, str]:
    """ "batch=16\\ndtype=bf16" → {"batch": "16", "dtype": "bf16"}; blank lines are skipped.

    Raises:
        forms.ValidationError: a line without "=" or with an empty name.
    """
    pairs: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        name, sep, value = line.partition("=")
        if not sep or not name.strip():
            raise forms.ValidationError(
                _("Line %(n)d: write name=value (e.g. batch=16)."), params={"n": number}, code="pair"
            )
        pairs[name.strip()] = value.strip()
    return pairs


def pairs_to_text(pairs: dict[str, str]) -> str:
    return "\n".join(f"{key}={value}" for key, value in pairs.items())


class PairsField(forms.CharField):
    """A textarea of name=value lines, cleaned to a dict."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("required", False)
        kwargs.setdefault("help_text", _PAIRS_HELP)
        kwargs.setdefault("widget", forms.Textarea(attrs={"rows": 3, "class": "mono", "spellcheck": "false"}))
        super().__init__(**kwargs)

    def clean(self, value: Any) -> dict[str, str]:
        return pairs_from_text(super().clean(value) or "")


# Between GPUs: a semicolon, a comma followed by a space, or a space ("21.4; 21.9", "21.4, 21.9"). A comma between
# digits is a decimal mark, as it is in Spanish, Vietnamese and Turkish: "61,5" is one GPU of 61.5 GiB, never
# two GPUs of 61 and 5.
_PEAK_SEPARATOR = re.compile(r";|,\s+|\s+")
_PEAK = re.compile(r"[0-9]+(?:[.,][0-9]+)?")


class PeaksField(forms.CharField):
    """Peak memory per GPU in GiB ("21.4; 21.9", "21,4; 21,9"), cleaned to bytes per GPU."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("help_text", _("One number per GPU, separated by semicolons, e.g. 21.4; 21.9."))
        super().__init__(**kwargs)

    def clean(self, value: Any) -> tuple[int, ...]:
        text = super().clean(value) or ""
        peaks: list[int] = []
        for part in _PEAK_SEPARATOR.split(text.strip()):
            if not part:
                continue
            if _PEAK.fullmatch(part) is None:
                raise forms.ValidationError(
                    _("Enter one number of GiB per GPU, separated by semicolons, e.g. 21.4; 21.9.")
                )
            gib = Decimal(part.replace(",", "."))
            if gib <= 0 or gib > 1_048_576:
                raise forms.ValidationError(_("Each peak is above 0 and at most 1 PiB (1048576 GiB)."))
            peaks.append(int(gib * GIB))
        return tuple(peaks)


def _number(label: StrOrPromise) -> forms.FloatField:
    return forms.FloatField(
        label=label, required=False, widget=forms.NumberInput(attrs={"step": "any", "inputmode": "decimal"})
    )


class RunForm(forms.Form):
    """A run: what was run and how (the variables), what was observed per phase, and the conclusion."""

    name = forms.CharField(label=_("Run name"), max_length=200, help_text=_("e.g. “bf16 batch 16”."))
    code_version = forms.CharField(
        label=_("Code version"), max_length=200, required=False, help_text=_("A commit, tag or package version.")
    )
    environment = forms.CharField(label=_("Environment"), max_length=500, required=False)
    versions = PairsField(label=_("Library versions"))
    parameters = PairsField(label=_("Parameters"))
    seeds = PairsField(label=_("Seeds"))
    determinism = PairsField(label=_("Determinism settings"))
    reproducibility = forms.ChoiceField(
        label=_("Reproducibility definition"), choices=Reproducibility.choices, initial=Reproducibility.NOT_STATED
    )
    tolerance = forms.CharField(
        label=_("Tolerance"), max_length=200, required=False, help_text=_("e.g. “eval loss within ±0.002”.")
    )
    first_peak = PeaksField(label=_("Peak memory per GPU (GiB)"), required=False)
    first_throughput = _number(_("Throughput"))
    first_latency_ms = _number(_("Latency (ms)"))
    first_quality_value = _number(_("Quality value"))
    steady_peak = PeaksField(label=_("Peak memory per GPU (GiB)"), required=False)
    steady_throughput = _number(_("Throughput"))
    steady_latency_ms = _number(_("Latency (ms)"))
    steady_quality_value = _number(_("Quality value"))
    peak_source = forms.CharField(label=_("Peak read with"), max_length=100, required=False, initial="nvidia-smi")
    throughput_unit = forms.CharField(label=_("Throughput unit"), max_length=40, required=False, initial="tokens/s")
    quality_metric = forms.CharField(label=_("Quality metric"), max_length=100, required=False)
    outcome = forms.ChoiceField(label=_("Outcome"), choices=Outcome.choices, initial=Outcome.COMPLETED)
    failure = forms.CharField(
        label=_("Failure"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("For an out-of-memory or another failure: where it stopped and the error."),
    )
    checkpoint = forms.ChoiceField(label=_("Checkpoint"), choices=Checkpoint.choices, initial=Checkpoint.NONE)
    conclusion = forms.CharField(label=_("Conclusion"), required=False, widget=forms.Textarea(attrs=_TEXTAREA))

    # Where a service error about a field is shown on this form.
    SERVICE_FIELDS = {
        "first.peak": "first_peak",
        "steady.peak": "steady_peak",
        "first.quality_metric": "quality_metric",
        "steady.quality_metric": "quality_metric",
        "first.throughput": "first_throughput",
        "steady.throughput": "steady_throughput",
        "first.latency_ms": "first_latency_ms",
        "steady.latency_ms": "steady_latency_ms",
        "first.quality_value": "first_quality_value",
        "steady.quality_value": "steady_quality_value",
    }

    def field_for(self, service_field: str) -> str | None:
        """The form field a service error names, or None for a form-wide error."""
        name = self.SERVICE_FIELDS.get(service_field, service_field)
        return name if name in self.fields else None

    @classmethod
    def initial_from(cls, run: Run | None) -> dict[str, Any]:
        """Start a new run from the previous one, so changing one variable is changing one field."""
        if run is None:
            return {}
        return {
            "code_version": run.code_version,
            "environment": run.environment,
            "versions": pairs_to_text(run.versions),
            "parameters": pairs_to_text(run.parameters),
            "seeds": pairs_to_text(run.seeds),
            "determinism": pairs_to_text(run.determinism),
            "reproducibility": run.reproducibility,
            "tolerance": run.tolerance,
        }

    def _phase(self, phase: str) -> MeasurementDraft:
        data = self.cleaned_data
        return MeasurementDraft(
            peak_bytes_per_gpu=data[f"{phase}_peak"],
            peak_source=data["peak_source"] if data[f"{phase}_peak"] else "",
            throughput=data[f"{phase}_throughput"],
            throughput_unit=data["throughput_unit"] if data[f"{phase}_throughput"] is not None else "",
            latency_ms=data[f"{phase}_latency_ms"],
            quality_metric=data["quality_metric"] if data[f"{phase}_quality_value"] is not None else "",
            quality_value=data[f"{phase}_quality_value"],
        )

    def to_draft(self) -> RunDraft:
        data = self.cleaned_data
        return RunDraft(
            name=data["name"],
            code_version=data["code_version"],
            environment=data["environment"],
            versions=data["versions"],
            parameters=data["parameters"],
            seeds=data["seeds"],
            determinism=data["determinism"],
            reproducibility=data["reproducibility"],
            tolerance=data["tolerance"],
            outcome=data["outcome"],
            failure=data["failure"],
            checkpoint=data["checkpoint"],
            first=self._phase("first"),
            steady=self._phase("steady"),
            conclusion=data["conclusion"],
        )

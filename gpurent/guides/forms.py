"""The guide index's filters and the quote request form (input shape only; the service validates again)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from gpurent.catalog.models import GpuModel
from gpurent.catalog.selectors import gpu_list

from .enums import Endpoint, GuideWorkload, Scope, SupportLevel
from .models import SAMPLE_DATA_MAX_CHARS
from .services import QuoteDetails


def _listed(choices: list[tuple[str, Any]]) -> list[tuple[str, Any]]:
    """Choices as a list shows them, each capitalised like "All workloads": the labels are lowercase because a
    sentence quotes them ("L40S 48GB for full fine-tuning: pilot")."""
    return [(value, capfirst(label)) for value, label in choices]


__all__ = ["GuideFilterForm", "QuoteRequestForm"]


class ComparedGpuField(forms.ChoiceField):
    """A GPU select that offers a few GPUs (the guide page's decision table, the guide index's page of GPUs: at
    most a page's worth, whatever the catalog's size) and accepts any slug: what it names is checked by its form
    or by the service, so a link or a form sent from a page the catalog has since changed under still works."""

    def valid_value(self, value: Any) -> bool:
        return bool(value)


class GuideFilterForm(forms.Form):
    """`/guides/?gpu=…&workload=…&scope=…`: each filter optional; an unknown value is an error shown on the page."""

    gpu = ComparedGpuField(label=_("GPU"), required=False, choices=[("", _("All GPUs"))])
    workload = forms.ChoiceField(
        label=_("Workload"), required=False, choices=[("", _("All workloads")), *_listed(GuideWorkload.choices)]
    )
    scope = forms.ChoiceField(
        label=_("Scope"), required=False, choices=[("", _("All scopes")), *_listed(Scope.choices)]
    )

    def clean_gpu(self) -> str:
        """A slug on sale, or empty; another is an invalid choice (one indexed lookup, not the whole catalog)."""
        slug: str = self.cleaned_data["gpu"]
        if slug and not gpu_list().filter(slug=slug).exists():
            field = self.fields["gpu"]
            raise forms.ValidationError(field.error_messages["invalid_choice"], "invalid_choice", {"value": slug})
        return slug

    def offer(self, gpus: list[GpuModel]) -> None:
        """Offer "All GPUs" and `gpus` (the page's) in the GPU select, so it does not grow with the catalog."""
        self.fields["gpu"].choices = [("", _("All GPUs")), *((gpu.slug, gpu.name) for gpu in gpus)]  # type: ignore[attr-defined]

    def filters(self) -> dict[str, str]:
        """The valid filters (empty strings for "all"); invalid fields count as "all"."""
        data = self.cleaned_data if self.is_valid() else {}
        return {name: data.get(name) or "" for name in ("gpu", "workload", "scope")}


class QuoteRequestForm(forms.Form):
    """What a quote needs: the model, the GPU, how to reach it, how much help, which scope, data and load."""

    model_name = forms.CharField(
        label=_("Model"), max_length=200, help_text=_("A Hugging Face id or your own model's name and size.")
    )
    gpu = ComparedGpuField(label=_("GPU"))
    endpoint = forms.ChoiceField(label=_("Endpoint"), choices=Endpoint.choices)
    support_level = forms.ChoiceField(
        label=_("Support level"),
        choices=SupportLevel.choices,
        help_text=_(
            "Self-managed: the machine only. Assisted setup: we install the workload and hand it over. "
            "Managed: we operate it during the term."
        ),
    )
    delivery_scope = forms.ChoiceField(label=_("Delivery scope"), choices=_listed(Scope.choices))
    expected_load = forms.CharField(
        label=_("Expected request load"),
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("For example: 2,000 requests a day, peaks of 20 at once, 1,500 tokens in and 300 out."),
    )
    sample_data = forms.CharField(
        label=_("Sample data (optional)"),
        required=False,
        max_length=SAMPLE_DATA_MAX_CHARS,
        widget=forms.Textarea(attrs={"rows": 4, "spellcheck": "false"}),
        help_text=_("A few typical inputs as text, at most 20,000 characters. Leave out personal data and secrets."),
    )
    contact_email = forms.EmailField(label=_("Contact email"))

    def offer(self, gpus: list[tuple[str, str]]) -> None:
        """Offer `gpus` (slug, name) in the GPU select: the guide page's decision table, at most
        `DECISION_ROWS_SHOWN`, so the form does not grow with the catalog. A sent slug not among them stays
        selected, under its slug."""
        sent = self["gpu"].value() if self.is_bound else ""
        extra = [(sent, sent)] if sent and sent not in dict(gpus) else []
        self.fields["gpu"].choices = [*gpus, *extra]  # type: ignore[attr-defined]

    def details(self, *, guide_workload: str, guide_scope: str) -> QuoteDetails:
        """The cleaned fields for `quote_request_create` (call after `is_valid()`)."""
        data = self.cleaned_data
        return QuoteDetails(
            gpu_slug=data["gpu"],
            guide_workload=guide_workload,
            guide_scope=guide_scope,
            model_name=data["model_name"],
            endpoint=data["endpoint"],
            support_level=data["support_level"],
            delivery_scope=data["delivery_scope"],
            expected_load=data["expected_load"],
            contact_email=data["contact_email"],
            sample_data=data.get("sample_data") or "",
        )

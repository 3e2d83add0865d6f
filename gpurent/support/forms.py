"""HTML forms of support: the request form and the thread's message form (input shape only)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy
from django_stubs_ext import StrPromise

from gpurent.catalog.models import GpuModel
from gpurent.catalog.selectors import gpu_list
from gpurent.orders.models import Order
from gpurent.orders.selectors import order_list_for

from .limits import field_max_bytes
from .services import SUBJECT_MAX_CHARS, RequestInput


def _within_size_cap(value: str) -> None:
    limit = field_max_bytes()
    if len(value.encode()) > limit:
        raise ValidationError(
            _("This field is too long: at most %(limit)d kB. Keep the relevant part of the log."),
            params={"limit": limit // 1000},
            code="too_long",
        )


def _text(
    label: str | StrPromise, help_text: str | StrPromise = "", rows: int = 4, *, required: bool = False
) -> forms.CharField:
    return forms.CharField(
        label=label,
        help_text=help_text,
        required=required,
        strip=True,
        validators=[_within_size_cap],
        widget=forms.Textarea(attrs={"rows": rows, "spellcheck": "false"}),
    )


class SupportRequestForm(forms.Form):
    """Open a request: which rental and GPU it is about, and what happened, in the customer's words."""

    subject = forms.CharField(label=_("Subject"), max_length=SUBJECT_MAX_CHARS)
    order: forms.ModelChoiceField[Order] = forms.ModelChoiceField(
        label=_("Order"),
        queryset=None,
        to_field_name="ref",
        required=False,
        empty_label=_("Not about a specific order"),
        error_messages={"invalid_choice": _("Choose one of your own orders, or none.")},
    )
    gpu: forms.ModelChoiceField[GpuModel] = forms.ModelChoiceField(
        # Its own context: the model's verbose name "GPU model" is lower case in languages that start it with
        # a common noun (Spanish "modelo de GPU"); a field label starts with a capital.
        label=pgettext_lazy("form label", "GPU model"),
        queryset=None,
        to_field_name="slug",
        required=False,
        # Short: a chosen option shows whole in a phone's select (QA: "Same as the order, or not GPU-specific" was
        # cut in English at 390 px, and in Spanish and Turkish even at 1366 px).
        empty_label=_("The order's GPU, or none"),
        error_messages={"invalid_choice": _("Choose a GPU model from the catalog, or none.")},
    )
    library_versions = _text(
        _("Library versions"), _("For example: CUDA 12.4, driver 550.54, PyTorch 2.4.1, transformers 4.44."), 3
    )
    reproduction_steps = _text(_("Steps to reproduce"), _("The commands you ran, in order."), 5)
    expected = _text(_("Expected result"), rows=3)
    observed = _text(_("Observed result"), rows=3, required=True)
    logs = _text(
        _("Messages and logs"),
        _(
            "Paste error messages or logs as text. Secrets such as API keys, passwords and seed phrases "
            "are removed before anything is saved."
        ),
        10,
    )

    def __init__(self, *args: Any, owner: AbstractBaseUser, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["order"].queryset = order_list_for(owner)  # type: ignore[attr-defined]
        self.fields["gpu"].queryset = gpu_list(include_off_sale=True)  # type: ignore[attr-defined]
        self.fields["order"].label_from_instance = lambda order: f"{order.ref} · {order.gpu.name}"  # type: ignore[attr-defined]

    def to_input(self) -> RequestInput:
        data = self.cleaned_data
        return RequestInput(
            subject=data["subject"],
            observed=data["observed"],
            order_ref=data["order"].ref if data["order"] else "",
            gpu_slug=data["gpu"].slug if data["gpu"] else "",
            library_versions=data["library_versions"],
            reproduction_steps=data["reproduction_steps"],
            expected=data["expected"],
            logs=data["logs"],
        )


class MessageForm(forms.Form):
    """Write to the thread of a request."""

    body = _text(_("Your message"), _("Secrets are removed before the message is saved."), 5, required=True)

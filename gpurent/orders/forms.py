from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from gpurent.accounts.models import SshKey, User
from gpurent.accounts.selectors import ssh_key_list
from gpurent.catalog.enums import MAX_LOTS_PER_ORDER, MIN_LOTS_PER_ORDER, Term
from gpurent.catalog.models import GpuModel
from gpurent.catalog.selectors import gpu_list
from gpurent.core.names import in_writing_order

from .checkout import CheckoutDraft
from .enums import Environment

LOTS_ERRORS = {
    "min_value": _("Choose at least %(limit_value)s lot."),
    "max_value": _("An order holds at most %(limit_value)s lots."),
    "invalid": _("Enter a whole number of lots."),
    "required": _("Enter a number of lots."),
}


class CheckoutChoiceForm(forms.Form):
    """Step 1: which GPU, for how long, how many lots, and which environment."""

    gpu = forms.ModelChoiceField(
        label=_("GPU"),
        queryset=GpuModel.objects.none(),
        to_field_name="slug",
        empty_label=None,
        error_messages={"invalid_choice": _("This GPU model is not on sale.")},
    )
    term = forms.TypedChoiceField(
        label=_("Term"), choices=Term.choices, coerce=int, initial=Term.WEEK, widget=forms.RadioSelect
    )
    lots = forms.IntegerField(
        label=_("Lots"),
        min_value=MIN_LOTS_PER_ORDER,
        max_value=MAX_LOTS_PER_ORDER,
        initial=1,
        error_messages=LOTS_ERRORS,
    )
    environment = forms.ChoiceField(
        label=_("Environment"), choices=Environment.choices, initial=Environment.PYTORCH, widget=forms.RadioSelect
    )
    environment_note = forms.CharField(
        label=_("Describe the environment"),
        max_length=200,
        required=False,
        help_text=_("Only for Other: the OS image, drivers or software you need."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["gpu"].queryset = gpu_list()  # type: ignore[attr-defined]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        gpu, lots = cleaned.get("gpu"), cleaned.get("lots")
        if cleaned.get("environment") == Environment.OTHER and not cleaned.get("environment_note", "").strip():
            self.add_error("environment_note", _("Describe the environment you need."))
        if isinstance(gpu, GpuModel) and isinstance(lots, int) and lots > gpu.stock_lots:
            if gpu.stock_lots == 0:
                self.add_error("lots", _("%(gpu)s is sold out right now.") % {"gpu": gpu.name})
            else:
                self.add_error(
                    "lots",
                    _("Only %(stock)d lots of %(gpu)s are in stock.") % {"stock": gpu.stock_lots, "gpu": gpu.name},
                )
        return cleaned

    def to_draft(self) -> CheckoutDraft:
        data = self.cleaned_data
        note = data["environment_note"].strip() if data["environment"] == Environment.OTHER else ""
        return CheckoutDraft(
            gpu_slug=data["gpu"].slug,
            term_days=data["term"],
            lots=data["lots"],
            environment=data["environment"],
            environment_note=note,
        )


class PlaceOrderForm(forms.Form):
    """The summary step: the choice being confirmed (hidden, checked against the draft) and the contact."""

    gpu = forms.CharField(widget=forms.HiddenInput)
    term = forms.IntegerField(widget=forms.HiddenInput)
    lots = forms.IntegerField(widget=forms.HiddenInput)
    environment = forms.CharField(widget=forms.HiddenInput)
    environment_note = forms.CharField(widget=forms.HiddenInput, required=False)
    contact_first_name = forms.CharField(label=_("First name"), max_length=150)
    contact_last_name = forms.CharField(label=_("Last name"), max_length=150)
    contact_email = forms.EmailField(label=_("Contact email"))
    ssh_keys = forms.ModelMultipleChoiceField(
        label=_("SSH keys to install on the machine"),
        queryset=SshKey.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Untick a key to leave it off this machine. With no key, you get a one-time password."),
    )

    def __init__(self, *args: Any, user: User, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.order_fields(in_writing_order("contact_first_name", "contact_last_name"))  # Vietnamese: Họ, then Tên
        keys = ssh_key_list(user=user)
        self.fields["ssh_keys"].queryset = keys  # type: ignore[attr-defined]
        self.fields["ssh_keys"].label_from_instance = lambda key: f"{key.name} · {key.fingerprint}"  # type: ignore[attr-defined]
        if not self.is_bound:
            self.initial["ssh_keys"] = [key.pk for key in keys]  # all of them by default

    @classmethod
    def for_draft(cls, draft: CheckoutDraft, *, user: User) -> PlaceOrderForm:
        return cls(
            user=user,
            initial={
                "gpu": draft.gpu_slug,
                "term": draft.term_days,
                "lots": draft.lots,
                "environment": draft.environment,
                "environment_note": draft.environment_note,
                "contact_first_name": user.first_name,
                "contact_last_name": user.last_name,
                "contact_email": user.email,
            },
        )

    def matches(self, draft: CheckoutDraft) -> bool:
        """Whether the posted choice is the one in the session (it changes if another tab edits the draft)."""
        data = self.cleaned_data
        posted = (data["gpu"], data["term"], data["lots"], data["environment"], data["environment_note"])
        return posted == (draft.gpu_slug, draft.term_days, draft.lots, draft.environment, draft.environment_note)

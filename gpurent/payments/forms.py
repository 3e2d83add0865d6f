from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from gpurent.core.forms import UsdField
from gpurent.core.money import Usd

from .addresses import validate_address
from .assets import pair_from_key, pairs_for_choice
from .errors import InvalidAddress
from .payouts import payout_amount_refusal


class PairForm(forms.Form):
    """Which asset on which network to pay with; the network is always named next to the asset."""

    pair = forms.ChoiceField(label=_("Pay with"), choices=pairs_for_choice)


class TopUpForm(forms.Form):
    amount_usd = UsdField(label=_("Amount (USD)"), min_value=Usd(500), max_value=Usd(10_000_000), initial=Usd(10_000))


class PayoutForm(forms.Form):
    """A withdrawal: to which address, on which network, how much of the balance (the fee is taken from it)."""

    pair = forms.ChoiceField(label=_("Receive in"), choices=pairs_for_choice)
    address = forms.CharField(label=_("Your address on that network"), max_length=128)
    amount_usd = UsdField(label=_("Amount (USD)"), min_value=Usd(1), max_value=Usd(10_000_000))

    def __init__(self, *args: Any, available: Usd | None = None, **kwargs: Any) -> None:
        """`available`: the balance a withdrawal may take now, to say beside the form's other errors that the
        amount is more (None: not checked here)."""
        super().__init__(*args, **kwargs)
        self.available = available

    def clean(self) -> dict[str, Any]:
        """Every refusal that can be known before asking for the withdrawal, each under its field, all at once
        (QA walk 2): an address not of that network, an amount below the minimum, and, when the form is refused
        anyway, an amount over the available balance. A form with no other error leaves the balance to
        `payout_request`: the same form sent twice (a double click) must replay the first answer, "requested",
        not be refused for the balance that its first sending spent."""
        data = super().clean() or {}
        if data.get("pair") and data.get("address"):
            try:
                validate_address(pair_from_key(data["pair"]).network, data["address"])
            except InvalidAddress as error:
                self.add_error("address", error.message)
        amount = data.get("amount_usd")
        if amount is not None and (refusal := payout_amount_refusal(amount)):
            self.add_error("amount_usd", refusal.message)
        elif amount is not None and self.errors and (over := payout_amount_refusal(amount, available=self.available)):
            self.add_error("amount_usd", over.message)
        return data

from django import forms
from django.utils.translation import gettext_lazy as _

from .assets import pairs_for_choice


class PairForm(forms.Form):
    """Which asset on which network to pay with; the network is always named next to the asset."""

    pair = forms.ChoiceField(label=_("Pay with"), choices=pairs_for_choice)


class TopUpForm(forms.Form):
    amount_usd = forms.DecimalField(
        label=_("Amount (USD)"), min_value=5, max_value=100_000, decimal_places=2, max_digits=9, initial=100
    )


class PayoutForm(forms.Form):
    """A withdrawal: to which address, on which network, how much of the balance (the fee is taken from it)."""

    pair = forms.ChoiceField(label=_("Receive in"), choices=pairs_for_choice)
    address = forms.CharField(label=_("Your address on that network"), max_length=128)
    amount_usd = forms.DecimalField(
        label=_("Amount (USD)"), min_value=0.01, max_value=100_000, decimal_places=2, max_digits=9
    )

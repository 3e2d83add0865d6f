from django import forms
from django.utils.translation import gettext_lazy as _

from gpurent.core.forms import UsdField
from gpurent.core.money import Usd

from .assets import pairs_for_choice


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

"""Demo payment set-up for the embedded shop (`manage.py load_demo`): rates and receiving addresses.

The addresses are valid in format but made from a hash, so nobody holds their keys: a payment sent to them is
lost. Pages say so while `PAYMENTS_DEMO_NOTICE` is on (local settings), and say the opposite of an address that
is not one of them (`address_origin`): one derived from the operator's own key, or entered by the operator, is
real. Production loads real addresses.
"""

from __future__ import annotations

from decimal import Decimal

from django.db import transaction
from django.utils import timezone

from .models import AddressMode, DerivedAddress, ExchangeRate, PaymentIntent, ReceivingAddress
from .networks import all_networks

__all__ = ["DEMO_RATES", "address_origin", "demo_addresses", "load_demo_payments"]

# Plausible USD prices, refreshed (as_of = now) at every load so the embedded shop can quote.
DEMO_RATES = {
    "BTC": "97000",
    "ETH": "3500",
    "USDT": "1",
    "USDC": "1",
    "SOL": "150",
    "TRX": "0.25",
    "LTC": "80",
}


def demo_addresses() -> dict[str, str]:
    """One unspendable, well-formed address per network (its module's `demo_address`)."""
    return {network.id: network.demo_address for network in all_networks()}


def address_origin(intent: PaymentIntent) -> str:
    """How the intent's address was made, for the demo shop's notice: "placeholder" (one of `demo_addresses`:
    nobody can spend from it), "derived" (from a watch-only key an operator registered: the operator's own
    wallet) or "real" (entered by an operator, or given by the payment processor); "" before it has one."""
    if not intent.address:
        return ""
    if demo_addresses().get(intent.network) == intent.address:
        return "placeholder"
    if DerivedAddress.objects.filter(network=intent.network, address=intent.address).exists():
        return "derived"
    return "real"


def load_demo_payments() -> tuple[int, int]:
    """Refresh the demo rates and make sure each network has a shared demo address. Returns (rates, addresses)."""
    now = timezone.now()
    added = 0
    with transaction.atomic():
        for asset, rate in DEMO_RATES.items():
            ExchangeRate.objects.create(asset=asset, usd_per_unit=Decimal(rate), source="demo data", as_of=now)
        for network, address in demo_addresses().items():
            _, created = ReceivingAddress.objects.get_or_create(
                network=network,
                address=address,
                memo="",
                defaults={"mode": AddressMode.SHARED, "label": "demo (unspendable)"},
            )
            added += created
    return len(DEMO_RATES), added

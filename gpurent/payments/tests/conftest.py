"""Payment fixtures: fresh rates and one shared receiving address per network (published valid addresses)."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from gpurent.orders.services import Contact, order_place
from gpurent.payments.models import ExchangeRate, ReceivingAddress

SHARED_ADDRESSES = {
    "bitcoin": "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
    "ethereum": "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",  # EIP-55 example
    "tron": "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
    "solana": "vines1vzrYbzLMRdu58ou5XTby4qAqVRLmqo36NKPTg",  # the Solana docs' example account
    "litecoin": "LVg2kJoFNg45Nbpy53h7Fe1wKyeXVRhMH9",
}
RATES = {"BTC": "97000", "ETH": "3500", "USDT": "1", "USDC": "1", "SOL": "150", "TRX": "0.25", "LTC": "80"}


@pytest.fixture
def payment_setup(db):
    now = timezone.now()
    for asset, rate in RATES.items():
        ExchangeRate.objects.create(asset=asset, usd_per_unit=Decimal(rate), source="test", as_of=now)
    for network, address in SHARED_ADDRESSES.items():
        ReceivingAddress.objects.create(network=network, address=address, mode="shared")


@pytest.fixture
def customer(django_user_model):
    return django_user_model.objects.create_user("pay@example.com", "passphrase 12", first_name="Pay", last_name="Er")


@pytest.fixture
def order(customer, gpu, payment_setup):
    """An A100 order for 7 days, 2 lots: $410.00."""
    return order_place(
        owner=customer,
        gpu_slug=gpu.slug,
        term_days=7,
        lots=2,
        environment="ubuntu",
        contact=Contact("Pay", "Er", "pay@example.com"),
    )


def later(minutes: int = 31):
    return timezone.now() + timedelta(minutes=minutes)

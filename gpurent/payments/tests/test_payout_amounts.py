"""What a withdrawal should send in its asset, and the 10 % check of the amount recorded as sent (outside QA walk
of the back office, defect 3: 0.3 BTC recorded as sent for $299 owed)."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from gpurent.core.money import Usd
from gpurent.ledger.services import EXTERNAL_CRYPTO, customer_account, system_account, transfer_post
from gpurent.payments.assets import pair_get
from gpurent.payments.models import ExchangeRate
from gpurent.payments.payout_amounts import SENT_TOLERANCE_PERCENT, SentCheck, payout_quote
from gpurent.payments.payouts import payout_request

pytestmark = pytest.mark.django_db

BTC = pair_get("BTC", "bitcoin")
BECH32 = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"


@pytest.fixture
def btc_payout(customer, payment_setup, settings):
    """$300.00 asked, a $1.00 fee: $299.00 to send, 0.00308248 BTC at the fixtures' 97,000 USD/BTC."""
    settings.PAYOUTS_MIN_CENTS, settings.PAYOUTS_FEE_CENTS = 2_000, 100
    transfer_post(
        reference="deposit:D-AMOUNTS",
        debit=system_account(EXTERNAL_CRYPTO),
        credit=customer_account(customer),
        amount=Usd(50_000),
    )
    return payout_request(owner=customer, asset="BTC", network="bitcoin", address=BECH32, amount=Usd(30_000))


def test_the_quote_is_the_net_amount_in_the_asset_at_the_latest_rate_rounded_up(btc_payout):
    quote = payout_quote(btc_payout, BTC)
    assert quote is not None
    # 29,900 cents × 10^8 / (100 × 97,000) = 308,247.4…, rounded up as every quote.
    assert (quote.usd, quote.units, quote.rate.usd_per_unit, quote.stale) == (
        Usd(29_900),
        308_248,
        Decimal("97000"),
        "",
    )


def test_a_rate_too_old_to_quote_with_still_quotes_and_says_why(btc_payout):
    ExchangeRate.objects.filter(asset="BTC").update(as_of=timezone.now() - timedelta(hours=2))
    quote = payout_quote(btc_payout, BTC)
    assert quote is not None
    assert quote.units == 308_248
    assert quote.stale == "The latest BTC exchange rate is 120 minutes old (the limit is 15 minutes), so no amount " + (
        "can be quoted. Try again later."
    )


def test_no_rate_at_all_gives_no_quote(btc_payout):
    ExchangeRate.objects.filter(asset="BTC").delete()
    assert payout_quote(btc_payout, BTC) is None


@pytest.mark.parametrize(
    ("sent_units", "within", "percent"),
    [
        (308_248, True, "0.0"),
        (339_072, True, "10.0"),  # 308,248 × 1.1 = 339,072.8: the last unit inside
        (339_073, False, "10.0"),  # one unit past 10 % (the percent is rounded for people, the check is exact)
        (277_424, True, "-10.0"),  # 308,248 × 0.9 = 277,423.2
        (277_423, False, "-10.0"),
        (30_000_000, False, "9632.4"),  # the QA's 0.3 BTC for 0.00308248
        (30_000, False, "-90.3"),  # a decimal point one place left
    ],
)
def test_an_amount_more_than_ten_percent_from_the_quote_either_way_is_outside_the_tolerance(
    btc_payout, sent_units, within, percent
):
    check = SentCheck(BTC, sent_units, payout_quote(btc_payout, BTC))
    assert SENT_TOLERANCE_PERCENT == 10
    assert (check.within_tolerance, str(check.percent_off)) == (within, percent)


def test_without_a_quote_no_amount_is_within_the_tolerance(btc_payout):
    check = SentCheck(BTC, 308_248, None)
    assert (check.within_tolerance, check.percent_off, check.sent_usd) == (False, None, None)


def test_the_record_keeps_the_quote_its_rate_and_the_confirmation(btc_payout):
    check = SentCheck(BTC, 30_000_000, payout_quote(btc_payout, BTC))
    record = check.record(confirmed=True)
    assert check.sent_usd == Usd(29_100_00)
    assert {key: value for key, value in record.items() if key != "rate_as_of"} == {
        "sent": "0.30000000",
        "expected": "0.00308248",
        "usd_per_unit": "97000.000000000000",
        "rate_stale": "",
        "percent_off": "9632.4",
        "tolerance_percent": 10,
        "difference_confirmed": True,
    }

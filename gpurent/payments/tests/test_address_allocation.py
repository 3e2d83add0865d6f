import uuid
from collections import Counter
from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from django.db.transaction import TransactionManagementError

from gpurent.core.errors import InvalidRequest
from gpurent.core.testing import run_concurrently
from gpurent.payments.assets import pair_get
from gpurent.payments.errors_crypto import InvalidAddress, NoReceivingAddress
from gpurent.payments.intents.allocation import Allocation, address_allocate, network_has_memo, receiving_address_add
from gpurent.payments.models import (
    AddressMode,
    Deposit,
    DepositKind,
    IntentStatus,
    PaymentIntent,
    ReceivingAddress,
)

NOW = datetime(2026, 12, 2, 10, 0, tzinfo=UTC)
USDT_TRON = pair_get("USDT", "tron")
TRX = pair_get("TRX", "tron")
USDC_ETH = pair_get("USDC", "ethereum")
TRON_A = "TNDzfERDpxLDS2w1q6yaFC7pzqaSQ3Bg3r"
TRON_B = "TFEkshkSXo8yMe8vcA6P77XmiLfstNWHyT"
TRON_C = "TUBBzKNM9gr687ucwj8fvVS2Sf2e4WseVa"
ETH_ADDRESS = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"


@pytest.fixture
def owner(django_user_model):
    return django_user_model.objects.create_user(
        "c@example.com", "long enough passphrase", first_name="C", last_name="U"
    )


def open_intent(owner, *, address, amount_units, status=IntentStatus.AWAITING_PAYMENT, expires_at=None, network="tron"):
    """An intent holding `amount_units` on `address` (a top-up, so no order is needed)."""
    deposit = Deposit.objects.create(
        ref=f"D-{uuid.uuid4().hex[:10]}", owner=owner, kind=DepositKind.TOP_UP, requested_cents=1_000
    )
    return PaymentIntent.objects.create(
        owner=owner,
        deposit=deposit,
        asset="USDT",
        network=network,
        amount_units=amount_units,
        rate_usd=Decimal("1"),
        usd_cents=1_000,
        address=address,
        expires_at=expires_at or NOW + timedelta(minutes=30),
        status=status,
    )


def allocate(pair=USDT_TRON, amount_units=10_000_000, now=NOW):
    with transaction.atomic():
        return address_allocate(pair=pair, amount_units=amount_units, now=now)


# --- loading addresses ------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_receiving_address_add_stores_the_canonical_form():
    row = receiving_address_add(network="ethereum", address=f" {ETH_ADDRESS.lower()} ", label="cold wallet 1")
    assert (row.address, row.mode, row.memo, row.label, row.active) == (ETH_ADDRESS, "pool", "", "cold wallet 1", True)
    assert row.allocated_at is None
    assert str(row) == f"ethereum {ETH_ADDRESS} (pool)"


@pytest.mark.django_db
def test_receiving_address_add_refuses_invalid_addresses_and_unknown_networks():
    with pytest.raises(InvalidAddress, match="Tron"):
        receiving_address_add(network="tron", address="TR7NHqjeKQxGTCi8q8ZY4pL8otSzg5uV7p")
    with pytest.raises(InvalidAddress, match="dogecoin"):
        receiving_address_add(network="dogecoin", address="DFundmtrigzA6E25Swr2pRe4Eb79bGP8G1")
    assert not ReceivingAddress.objects.exists()


@pytest.mark.django_db
def test_receiving_address_add_refuses_a_duplicate_even_in_another_spelling():
    receiving_address_add(network="ethereum", address=ETH_ADDRESS)
    with pytest.raises(InvalidRequest, match="already loaded"):
        receiving_address_add(network="ethereum", address=ETH_ADDRESS.lower(), mode=AddressMode.SHARED)
    assert ReceivingAddress.objects.count() == 1


@pytest.mark.django_db
def test_receiving_address_add_refuses_memos_and_unknown_modes():
    assert not any(network_has_memo(n) for n in ("bitcoin", "ethereum", "solana", "tron", "litecoin"))
    with pytest.raises(InvalidRequest, match="carry no memo"):
        receiving_address_add(network="tron", address=TRON_A, memo="123")
    with pytest.raises(InvalidRequest, match="mode"):
        receiving_address_add(network="tron", address=TRON_A, mode="sometimes")


@pytest.mark.django_db
def test_receiving_address_clean_validates_and_canonicalizes():
    row = ReceivingAddress(network="ethereum", address=ETH_ADDRESS.upper().replace("0X", "0x"))
    row.full_clean()
    assert row.address == ETH_ADDRESS
    with pytest.raises(ValidationError) as caught:
        ReceivingAddress(network="tron", address="T123").full_clean()
    assert caught.value.message_dict["address"] == ["This is not a valid Tron address."]


@pytest.mark.django_db
def test_receiving_address_shared_rows_cannot_be_marked_allocated():
    with pytest.raises(IntegrityError), transaction.atomic():
        ReceivingAddress.objects.create(network="tron", address=TRON_A, mode=AddressMode.SHARED, allocated_at=NOW)


# --- pool -------------------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_address_allocate_pool_address_is_single_use():
    first = receiving_address_add(network="tron", address=TRON_A)
    second = receiving_address_add(network="tron", address=TRON_B)
    got = [allocate(), allocate()]
    assert got == [
        Allocation(TRON_A, "", first.pk, 10_000_000, "pool"),
        Allocation(TRON_B, "", second.pk, 10_000_000, "pool"),
    ]
    assert set(ReceivingAddress.objects.values_list("allocated_at", flat=True)) == {NOW}
    with pytest.raises(NoReceivingAddress) as caught:
        allocate()
    error = caught.value
    assert (error.code, error.status, error.replayable) == ("payments_unavailable", 503, False)
    assert error.message == (
        "Payments in USDT on Tron (TRC-20) are unavailable right now: no receiving address is free. "
        "Choose another network or try again later."
    )


@pytest.mark.django_db
def test_address_allocate_tokens_use_their_networks_addresses():
    receiving_address_add(network="tron", address=TRON_A)
    receiving_address_add(network="ethereum", address=ETH_ADDRESS)
    assert allocate(USDC_ETH).address == ETH_ADDRESS
    assert allocate(TRX).address == TRON_A
    with pytest.raises(NoReceivingAddress):
        allocate(pair_get("BTC", "bitcoin"))


@pytest.mark.django_db
def test_address_allocate_skips_inactive_addresses():
    receiving_address_add(network="tron", address=TRON_A)
    ReceivingAddress.objects.update(active=False)
    with pytest.raises(NoReceivingAddress):
        allocate()


@pytest.mark.django_db
def test_address_allocate_prefers_the_pool_over_a_shared_address():
    receiving_address_add(network="tron", address=TRON_A, mode=AddressMode.SHARED)
    receiving_address_add(network="tron", address=TRON_B)
    assert (allocate().address, allocate().address) == (TRON_B, TRON_A)


@pytest.mark.django_db(transaction=True)
def test_address_allocate_outside_a_transaction_is_a_programming_error():
    with pytest.raises(TransactionManagementError):
        address_allocate(pair=USDT_TRON, amount_units=1, now=NOW)


@pytest.mark.django_db
@pytest.mark.parametrize("amount", [0, -1, 1.5, True])
def test_address_allocate_refuses_amounts_that_are_not_positive_ints(amount):
    with pytest.raises(ValueError, match="positive int"):
        allocate(amount_units=amount)


# --- shared: unique amounts -------------------------------------------------------------------------------------


@pytest.fixture
def shared_tron(db):
    return receiving_address_add(network="tron", address=TRON_A, mode=AddressMode.SHARED)


def test_address_allocate_shared_free_amount_is_kept(shared_tron):
    assert allocate() == Allocation(TRON_A, "", shared_tron.pk, 10_000_000, "shared")
    assert ReceivingAddress.objects.get().allocated_at is None


def test_address_allocate_shared_taken_amount_is_bumped_by_one_unit(owner, shared_tron):
    open_intent(owner, address=TRON_A, amount_units=10_000_000)
    open_intent(owner, address=TRON_A, amount_units=10_000_001)
    open_intent(owner, address=TRON_A, amount_units=10_000_003)
    assert allocate().amount_units == 10_000_002


def test_address_allocate_shared_each_intent_gets_its_own_amount(owner, shared_tron):
    amounts = []
    for _ in range(5):
        allocation = allocate()
        open_intent(owner, address=allocation.address, amount_units=allocation.amount_units)
        amounts.append(allocation.amount_units)
    assert amounts == [10_000_000, 10_000_001, 10_000_002, 10_000_003, 10_000_004]


def test_address_allocate_shared_uses_a_second_address_before_bumping(owner, shared_tron):
    second = receiving_address_add(network="tron", address=TRON_B, mode=AddressMode.SHARED)
    open_intent(owner, address=TRON_A, amount_units=10_000_000)
    assert allocate() == Allocation(TRON_B, "", second.pk, 10_000_000, "shared")


@pytest.mark.parametrize(
    ("status", "expires_in", "holds"),
    [
        (IntentStatus.AWAITING_PAYMENT, timedelta(minutes=1), True),
        (IntentStatus.AWAITING_PAYMENT, timedelta(hours=-23), True),  # the sweep has not run yet
        (IntentStatus.EXPIRED, timedelta(hours=-23), True),  # a late payment must still match one intent
        (IntentStatus.EXPIRED, timedelta(hours=-25), False),
        (IntentStatus.CONFIRMED, timedelta(minutes=1), False),
        (IntentStatus.REJECTED, timedelta(minutes=1), False),
        (IntentStatus.REVIEW, timedelta(minutes=1), False),
    ],
)
def test_address_allocate_shared_amount_is_held_by_open_and_recently_expired_intents(
    owner, shared_tron, status, expires_in, holds
):
    open_intent(owner, address=TRON_A, amount_units=10_000_000, status=status, expires_at=NOW + expires_in)
    assert allocate().amount_units == (10_000_001 if holds else 10_000_000)


def test_address_allocate_shared_hold_can_be_switched_off(owner, shared_tron, settings):
    settings.PAYMENTS_SHARED_AMOUNT_HOLD_SECONDS = 0
    open_intent(owner, address=TRON_A, amount_units=10_000_000, status=IntentStatus.EXPIRED, expires_at=NOW)
    assert allocate().amount_units == 10_000_000


def test_address_allocate_shared_ignores_intents_on_other_addresses_and_networks(owner, shared_tron):
    open_intent(owner, address=TRON_B, amount_units=10_000_000)
    open_intent(owner, address=TRON_A, amount_units=10_000_000, network="ethereum")
    assert allocate().amount_units == 10_000_000


def test_address_allocate_shared_gives_up_after_the_bump_limit(owner, shared_tron, settings):
    settings.PAYMENTS_SHARED_AMOUNT_MAX_BUMPS = 2
    for amount in (10_000_000, 10_000_001, 10_000_002):
        open_intent(owner, address=TRON_A, amount_units=amount)
    with pytest.raises(NoReceivingAddress):
        allocate()


# --- concurrency (PostgreSQL) -----------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="concurrency is only meaningful on PostgreSQL")
def test_address_allocate_concurrent_checkouts_never_share_a_pool_address():
    addresses = [TRON_A, TRON_B, TRON_C]
    for address in addresses:
        receiving_address_add(network="tron", address=address)

    def take(_index):
        with transaction.atomic():
            allocation = address_allocate(pair=USDT_TRON, amount_units=1_000_000, now=NOW)
            # Hold the lock a moment, as a real intent insert would, so the others must skip this row.
            connection.cursor().execute("SELECT pg_sleep(0.05)")
            return allocation.address

    results = Counter(run_concurrently(12, take))
    assert results == {TRON_A: 1, TRON_B: 1, TRON_C: 1, NoReceivingAddress.__name__: 9}
    assert ReceivingAddress.objects.filter(allocated_at__isnull=True).count() == 0


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="concurrency is only meaningful on PostgreSQL")
def test_address_allocate_concurrent_checkouts_on_a_shared_address_get_distinct_amounts(django_user_model):
    owner = django_user_model.objects.create_user(
        "c@example.com", "long enough passphrase", first_name="C", last_name="U"
    )
    receiving_address_add(network="tron", address=TRON_A, mode=AddressMode.SHARED)

    def take(_index):
        with transaction.atomic():
            allocation = address_allocate(pair=USDT_TRON, amount_units=1_000_000, now=NOW)
            open_intent(owner, address=allocation.address, amount_units=allocation.amount_units)
            return allocation.amount_units

    amounts = run_concurrently(8, take)
    assert sorted(amounts) == list(range(1_000_000, 1_000_008))
    assert PaymentIntent.objects.values("amount_units").distinct().count() == 8

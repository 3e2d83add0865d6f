"""Choosing where an intent is paid: a derived address, a fresh pool address, or a shared address with a unique
exact amount.

DESIGN §5: "each open intent must be attributable without guessing". The order of preference:

0. **Derived** (`PAYMENTS_ADDRESS_MODES[network] == "xpub"`, the default where the network allows it, and an
   active `ExtendedPublicKey` registered): the next index of the operator's watch-only account key, given to
   this intent alone (docs/decisions/0140). Without a registered key the network falls back to 1 and 2.
1. **Pool** (`AddressMode.POOL`): a single-use address the operator loaded. It is given to one intent and never
   again, so anything that ever reaches it — late, partial, twice — belongs to that intent.
2. **Shared** (`AddressMode.SHARED`): one address for many intents. Each intent gets an amount that no other
   intent *holding* that address has: open ones, and those expired within `PAYMENTS_SHARED_AMOUNT_HOLD_SECONDS`
   (a late payment must still point at one intent, not two). A taken amount is bumped by one quote unit, up
   to `PAYMENTS_SHARED_AMOUNT_MAX_BUMPS` times; the caller quotes the returned amount.
3. Otherwise `NoReceivingAddress` (503 `payments_unavailable`): the customer picks another network.

Tokens use their network's addresses (USDT-ERC20 is received on Ethereum addresses).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.db.transaction import TransactionManagementError

from gpurent.core.errors import InvalidRequest

from ..addresses import validate_address
from ..assets import MAX_UNITS, NETWORKS, PAIRS, Pair
from ..errors_crypto import InvalidAddress, NoReceivingAddress
from ..models.addresses import AddressMode, ReceivingAddress
from ..models.chain import DerivedAddress, ExtendedPublicKey
from ..models.intents import IntentStatus, PaymentIntent
from .derivation import DERIVABLE_NETWORKS, AccountKey, account_key_parse, address_derive

__all__ = [
    "Allocation",
    "address_allocate",
    "address_mode",
    "extended_key_register",
    "gap_report",
    "network_has_memo",
    "receiving_address_add",
    "shared_amount_holders",
]

XPUB = "xpub"

# How many free pool rows to try when another transaction takes the one we found first (only possible on a
# database without SKIP LOCKED; PostgreSQL skips rows locked by others, SQLite serializes writers).
_POOL_ATTEMPTS = 5


@dataclass(frozen=True, slots=True)
class Allocation:
    """Where to pay, and exactly how much.

    `amount_units` may be larger than requested (a shared address bumps a taken amount by one quote unit per
    try): the intent must quote this amount.
    """

    address: str
    memo: str
    receiving_address_id: int | None
    amount_units: int
    mode: str


def address_mode(network: str) -> str:
    """The configured first choice for `network`: "xpub" (derive, falling back to the pool and shared
    addresses when no key is registered) or "pool" (pool, then shared). Solana is always "pool"."""
    configured: dict[str, str] = getattr(settings, "PAYMENTS_ADDRESS_MODES", {})
    default = XPUB if network in DERIVABLE_NETWORKS else AddressMode.POOL
    mode = configured.get(network, default)
    return mode if mode == XPUB and network in DERIVABLE_NETWORKS else AddressMode.POOL


def network_has_memo(network: str) -> bool:
    """Whether payments on the network can carry a memo/tag that attributes them (none of ours do today)."""
    return any(pair.needs_memo for pair in PAIRS if pair.network == network)


def address_allocate(*, pair: Pair, amount_units: int, now: datetime) -> Allocation:
    """Reserve a receiving address for a new intent of `pair` for `amount_units` (quote units).

    Must run inside the caller's transaction, the one that inserts the intent: the rows locked here stay
    locked until that intent exists, which is what makes a pool address single-use and a shared amount unique
    under concurrency.

    Raises:
        TransactionManagementError: called outside a transaction.
        NoReceivingAddress: no free pool address and no shared address with a free amount on the network.
    """
    if not transaction.get_connection().in_atomic_block:
        raise TransactionManagementError("address_allocate runs inside the transaction that creates the intent")
    if type(amount_units) is not int or not 0 < amount_units <= MAX_UNITS:
        raise ValueError(f"amount_units must be a positive int, got {amount_units!r}")
    derived = _derived_take(pair.network) if address_mode(pair.network) == XPUB else None
    if derived is not None:
        return Allocation(derived.address, "", None, amount_units, XPUB)
    pooled = _pool_take(pair.network, now)
    if pooled is not None:
        return Allocation(pooled.address, pooled.memo, pooled.pk, amount_units, AddressMode.POOL)
    shared = _shared_with_free_amount(pair, amount_units, now)
    if shared is not None:
        return shared
    raise NoReceivingAddress(
        f"Payments in {pair.label} are unavailable right now: no receiving address is free. "
        "Choose another network or try again later."
    )


def _derived_take(network: str) -> DerivedAddress | None:
    # The key row lock serializes index allocation per network; the unique (key, index) constraint is the
    # guarantee. Indexes are never reused, even for intents never paid: a late payment must find one owner.
    key = ExtendedPublicKey.objects.select_for_update().filter(network=network, active=True).first()
    if key is None:
        return None
    index = key.next_index
    address = address_derive(account_key_parse(network, key.key), index)
    ExtendedPublicKey.objects.filter(pk=key.pk).update(next_index=index + 1)
    return DerivedAddress.objects.create(key=key, network=network, index=index, address=address)


def gap_report(network: str) -> dict[str, object]:
    """For the network's active key: how many addresses were given out, how many at the end were never paid
    (the BIP44 "gap"), and whether that exceeds `PAYMENTS_XPUB_GAP_LIMIT` (default 20, the wallets' usual
    gap limit). Most intents expire unpaid, so the gap grows; the shop never reuses an index (a late payment
    must find exactly one intent) and watches every address itself, so only the operator's own wallet is
    affected, and it is told the number to set."""
    key = ExtendedPublicKey.objects.filter(network=network, active=True).first()
    if key is None:
        return {"key": None}
    # "Paid" = a payment row exists for an intent on the address (any source, partial ones included).
    paid_addresses = PaymentIntent.objects.filter(network=network, payments__isnull=False).values("address")
    last_used = (
        DerivedAddress.objects.filter(key=key, address__in=paid_addresses)
        .order_by("-index")
        .values_list("index", flat=True)
    ).first()
    unused_tail = key.next_index - (last_used + 1 if last_used is not None else 0)
    limit = int(getattr(settings, "PAYMENTS_XPUB_GAP_LIMIT", 20))
    return {"key": key, "given": key.next_index, "unused_tail": unused_tail, "warn": unused_tail > limit}


@transaction.atomic
def extended_key_register(*, network: str, key: str, label: str = "") -> ExtendedPublicKey:
    """Register the watch-only account key of `network`, retiring the previous active one (its addresses stay
    watched). Checked by `account_key_parse`; private keys are refused and never stored or echoed.

    Raises:
        InvalidAddress: not an acceptable extended public key for the network (see `account_key_parse`).
        InvalidRequest: the key was registered before (indexes would be given out twice).
    """
    parsed: AccountKey = account_key_parse(network, key)
    if ExtendedPublicKey.objects.filter(network=network, key=parsed.text).exists():
        raise InvalidRequest("This key was registered before; its addresses must not be given out twice.")
    ExtendedPublicKey.objects.select_for_update().filter(network=network, active=True).update(active=False)
    return ExtendedPublicKey.objects.create(network=network, key=parsed.text, label=label.strip())


def _pool_take(network: str, now: datetime) -> ReceivingAddress | None:
    for _attempt in range(_POOL_ATTEMPTS):
        # SKIP LOCKED: concurrent checkouts each take a different free row instead of queueing on the same one.
        candidate = (
            ReceivingAddress.objects.select_for_update(skip_locked=True)
            .filter(network=network, mode=AddressMode.POOL, active=True, allocated_at__isnull=True)
            .order_by("id")
            .first()
        )
        if candidate is None:
            return None
        # The conditional UPDATE is the guarantee of single use on any database; the lock only avoids waiting.
        if ReceivingAddress.objects.filter(pk=candidate.pk, allocated_at__isnull=True).update(allocated_at=now):
            candidate.allocated_at = now
            return candidate
    return None


def _shared_with_free_amount(pair: Pair, amount_units: int, now: datetime) -> Allocation | None:
    # Locking every shared address of the network (in id order, so two callers never deadlock) serializes the
    # "is this amount free?" check with the insert of the intent that takes it.
    addresses = list(
        ReceivingAddress.objects.select_for_update()
        .filter(network=pair.network, mode=AddressMode.SHARED, active=True)
        .order_by("id")
    )
    if not addresses:
        return None
    max_bumps = int(getattr(settings, "PAYMENTS_SHARED_AMOUNT_MAX_BUMPS", 100))
    highest = min(amount_units + max_bumps, MAX_UNITS)
    taken = set(
        shared_amount_holders(network=pair.network, addresses={row.address for row in addresses}, now=now)
        .filter(amount_units__gte=amount_units, amount_units__lte=highest)
        .values_list("address", "memo", "amount_units")
    )
    # Smallest bump first, across addresses: the customer pays as little extra as possible.
    for amount in range(amount_units, highest + 1):
        for row in addresses:
            if (row.address, row.memo, amount) not in taken:
                return Allocation(row.address, row.memo, row.pk, amount, AddressMode.SHARED)
    return None


def shared_amount_holders(*, network: str, addresses: Iterable[str], now: datetime) -> QuerySet[PaymentIntent]:
    """The intents that *hold* their amount on shared `addresses`: open ones, and those expired within
    `PAYMENTS_SHARED_AMOUNT_HOLD_SECONDS`. Allocation never gives a held (address, memo, amount) to a second
    intent, whatever the asset, so a transfer of an exact amount to a shared address points at one of them at
    most: the chain watchers attribute by it (gpurent/chains/observations.py)."""
    hold = timedelta(seconds=int(getattr(settings, "PAYMENTS_SHARED_AMOUNT_HOLD_SECONDS", 86_400)))
    return PaymentIntent.objects.filter(
        network=network,
        address__in=list(addresses),
        status__in=[IntentStatus.AWAITING_PAYMENT, IntentStatus.EXPIRED],
        expires_at__gt=now - hold,
    )


@transaction.atomic
def receiving_address_add(
    *, network: str, address: str, mode: str = AddressMode.POOL, memo: str = "", label: str = ""
) -> ReceivingAddress:
    """Load one receiving address, checked and stored in its canonical form.

    Raises:
        InvalidAddress: the address is not valid on the network, or the network is unknown.
        InvalidRequest: unknown mode, a memo on a network without memos, or the address is already loaded.
    """
    if network not in NETWORKS:
        raise InvalidAddress(f"Addresses on “{network}” are not accepted.")
    canonical = validate_address(network, address)
    if mode not in AddressMode.values:
        raise InvalidRequest(f"The mode must be one of {', '.join(AddressMode.values)}.")
    memo = memo.strip()
    if memo and not network_has_memo(network):
        raise InvalidRequest(f"Payments on {NETWORKS[network]} carry no memo; leave it empty.")
    try:
        with transaction.atomic():
            return ReceivingAddress.objects.create(
                network=network, address=canonical, memo=memo, mode=mode, label=label.strip()
            )
    except IntegrityError:
        raise InvalidRequest(f"{canonical} is already loaded for {NETWORKS[network]}.") from None

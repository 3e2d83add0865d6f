"""What a watcher saw, stored as rows: one `ChainObservation` per (network, txid, output or log index).

`transfer_observe` is called for every incoming transfer a node reports to a watched address, as often as
the node reports it; the row keeps the latest block and confirmations. Only a transfer at depth is credited
(`crediting.observation_credit`), and the payment service credits it at most once whatever happens after.

On the chain or not (decision 0379): a transfer is `seen` while the node reports it in a block of its best
chain, or in its mempool where the watcher reads that (Bitcoin family). Once the node no longer does — its
block left the chain, a conflicting transaction was mined (a double spend, the payer's replacement), it was
replaced or evicted from the mempool — the watcher records it `dropped` (`transfer_forget`, or a transfer with
negative confirmations), never credited; it is `seen` again if the node reports it again. Its
`first_seen_at` stays: the first-seen time decides the rate it is credited at (decision 0380).

Attribution (`intent_for_transfer`): a transfer already observed keeps its intent; a derived or pool address
belongs to one intent; on a shared address (decision 0140's fallback, Solana's usual case) the transfer
belongs to the intent that holds exactly its amount there (`payments.intents.allocation.shared_amount_holders`, the
rule that made the amount unique), and to none when no intent holds it: a person attributes it.

Every watcher records what it read through `transfer_record` (observe, and count in the scan's report); a
watcher that reads blocks again above its cursor (Ethereum, Tron) records them with `transfers_record_since`,
which also forgets a transfer seen in those blocks before that the node no longer reports.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils import timezone

from gpurent.payments.assets import pair_get
from gpurent.payments.intents.allocation import shared_amount_holders
from gpurent.payments.models import AddressMode, ChainObservation, ObservationState, PaymentIntent, ReceivingAddress
from gpurent.payments.received.receive import TXID_MAX_LENGTH

from .base import ScanReport
from .crediting import observation_credit

__all__ = [
    "Transfer",
    "intent_for_transfer",
    "transfer_forget",
    "transfer_observe",
    "transfer_record",
    "transfers_record_since",
]

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Transfer:
    """One incoming transfer as a node reports it. `amount_chain` is in the chain's base unit (an int).

    `block_hash` is empty and `confirmations` 0 while it is in the mempool."""

    network: str
    asset: str
    txid: str
    index: int
    address: str
    amount_chain: int
    block_hash: str
    block_height: int | None
    confirmations: int


def intent_for_address(network: str, address: str, asset: str) -> PaymentIntent | None:
    """The intent a watched address belongs to. Derived and pool addresses are single-use, so there is one;
    `None` when the address is not one of ours or carries another asset (a token sent to an ETH intent waits
    for an operator)."""
    return PaymentIntent.objects.filter(network=network, address=address, asset=asset).order_by("created_at").first()


def intent_for_transfer(transfer: Transfer, units: int) -> PaymentIntent | None:
    """The intent `transfer` (worth `units` quote units) pays, or None when it cannot be told without guessing."""
    known = (
        ChainObservation.objects.filter(network=transfer.network, txid=transfer.txid, output_index=transfer.index)
        .values_list("intent_id", flat=True)
        .first()
    )
    if known is not None:
        return PaymentIntent.objects.get(pk=known)
    shared = ReceivingAddress.objects.filter(
        network=transfer.network, address=transfer.address, mode=AddressMode.SHARED
    ).exists()
    if not shared:
        return intent_for_address(transfer.network, transfer.address, transfer.asset)
    holders = shared_amount_holders(network=transfer.network, addresses=[transfer.address], now=timezone.now())
    matches = list(holders.filter(asset=transfer.asset, amount_units=units)[:2])
    return matches[0] if len(matches) == 1 else None


def transfer_observe(transfer: Transfer, *, required: int, credit: bool = True) -> ChainObservation | None:
    """Record or update what the node says about `transfer`; credit it once it has `required` confirmations.

    Returns None for a transfer whose transaction id is empty or longer than the columns hold (logged), for a
    transfer to an address no intent of that asset holds (on a shared address: no intent holds exactly its
    amount), or one worth less than one quote unit (dust below the shop's precision:
    recorded nowhere, documented in docs/decisions/0140).
    """
    if not transfer.txid or len(transfer.txid) > TXID_MAX_LENGTH:
        # A node's answer the columns cannot hold: skipped with a warning, never a database error in the loop.
        logger.warning(
            "%s: skipped a transfer whose transaction id has %d characters", transfer.network, len(transfer.txid)
        )
        return None
    pair = pair_get(transfer.asset, transfer.network)
    units = transfer.amount_chain // 10 ** (pair.chain_decimals - pair.quote_decimals)
    if units <= 0:
        return None
    intent = intent_for_transfer(transfer, units)
    if intent is None:
        return None
    fields = {
        "asset": transfer.asset,
        "address": transfer.address,
        "amount_chain": str(transfer.amount_chain),
        "amount_units": units,
        "intent": intent,
        "block_hash": transfer.block_hash,
        "block_height": transfer.block_height,
        "confirmations": max(transfer.confirmations, 0),
        "required_confirmations": required,
    }
    key = {"network": transfer.network, "txid": transfer.txid, "output_index": transfer.index}
    with transaction.atomic():
        observation = ChainObservation.objects.select_for_update().filter(**key).first()
        if observation is None:
            try:
                with transaction.atomic():
                    observation = ChainObservation.objects.create(**key, **fields)
            except IntegrityError:  # another watcher process inserted it first
                observation = ChainObservation.objects.select_for_update().get(**key)
        if observation.state != ObservationState.CREDITED:
            for name, value in fields.items():
                setattr(observation, name, value)
            observation.state = ObservationState.SEEN if transfer.confirmations >= 0 else ObservationState.DROPPED
            observation.save()
        elif observation.confirmations != fields["confirmations"]:
            observation.confirmations = max(transfer.confirmations, 0)
            observation.save(update_fields=["confirmations", "updated_at"])
    if credit and observation.state == ObservationState.SEEN and transfer.confirmations >= required:
        observation = observation_credit(observation_id=observation.pk)
    return observation


def transfer_forget(*, network: str, txid: str, index: int) -> None:
    """The node no longer reports this transfer on the chain (its block left it, it was replaced or
    double-spent): dropped unless it was credited already, no block."""
    ChainObservation.objects.filter(network=network, txid=txid, output_index=index).exclude(
        state=ObservationState.CREDITED
    ).update(state=ObservationState.DROPPED, block_hash="", block_height=None, confirmations=0)


def transfer_record(transfer: Transfer, *, required: int, report: ScanReport) -> ChainObservation | None:
    """`transfer_observe`, counted in a scan's `report`: one more transfer read, one more credited if it was."""
    report.transfers += 1
    observation = transfer_observe(transfer, required=required)
    if observation is not None and observation.credited_at is not None:
        report.credited += 1
    return observation


def transfers_record_since(
    network: str, transfers: Iterable[Transfer], *, height: int, required: int, report: ScanReport
) -> None:
    """Record `transfers`, everything the node now reports in blocks `height` … tip (read as they come: a
    generator that reads block by block is consumed block by block); then forget each transfer seen before in
    those blocks that is not among them, its block having left the chain (a credited one stays credited)."""
    found: set[tuple[str, int]] = set()
    for transfer in transfers:
        found.add((transfer.txid, transfer.index))
        transfer_record(transfer, required=required, report=report)
    for txid, index in (
        ChainObservation.objects.filter(network=network, state=ObservationState.SEEN, block_height__gte=height)
        .values_list("txid", "output_index")
        .iterator()
    ):
        if (txid, index) not in found:
            transfer_forget(network=network, txid=txid, index=index)

"""What a watcher saw, stored as rows: one `ChainObservation` per (network, txid, output or log index).

`transfer_observe` is called for every incoming transfer a node reports to a watched address, as often as
the node reports it; the row keeps the latest block and confirmations. A transfer whose block leaves the chain
goes back to `seen` with no block (mempool) or to `dropped`; only a transfer at depth is credited
(`crediting.observation_credit`), and the payment service credits it at most once whatever happens after.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import IntegrityError, transaction

from gpurent.payments.assets import pair_get
from gpurent.payments.models import ChainObservation, ObservationState, PaymentIntent

from .crediting import observation_credit

__all__ = ["Transfer", "transfer_forget", "transfer_observe"]


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


def transfer_observe(transfer: Transfer, *, required: int, credit: bool = True) -> ChainObservation | None:
    """Record or update what the node says about `transfer`; credit it once it has `required` confirmations.

    Returns None for a transfer to an address no intent of that asset holds, or one worth less than one quote
    unit (dust below the shop's precision: recorded nowhere, documented in docs/decisions/0140).
    """
    intent = intent_for_address(transfer.network, transfer.address, transfer.asset)
    if intent is None:
        return None
    pair = pair_get(transfer.asset, transfer.network)
    units = transfer.amount_chain // 10 ** (pair.chain_decimals - pair.quote_decimals)
    if units <= 0:
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
    """The node says this transfer's block left the chain: not credited (if it was not yet), no block."""
    ChainObservation.objects.filter(network=network, txid=txid, output_index=index).exclude(
        state=ObservationState.CREDITED
    ).update(state=ObservationState.DROPPED, block_hash="", block_height=None, confirmations=0)

"""The one boundary between the watchers and the money path.

A watcher never credits anything itself: a transfer at its confirmation depth is handed, here, to
`payments.received.receive.payment_receive`, the service operators and processors use too. It records the transfer as
a `Payment` row unique per (network, txid, output index) and credits it exactly once, with every rule of the
money path (locked rate for a payment first seen before expiry, review otherwise, partial and over-payments,
closed intents). This module only translates a chain observation into that call, its `first_seen_at` as the
payment's first-seen time, and then marks the observation credited.

No lock is held here: the service takes its own locks in the documented order (docs/money.md). A crash
between the service call and the mark is harmless: the next scan calls the service again, which returns the
existing payment row and changes nothing.
"""

from __future__ import annotations

import logging

from django.utils import timezone

from gpurent.payments.errors import PaymentAlreadyCredited
from gpurent.payments.models import ChainObservation, ObservationState, PaymentSource
from gpurent.payments.received.receive import payment_receive

__all__ = ["observation_credit"]

logger = logging.getLogger(__name__)


def observation_credit(*, observation_id: int) -> ChainObservation:
    """Hand the observation's transfer to the payment service, once; returns the observation."""
    observation = ChainObservation.objects.get(pk=observation_id)
    if observation.state == ObservationState.CREDITED:
        return observation
    try:
        payment_receive(
            intent_id=observation.intent_id,
            txid=observation.txid,
            output_index=observation.output_index,
            amount_units=observation.amount_units,
            network=observation.network,
            source=PaymentSource.CHAIN,
            # The first-seen rule: the shop's first sight of the transfer (in the mempool or below its depth)
            # decides whether it was sent before the intent expired (decision 0380).
            seen_at=observation.first_seen_at,
            evidence={
                "block_hash": observation.block_hash,
                "block_height": observation.block_height,
                "confirmations": observation.confirmations,
                "required_confirmations": observation.required_confirmations,
                "address": observation.address,
                "amount_chain_units": observation.amount_chain,
            },
        )
    except PaymentAlreadyCredited:
        # Recorded for another intent (an operator typed this txid there): never credited twice; the payments
        # desk shows the observation for a person to look at.
        logger.warning("chain payment %s:%s was already recorded elsewhere", observation.txid, observation.output_index)
        return observation
    ChainObservation.objects.filter(pk=observation.pk).exclude(state=ObservationState.CREDITED).update(
        state=ObservationState.CREDITED, credited_at=timezone.now()
    )
    observation.refresh_from_db()
    return observation

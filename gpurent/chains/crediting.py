"""The one boundary between the watchers and the money path.

A watcher never credits anything itself: a transfer at its confirmation depth is handed, here, to the payment
service every other source uses (operators, processors), which records it as a payment row unique per
network and credits it exactly once. This module only translates a chain observation into that call and
marks the observation credited in the same transaction.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from gpurent.payments.models import ChainObservation, ObservationState
from gpurent.payments.verification import intent_confirm

__all__ = ["observation_credit"]


def observation_credit(*, observation_id: int) -> ChainObservation:
    """Hand the observation's transfer to the payment service, once; returns the observation.

    Idempotent: an observation already credited is returned unchanged (a second watcher process, a restart
    after a crash between the service call and the cursor save).
    """
    with transaction.atomic():
        observation = ChainObservation.objects.select_for_update().get(pk=observation_id)
        if observation.state == ObservationState.CREDITED:
            return observation
        intent_confirm(
            intent_id=observation.intent_id,
            txid=f"{observation.txid}:{observation.output_index}",
            received_units=observation.amount_units,
            actor=None,
        )
        observation.state = ObservationState.CREDITED
        observation.credited_at = timezone.now()
        observation.save(update_fields=["state", "credited_at", "updated_at"])
        return observation

"""Writes of the estimator: save an estimate, attach a measured peak, hand a guest's estimates to an account."""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from gpurent.accounts.models import GuestSession, User
from gpurent.accounts.owners import Owner
from gpurent.core.errors import InvalidRequest

from .calculation import MAX_PEAK_BYTES, Sizing
from .models import SavedEstimate

__all__ = ["estimate_attach_measurement", "estimate_save", "estimate_title", "estimates_adopt"]

logger = logging.getLogger(__name__)

WORKLOAD_LABELS = {
    "inference": gettext_lazy("serving"),
    "full_finetune": gettext_lazy("full fine-tuning"),
    "lora": gettext_lazy("LoRA"),
    "qlora": gettext_lazy("QLoRA"),
    "diffusion": gettext_lazy("image generation"),
    "vision_finetune": gettext_lazy("vision fine-tuning"),
}


def estimate_title(sizing: Sizing) -> str:
    """ "llama-3.1-70b · serving · 4 cards": what the list of saved estimates shows."""
    inp = sizing.inputs
    cards = inp.parallel.cards
    workload = str(WORKLOAD_LABELS.get(inp.workload.value, inp.workload.value))
    plural = _("%(n)d card") if cards == 1 else _("%(n)d cards")
    return f"{inp.model.name} · {workload} · {plural % {'n': cards}}"[:200]


@transaction.atomic
def estimate_save(*, owner: Owner, sizing: Sizing, form_data: dict[str, Any] | None = None) -> SavedEstimate:
    """Keep `sizing` for `owner` with its inputs, result, engine version and the catalog table of today.

    Raises:
        InvalidRequest: the owner is neither a user nor a guest session.
    """
    if (owner.user is None) == (owner.guest is None):
        raise InvalidRequest(_("An estimate belongs to exactly one account or guest session."))
    result = sizing.result
    return SavedEstimate.objects.create(
        user=owner.user,
        guest=owner.guest,
        title=estimate_title(sizing),
        inputs=sizing.inputs_dict(),
        form_data=form_data or {},
        result=result.to_dict(),
        catalog_fit=sizing.fit_api(),
        engine_version=result.engine_version,
        peak_bytes=result.peak_bytes,
        usable_pct=sizing.usable_pct,
    )


@transaction.atomic
def estimate_attach_measurement(
    *, estimate: SavedEstimate, peak_bytes: int, source: str, measured_at: datetime | None = None
) -> SavedEstimate:
    """Record the peak per card measured for `estimate` (replacing an earlier one); the error then shows.

    Raises:
        InvalidRequest: the peak is not a positive number of bytes within range.
    """
    if not 0 < peak_bytes <= MAX_PEAK_BYTES:
        raise InvalidRequest(_("Enter a measured peak above zero."))
    estimate.measured_peak_bytes = peak_bytes
    estimate.measured_at = measured_at or timezone.now()
    estimate.measurement_source = source[:100]
    estimate.save(update_fields=["measured_peak_bytes", "measured_at", "measurement_source", "updated_at"])
    return estimate


def estimates_adopt(guest: GuestSession, user: User) -> int:
    """Move a guest session's saved estimates to `user` (a guest adopter, see `accounts.guests`).

    Runs inside the adoption's transaction; returns the number of estimates moved.
    """
    moved = SavedEstimate.objects.filter(guest=guest).update(guest=None, user=user)
    if moved:
        logger.info("moved %d saved estimates of guest %s to user %s", moved, guest.pk, user.pk)
    return moved

"""Writes of the estimator: save an estimate, attach a measured peak, hand a guest's estimates to an account."""

from __future__ import annotations

import json
import logging
import uuid
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any, TypeVar

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from gpurent.accounts.models import GuestSession, User
from gpurent.accounts.owners import Owner
from gpurent.catalog.selectors import catalog_version, gpu_list
from gpurent.core.caching.fragments import cached, fragment_key
from gpurent.core.errors import InvalidRequest
from vramcalc.serialize import inputs_to_dict

from .calculation import MAX_PEAK_BYTES, Sizing, inputs_from_payload, size_workload
from .models import SavedEstimate
from .titles import generated_title

__all__ = [
    "estimate_attach_measurement",
    "estimate_fields",
    "estimate_fields_for",
    "estimate_save",
    "estimate_save_fields",
    "estimate_title",
    "estimates_adopt",
]

logger = logging.getLogger(__name__)
T = TypeVar("T")


def estimate_title(sizing: Sizing) -> str:
    """ "llama-3.1-70b · serving · 4 cards" in the active language: the title the shop gives an estimate. It is
    not stored (`SavedEstimate.title_text` builds it again when shown, in the reader's language)."""
    return generated_title(sizing.inputs_dict())


def estimate_fields(sizing: Sizing) -> dict[str, Any]:
    """What a saved estimate stores of `sizing` (plain data: JSON-ready, picklable, the same for every owner).
    No title: the shop's own is built when shown, in the reader's language (`SavedEstimate.title_text`)."""
    result = sizing.result
    return {
        "inputs": sizing.inputs_dict(),
        "result": result.to_dict(),
        "catalog_fit": sizing.fit_api(),
        "engine_version": result.engine_version,
        "peak_bytes": result.peak_bytes,
        "usable_pct": sizing.usable_pct,
    }


def estimate_fields_for(data: Mapping[str, Any], extra: Callable[[dict[str, Any]], T]) -> tuple[dict[str, Any], T]:
    """`estimate_fields` of the engine inputs `data` against the catalog on sale, with `extra(fields)` (e.g. the
    fields as the API encodes them), computed once per inputs and catalog version: cached under the engine's
    normalised inputs, `catalog_version()` (any edit, addition or stock move makes a new key), the language (the
    title) and the code version (`core.caching.fragments`). On a hit the catalog rows are not read, only their version.

    Raises:
        EstimateInputInvalid: the engine rejects a field.
        EstimateTooLarge: the per-card peak exceeds `MAX_PEAK_BYTES`.
    """
    inp = inputs_from_payload(data)
    canonical = json.dumps(inputs_to_dict(inp), sort_keys=True, separators=(",", ":"))
    key = fragment_key("estimate-fields", canonical, catalog_version())

    def compute() -> tuple[dict[str, Any], T]:
        fields = estimate_fields(size_workload(inp, list(gpu_list())))
        return fields, extra(fields)

    return cached(key, compute)


def estimate_save(*, owner: Owner, sizing: Sizing, form_data: dict[str, Any] | None = None) -> SavedEstimate:
    """Keep `sizing` for `owner` with its inputs, result, engine version and the catalog table of today.

    Raises:
        InvalidRequest: the owner is neither a user nor a guest session.
    """
    return estimate_save_fields(owner=owner, fields=estimate_fields(sizing), form_data=form_data)


def estimate_save_fields(
    *, owner: Owner, fields: dict[str, Any], form_data: dict[str, Any] | None = None, public_id: uuid.UUID | None = None
) -> SavedEstimate:
    """`estimate_save` from `estimate_fields(sizing)` (e.g. taken from the cache); one INSERT, no savepoint.
    `public_id`: the id to give it (made up front by a caller that answers with it), else a new one.

    Raises:
        InvalidRequest: the owner is neither a user nor a guest session.
    """
    if (owner.user is None) == (owner.guest is None):
        raise InvalidRequest(_("An estimate belongs to exactly one account or guest session."))
    return SavedEstimate.objects.create(
        public_id=public_id or uuid.uuid4(), user=owner.user, guest=owner.guest, form_data=form_data or {}, **fields
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

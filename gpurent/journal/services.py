"""Every write to the journal: create an entry, add a run, hand a guest's entries to a new account."""

from __future__ import annotations

import logging
import math

from django.conf import settings
from django.db import models, transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from gpurent.accounts.models import GuestSession, User
from gpurent.accounts.owners import Owner
from gpurent.core.errors import NotFound
from gpurent.core.invisible import label_clean
from gpurent.orders.selectors import order_get_for
from gpurent.sizing.calculation import MAX_PEAK_BYTES
from gpurent.sizing.selectors import estimate_get_for

from .enums import Checkpoint, Outcome, Phase, Reproducibility
from .errors import JournalInputInvalid, TooManyRuns
from .labels import field_label
from .models import JournalEntry, Measurement, Run
from .records import EntryDraft, MeasurementDraft, RunDraft

__all__ = ["MAX_GPUS", "MAX_KEYS", "entries_adopt", "entry_create", "run_create"]

logger = logging.getLogger(__name__)

MAX_KEYS = 50  # per key/value field of a run
MAX_GPUS = 64  # peaks per measurement
MAX_NUMBER = 1e15  # beyond any throughput, latency or metric a person would record: a typo
_TEXT_LIMIT = 10_000


def _text(field: str, value: str, limit: int, *, required: bool = False, label: bool = False) -> str:
    """`value` stripped, or as a single-line label (`label_clean`: an entry's question, a run's name)."""
    value = label_clean(value) if label else value.strip()
    if required and not value:
        raise JournalInputInvalid(field, _("This field is required: %(field)s.") % {"field": field_label(field)})
    if len(value) > limit:
        raise JournalInputInvalid(
            field, _("%(field)s: keep it under %(limit)d characters.") % {"field": field_label(field), "limit": limit}
        )
    return value


def _pairs(field: str, pairs: dict[str, str]) -> dict[str, str]:
    if len(pairs) > MAX_KEYS:
        message = _("%(field)s: at most %(n)d names.") % {"field": field_label(field), "n": MAX_KEYS}
        raise JournalInputInvalid(field, message)
    cleaned: dict[str, str] = {}
    for raw_key, raw_value in pairs.items():
        key, value = str(raw_key).strip(), str(raw_value).strip()
        if not key or len(key) > 100:
            message = _("%(field)s: names have 1 to 100 characters.") % {"field": field_label(field)}
            raise JournalInputInvalid(field, message)
        if len(value) > 500:
            message = _("%(field)s: the value of “%(key)s” is over 500 characters.")
            raise JournalInputInvalid(field, message % {"field": field_label(field), "key": key})
        cleaned[key] = value
    return dict(sorted(cleaned.items()))


def _number(field: str, value: float | None, *, minimum: float | None = 0.0) -> float | None:
    if value is None:
        return None
    if not math.isfinite(value) or abs(value) > MAX_NUMBER or (minimum is not None and value < minimum):
        message = _("%(field)s: enter a number of zero or more.") % {"field": field_label(field)}
        raise JournalInputInvalid(field, message)
    return float(value)


def _measurement(phase: str, draft: MeasurementDraft) -> MeasurementDraft:
    if len(draft.peak_bytes_per_gpu) > MAX_GPUS:
        raise JournalInputInvalid(f"{phase}.peak", _("At most %(n)d GPUs per measurement.") % {"n": MAX_GPUS})
    for peak in draft.peak_bytes_per_gpu:
        if not 0 < peak <= MAX_PEAK_BYTES:
            raise JournalInputInvalid(f"{phase}.peak", _("A peak per GPU is above zero and at most 1 PiB."))
    quality_metric = _text(f"{phase}.quality_metric", draft.quality_metric, 100)
    quality_value = _number(f"{phase}.quality_value", draft.quality_value, minimum=None)
    if quality_value is not None and not quality_metric:
        raise JournalInputInvalid(f"{phase}.quality_metric", _("Name the quality metric whose value you give."))
    return MeasurementDraft(
        peak_bytes_per_gpu=tuple(int(peak) for peak in draft.peak_bytes_per_gpu),
        peak_source=_text(f"{phase}.peak_source", draft.peak_source, 100),
        throughput=_number(f"{phase}.throughput", draft.throughput),
        throughput_unit=_text(f"{phase}.throughput_unit", draft.throughput_unit, 40),
        latency_ms=_number(f"{phase}.latency_ms", draft.latency_ms),
        quality_metric=quality_metric,
        quality_value=quality_value,
    )


@transaction.atomic
def entry_create(*, owner: Owner, draft: EntryDraft) -> JournalEntry:
    """Open an entry for one experimental question, linked to a rental and a saved estimate of the owner.

    Raises:
        JournalInputInvalid: a field is missing or too long, or the rental or estimate is not one of the
            owner's (someone else's and a missing one get the same answer, so nothing leaks).
    """
    if (owner.user is None) == (owner.guest is None):
        raise JournalInputInvalid("owner", _("An entry belongs to exactly one account or guest session."))
    order = estimate = None
    if draft.order_ref.strip():
        if owner.user is None:
            raise JournalInputInvalid("rental", _("Log in to link a rental: rentals belong to accounts."))
        try:
            order = order_get_for(owner.user, draft.order_ref.strip())
        except NotFound:
            raise JournalInputInvalid("rental", _("You have no rental with this reference.")) from None
    if draft.estimate_id.strip():
        try:
            estimate = estimate_get_for(owner, draft.estimate_id.strip())
        except NotFound:
            raise JournalInputInvalid("estimate", _("You have no saved estimate with this id.")) from None
    return JournalEntry.objects.create(
        user=owner.user,
        guest=owner.guest,
        question=_text("question", draft.question, 300, required=True, label=True),
        hypothesis=_text("hypothesis", draft.hypothesis, _TEXT_LIMIT),
        metrics=_text("metrics", draft.metrics, _TEXT_LIMIT),
        stop_criterion=_text("stop_criterion", draft.stop_criterion, _TEXT_LIMIT),
        order=order,
        estimate=estimate,
    )


def _choice(field: str, value: str, choices: type[models.TextChoices]) -> str:
    if value not in choices.values:
        raise JournalInputInvalid(
            field,
            _("%(field)s: choose one of %(choices)s.")
            % {"field": field_label(field), "choices": ", ".join(str(label) for label in choices.labels)},
        )
    return value


def run_create(*, entry: JournalEntry, draft: RunDraft) -> Run:
    """Add a run to `entry` (already scoped to its owner), numbered after the entry's last run.

    The entry row is locked while the runs are counted and the number is chosen, so two runs posted at once get
    1 and 2, not 1 twice, and a burst cannot pass `JOURNAL_MAX_RUNS_PER_ENTRY` (decision 0315).
    Measurement phases with nothing observed are not stored.

    Raises:
        JournalInputInvalid: a field is missing, too long, or out of range; nothing is written.
        TooManyRuns: the entry already holds `JOURNAL_MAX_RUNS_PER_ENTRY` runs; nothing is written.
    """
    reproducibility = _choice("reproducibility", draft.reproducibility, Reproducibility)
    tolerance = _text("tolerance", draft.tolerance, 200)
    if reproducibility == Reproducibility.TOLERANCE and not tolerance:
        raise JournalInputInvalid("tolerance", _("State the tolerance within which two runs count as equivalent."))
    if reproducibility != Reproducibility.TOLERANCE:
        tolerance = ""
    measurements = {Phase.FIRST: _measurement("first", draft.first), Phase.STEADY: _measurement("steady", draft.steady)}
    fields = {
        "name": _text("name", draft.name, 200, required=True, label=True),
        "code_version": _text("code_version", draft.code_version, 200),
        "environment": _text("environment", draft.environment, 500),
        "versions": _pairs("versions", draft.versions),
        "parameters": _pairs("parameters", draft.parameters),
        "seeds": _pairs("seeds", draft.seeds),
        "determinism": _pairs("determinism", draft.determinism),
        "reproducibility": reproducibility,
        "tolerance": tolerance,
        "outcome": _choice("outcome", draft.outcome, Outcome),
        "failure": _text("failure", draft.failure, _TEXT_LIMIT),
        "checkpoint": _choice("checkpoint", draft.checkpoint, Checkpoint),
        "conclusion": _text("conclusion", draft.conclusion, _TEXT_LIMIT),
    }
    with transaction.atomic():
        JournalEntry.objects.select_for_update().filter(pk=entry.pk).exists()
        limit = settings.JOURNAL_MAX_RUNS_PER_ENTRY
        if Run.objects.filter(entry=entry)[:limit].count() >= limit:
            raise TooManyRuns(limit)
        last = Run.objects.filter(entry=entry).aggregate(last=Max("number"))["last"] or 0
        run = Run.objects.create(entry=entry, number=last + 1, **fields)
        Measurement.objects.bulk_create(
            Measurement(
                run=run,
                phase=phase,
                peak_bytes_per_gpu=list(m.peak_bytes_per_gpu),
                peak_source=m.peak_source,
                throughput=m.throughput,
                throughput_unit=m.throughput_unit,
                latency_ms=m.latency_ms,
                quality_metric=m.quality_metric,
                quality_value=m.quality_value,
            )
            for phase, m in measurements.items()
            if not m.is_empty
        )
    return run


def entries_adopt(guest: GuestSession, user: User) -> int:
    """Move a guest session's journal entries (and so their runs) to `user` (a guest adopter, DESIGN §3).

    Runs inside the adoption's transaction; returns the number of entries moved.
    """
    moved = JournalEntry.objects.filter(guest=guest).update(guest=None, user=user)
    if moved:
        logger.info("moved %d journal entries of guest %s to user %s", moved, guest.pk, user.pk)
    return moved

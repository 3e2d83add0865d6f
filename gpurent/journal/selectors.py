"""Reads of the journal, always scoped to the owner: another owner's entry or run does not exist (404)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

from django.db.models import Count, OuterRef, Prefetch, QuerySet, Subquery
from django.db.models.functions import Coalesce

from gpurent.accounts.owners import Owner
from gpurent.core.errors import NotFound
from gpurent.core.pagination import keyset_chunks
from gpurent.orders.models import Order
from gpurent.orders.selectors import order_list_for
from gpurent.sizing.models import SavedEstimate
from gpurent.sizing.selectors import estimate_list_for

from .models import JournalEntry, Measurement, Run

# How many of an entry's newest runs a row of the API's list of entries carries (decision 0315).
LATEST_RUNS = 3

__all__ = [
    "LATEST_RUNS",
    "entries_with_runs_for",
    "entry_get_for",
    "entry_head_for",
    "entry_list_for",
    "entry_runs",
    "estimate_choices_for",
    "journal_pages_for_export",
    "order_choices_for",
    "run_choices",
    "run_get",
]


def entry_list_for(owner: Owner) -> QuerySet[JournalEntry]:
    """The owner's entries, newest first, with their rental, estimate and run count."""
    if owner.user is not None:
        entries = JournalEntry.objects.filter(user=owner.user)
    elif owner.guest is not None:
        entries = JournalEntry.objects.filter(guest=owner.guest)
    else:
        return JournalEntry.objects.none()
    # A correlated count, not `Count("runs")`: a GROUP BY over the join would read every run of the owner's whole
    # history before a keyset page could take its rows; this is counted only for the rows a page returns.
    runs = Run.objects.filter(entry=OuterRef("pk")).order_by().values("entry").annotate(n=Count("pk")).values("n")
    return entries.select_related("order", "estimate").annotate(run_count=Coalesce(Subquery(runs), 0))


def _runs_with_measurements() -> Prefetch[str]:
    return Prefetch("runs", queryset=Run.objects.prefetch_related(Prefetch("measurements", Measurement.objects.all())))


def _uuid(value: uuid.UUID | str) -> uuid.UUID:
    try:
        return value if isinstance(value, uuid.UUID) else uuid.UUID(str(value))
    except ValueError:
        raise NotFound() from None


def entry_get_for(owner: Owner, public_id: uuid.UUID | str) -> JournalEntry:
    """One of the owner's entries with its runs and their measurements.

    Raises:
        NotFound: no such entry, a malformed id, or someone else's entry (the three are indistinguishable).
    """
    try:
        return entry_list_for(owner).prefetch_related(_runs_with_measurements()).get(public_id=_uuid(public_id))
    except JournalEntry.DoesNotExist:
        raise NotFound() from None


def entry_head_for(owner: Owner, public_id: uuid.UUID | str) -> JournalEntry:
    """One of the owner's entries with its rental, estimate and run count, without its runs (a page of them is
    read with `entry_runs`).

    Raises:
        NotFound: as `entry_get_for`.
    """
    try:
        return entry_list_for(owner).get(public_id=_uuid(public_id))
    except JournalEntry.DoesNotExist:
        raise NotFound() from None


def entry_runs(entry: JournalEntry) -> QuerySet[Run]:
    """The runs of `entry` (already scoped to its owner) with their measurements, for a keyset page by number."""
    return Run.objects.filter(entry=entry).prefetch_related(Prefetch("measurements", Measurement.objects.all()))


def run_choices(entry: JournalEntry) -> QuerySet[Run]:
    """Number, name and id of every run of `entry`, oldest first, for choosing two to compare."""
    return Run.objects.filter(entry=entry).only("public_id", "number", "name", "entry_id").order_by("number")


def run_get(entry: JournalEntry, public_id: uuid.UUID | str) -> Run:
    """A run of `entry` (already scoped to its owner) by public id.

    Raises:
        NotFound: no such run in this entry.
    """
    key = _uuid(public_id)
    for run in entry.runs.all():
        if run.public_id == key:
            return run
    raise NotFound()


def entries_with_runs_for(owner: Owner) -> QuerySet[JournalEntry]:
    """The owner's entries with everything an export or the API writes, in a fixed number of queries."""
    return entry_list_for(owner).prefetch_related(_runs_with_measurements())


def journal_pages_for_export(owner: Owner) -> Iterator[list[JournalEntry]]:
    """Every entry of the owner, oldest first, one keyset page at a time (`keyset_chunks`), each page with
    everything an export writes in three queries (entries with their rental and estimate, runs, measurements)."""
    return keyset_chunks(entries_with_runs_for(owner), key=("created_at", "id"))


def order_choices_for(owner: Owner) -> QuerySet[Order]:
    """The rentals an entry of this owner may link to: the account's own orders (a guest has none)."""
    if owner.user is None:
        return Order.objects.none()
    return order_list_for(owner.user)


def estimate_choices_for(owner: Owner) -> QuerySet[SavedEstimate]:
    """The saved estimates an entry of this owner may link to."""
    return estimate_list_for(owner)

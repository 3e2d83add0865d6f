"""A streamed whole-journal export frees each page of entries, with their runs and measurements, as soon as the
next page is read, by reference counting alone: no reference cycle keeps a page waiting for a full garbage
collection (issue 16, decision 0325)."""

from __future__ import annotations

import gc
import weakref

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from gpurent.accounts.owners import Owner
from gpurent.core.pagination import MAX_PAGE_SIZE, release
from gpurent.journal.export import entry_data
from gpurent.journal.models import JournalEntry
from gpurent.journal.selectors import entries_with_runs_for, journal_pages_for_export
from gpurent.journal.services import run_create

from .conftest import run_draft

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_pages(user, estimate, order) -> None:
    """One page and one more entry; the oldest and the newest entry (one on each page) have a run with a measurement.

    Django's prefetch leaves the last instance it filtered for as a hint on the `Prefetch` object's queryset, which
    the export's queryset keeps: one run, replaced by the next page's (so the second page has a run too)."""
    JournalEntry.objects.bulk_create(
        JournalEntry(user=user, question=f"Question {n}", estimate=estimate, order=order)
        for n in range(MAX_PAGE_SIZE + 1)
    )
    entries = list(JournalEntry.objects.filter(user=user).order_by("created_at", "id"))
    run_create(entry=entries[0], draft=run_draft())
    run_create(entry=entries[-1], draft=run_draft())


@pytest.fixture
def no_collection():
    """The cyclic garbage collector off: what is freed is freed by reference counting."""
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


@pytest.mark.usefixtures("two_pages", "no_collection")
def test_a_written_page_is_freed_when_the_next_page_is_read(user):
    pages = journal_pages_for_export(Owner(user=user))
    first = next(pages)
    assert [entry_data(entry) for entry in first]  # written as the export writes it (each run caches its entry)
    run = first[0].runs.all()[0]
    kept = [weakref.ref(obj) for obj in (first[0], first[-1], run, run.measurements.all()[0], first[0].order)]
    del first, run

    assert len(next(pages)) == 1

    assert [ref() for ref in kept] == [None] * len(kept)


@pytest.mark.usefixtures("two_pages")
def test_a_released_entry_reads_again_what_it_had_cached(user):
    entry = entries_with_runs_for(Owner(user=user)).order_by("created_at", "id")[0]
    before = entry_data(entry)

    release([entry])

    with CaptureQueriesContext(connection) as queries:
        assert entry_data(entry) == before
    assert len(queries) > 0  # read again, not kept

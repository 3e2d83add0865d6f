"""An entry holds at most `JOURNAL_MAX_RUNS_PER_ENTRY` runs, and no journal answer grows with how many runs the
customer's entries hold (decision 0315, issue 16)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from gpurent.accounts.owners import Owner
from gpurent.accounts.services import api_token_create
from gpurent.journal.errors import TooManyRuns
from gpurent.journal.models import Run
from gpurent.journal.records import EntryDraft
from gpurent.journal.services import entry_create, run_create

from .conftest import run_draft

pytestmark = pytest.mark.django_db

FULL = (
    "This entry has 2 runs, the most one entry can hold. "
    "Open a new entry for the next runs (for example one per sweep)."
)
FORM = {
    "name": "one more",
    "reproducibility": "not_stated",
    "outcome": "completed",
    "checkpoint": "none",
    "idempotency_key": "k-more",
}


def bearer(user):
    return {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=user, name='test')[1]}"}


def test_one_run_past_the_maximum_is_refused_and_another_entry_still_takes_runs(settings, user, entry):
    settings.JOURNAL_MAX_RUNS_PER_ENTRY = 2
    run_create(entry=entry, draft=run_draft("one"))
    run_create(entry=entry, draft=run_draft("two"))
    with pytest.raises(TooManyRuns) as refused:
        run_create(entry=entry, draft=run_draft("three"))
    assert (refused.value.code, refused.value.status, refused.value.message) == ("too_many_runs", 409, FULL)
    assert list(Run.objects.filter(entry=entry).values_list("name", flat=True)) == ["one", "two"]
    other = entry_create(owner=Owner(user=user), draft=EntryDraft(question="the next sweep"))
    assert run_create(entry=other, draft=run_draft("three")).number == 1


def test_the_api_answers_409_too_many_runs_and_the_form_shows_why(client, settings, user, entry):
    settings.JOURNAL_MAX_RUNS_PER_ENTRY = 2
    run_create(entry=entry, draft=run_draft("one"))
    run_create(entry=entry, draft=run_draft("two"))
    url = f"/api/v1/journal/entries/{entry.public_id}/runs"
    api = client.post(url, {"name": "three"}, content_type="application/json", HTTP_IDEMPOTENCY_KEY="k", **bearer(user))
    assert (api.status_code, api.json()["error"]) == (409, {"code": "too_many_runs", "message": FULL})
    client.force_login(user)
    page = client.post(reverse("journal:run_create", args=[entry.public_id]), FORM)
    assert page.status_code == 409  # the same status as the API
    assert FULL in page.content.decode()
    assert Run.objects.filter(entry=entry).count() == 2


@pytest.mark.parametrize(
    ("language", "words"),
    [("es", "Abra una entrada nueva"), ("vi", "Hãy mở một phiếu mới"), ("tr", "yeni bir girdi açın")],
)
def test_the_refusal_is_translated(settings, user, entry, language, words):
    settings.JOURNAL_MAX_RUNS_PER_ENTRY = 0
    with translation.override(language), pytest.raises(TooManyRuns) as refused:
        run_create(entry=entry, draft=run_draft())
    assert words in refused.value.message


def _list_entries(client, auth):
    with CaptureQueriesContext(connection) as queries:
        body = client.get("/api/v1/journal/entries", **auth).json()
    return body, len(queries)


def test_the_entries_list_carries_the_run_count_newest_runs_and_every_run_in_a_fixed_number_of_queries(
    client, user, entry
):
    auth = bearer(user)
    run_create(entry=entry, draft=run_draft("run 1"))
    _list_entries(client, auth)  # the token's first use writes its last use: not counted
    _body, few = _list_entries(client, auth)
    for n in range(2, 8):
        run_create(entry=entry, draft=run_draft(f"run {n}"))
    entry_create(owner=Owner(user=user), draft=EntryDraft(question="no runs yet"))
    body, many = _list_entries(client, auth)
    assert many == few
    empty, full = body["items"]
    assert (empty["run_count"], empty["latest_runs"], empty["runs"]) == (0, [], [])
    assert full["run_count"] == 7
    assert [run["name"] for run in full["latest_runs"]] == ["run 7", "run 6", "run 5"]
    assert full["latest_runs"][0]["steady"]["kind"] == "observation"
    # `runs` stays on the list (DESIGN §11.1: fields are never renamed or removed), deprecated, every run.
    one = client.get(f"/api/v1/journal/entries/{entry.public_id}", **auth).json()
    assert [run["number"] for run in one["runs"]] == list(range(1, 8))
    assert full["runs"] == one["runs"]


def test_the_lists_runs_field_is_marked_deprecated_in_the_openapi_document(client):
    schemas = client.get("/api/v1/openapi.json").json()["components"]["schemas"]
    listed = schemas["EntrySummaryOut"]["properties"]
    assert listed["runs"]["deprecated"] is True
    assert "latest_runs" in listed["runs"]["description"]
    assert "deprecated" not in schemas["EntryOut"]["properties"]["runs"]
    # The list's row is the entry's fields and more: none dropped, none renamed.
    assert set(schemas["EntryOut"]["properties"]) < set(listed)


def test_the_entry_page_shows_a_page_of_runs_newest_first_and_older_links_to_the_rest(client, settings, user, entry):
    settings.JOURNAL_MAX_RUNS_PER_ENTRY = 60
    for n in range(57):
        run_create(entry=entry, draft=run_draft(f"run {n:03d}", parameters={"step": f"s{n:03d}"}))
    client.force_login(user)
    url = reverse("journal:entry", args=[entry.public_id])
    first = client.get(url)
    assert [row[0].number for row in first.context["rows"]] == list(range(57, 7, -1))
    assert len(first.context["runs"]) == 57  # the compare form still offers every run
    assert "57 runs" in first.content.decode()
    older = client.get(url, {"cursor": first.context["page"].next})
    assert [row[0].number for row in older.context["rows"]] == list(range(7, 0, -1))
    assert older.context["page"].next is None


def test_a_page_of_entries_counts_runs_without_grouping_the_whole_history(user):
    """The run count is a correlated count per returned entry, not a GROUP BY over every run of the owner: with one,
    a keyset page of entries read the whole history first (on PostgreSQL, 20 → 113 ms per page from 600 to 6,000
    entries of 5 runs; now flat)."""
    from gpurent.accounts.owners import Owner
    from gpurent.journal.selectors import entry_list_for, journal_pages_for_export

    sql = str(entry_list_for(Owner(user=user)).query).upper()
    count = sql.index("(SELECT COUNT(")
    # One GROUP BY, inside the count's subquery (its one entry's runs), none on the page's own query.
    assert sql.count("GROUP BY") == 1
    assert count < sql.index("GROUP BY") < sql.index(' FROM "JOURNAL_JOURNALENTRY"')
    assert list(journal_pages_for_export(Owner(user=user))) == []

"""The whole-journal exports (page and API, JSON and Markdown) are streamed one keyset page of entries at a time,
in a fixed number of queries a page, and are byte for byte the document the whole-journal rendering wrote before
(issue 16, decision 0290)."""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone, translation

from gpurent.accounts.owners import Owner
from gpurent.accounts.services import api_token_create
from gpurent.core.pagination import MAX_PAGE_SIZE
from gpurent.journal.export import FORMAT, _entry_markdown, entry_data
from gpurent.journal.models import JournalEntry
from gpurent.journal.selectors import entries_with_runs_for
from gpurent.journal.services import run_create

from .conftest import run_draft

pytestmark = pytest.mark.django_db

ENTRIES = 2 * MAX_PAGE_SIZE + 50  # three pages


def journal(user, estimate, order, count: int) -> None:
    """`count` entries whose creation times run backwards in threes (so the export's order is by time, then id),
    non-ASCII text, white space at the ends of texts, and runs with measurements on every page of the export."""
    JournalEntry.objects.bulk_create(
        JournalEntry(
            user=user,
            question=f"Frage {n:03d}: Größe “ü” | 東京",
            hypothesis="bf16 fits\nwith room  " if n % 2 else "",
            estimate=estimate if n % 5 == 0 else None,
            order=order if n % 7 == 0 else None,
        )
        for n in range(count)
    )
    start = timezone.now()
    for n, pk in enumerate(JournalEntry.objects.filter(user=user).order_by("id").values_list("pk", flat=True)):
        JournalEntry.objects.filter(pk=pk).update(created_at=start - timedelta(seconds=n // 3))
    oldest_first = list(JournalEntry.objects.filter(user=user).order_by("created_at", "id"))
    for position in {0, MAX_PAGE_SIZE, count - 1}:
        if 0 <= position < count:
            run_create(entry=oldest_first[position], draft=run_draft(conclusion="Fits.  \n\n"))


def whole_json(user, exported_at: str, *, ensure_ascii: bool) -> str:
    """The document as the exports wrote it before they were streamed: the whole journal in one `json.dumps`."""
    entries = entries_with_runs_for(Owner(user=user)).order_by("created_at", "id")
    document = {"format": FORMAT, "exported_at": exported_at, "entries": [entry_data(entry) for entry in entries]}
    return json.dumps(document, cls=DjangoJSONEncoder, indent=2, ensure_ascii=ensure_ascii)


def whole_markdown(user, exported: str) -> str:
    """The Markdown as the exports wrote it before they were streamed: every line joined, then stripped once."""
    lines = [f"# Experiment journal ({settings.BRAND_NAME})", "", f"- Exported: {exported}", ""]
    entries = list(entries_with_runs_for(Owner(user=user)).order_by("created_at", "id"))
    if not entries:
        lines.append("No entries yet.")
    for entry in entries:
        lines += _entry_markdown(entry, "##")
    return "\n".join(lines).rstrip() + "\n"


def drain(response) -> tuple[str, list[str]]:
    """The streamed body and the SQL run while it was written."""
    assert response.streaming
    with CaptureQueriesContext(connection) as queries:
        body = b"".join(response.streaming_content).decode()
    return body, [query["sql"] for query in queries.captured_queries]


def downloads(client, user):
    """(JSON response, ensure_ascii, Markdown response) of the page and of the API."""
    client.force_login(user)
    auth = {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=user, name='t')[1]}"}
    return [
        (client.get(reverse("journal:export_json")), False, client.get(reverse("journal:export_md"))),
        (client.get("/api/v1/journal/export.json", **auth), True, client.get("/api/v1/journal/export.md", **auth)),
    ]


def test_a_journal_of_several_pages_is_streamed_a_page_at_a_time_into_the_same_document(client, user, estimate, order):
    journal(user, estimate, order, ENTRIES)
    for json_response, ensure_ascii, md_response in downloads(client, user):
        body, sql = drain(json_response)
        assert body == whole_json(user, json.loads(body)["exported_at"], ensure_ascii=ensure_ascii)
        assert len(json.loads(body)["entries"]) == ENTRIES
        # Three pages, each: its entries (with rental and estimate), their runs, the runs' measurements.
        reads = [query for query in sql if 'FROM "journal_journalentry"' in query]
        assert len(reads) == 3
        assert all(f"LIMIT {MAX_PAGE_SIZE + 1}" in query for query in reads)
        assert len(sql) == 3 * 3
        text, sql = drain(md_response)
        exported = re.search(r"^- Exported: (.+ UTC)$", text, re.MULTILINE)
        assert exported is not None
        assert text == whole_markdown(user, exported.group(1))
        assert text.count("\n## Frage ") == ENTRIES
        assert len(sql) == 3 * 3


@pytest.mark.parametrize("count", [0, 1, 3])
def test_a_short_journal_is_the_same_document_as_before(client, user, estimate, order, count):
    journal(user, estimate, order, count)
    for json_response, ensure_ascii, md_response in downloads(client, user):
        body, _ = drain(json_response)
        assert body == whole_json(user, json.loads(body)["exported_at"], ensure_ascii=ensure_ascii)
        text, _ = drain(md_response)
        exported = re.search(r"^- Exported: (.+ UTC)$", text, re.MULTILINE)
        assert exported is not None
        assert text == whole_markdown(user, exported.group(1))


def test_the_streamed_markdown_stays_in_the_language_of_the_request(client, user, estimate, order):
    journal(user, estimate, order, 1)
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "vi"
    response = client.get(reverse("journal:export_md"))
    # The body is written after the view returned, here while another language is active.
    with translation.override("en"):
        text, _ = drain(response)
    assert "Nhật ký thí nghiệm" in text
    assert "Experiment journal" not in text

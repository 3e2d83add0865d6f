"""The whole-journal exports (page and API, JSON and Markdown) are written one keyset page of entries at a time, in
a fixed number of queries a page, and are byte for byte the document the whole-journal rendering wrote before
(issue 16, decision 0290); a short journal is answered whole, with its length and SHA-256 (decision 0430)."""

from __future__ import annotations

import base64
import hashlib
import json
import re
from datetime import timedelta
from typing import Literal

import pytest
from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from gpurent.accounts.owners import Owner
from gpurent.accounts.services import api_token_create
from gpurent.core.pagination import MAX_PAGE_SIZE
from gpurent.journal.export import FORMAT, _entry_markdown, entry_data, journal_pieces
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
    document = {
        "format": FORMAT,
        "exported_at": exported_at,
        "entries": [entry_data(entry, absolute=True) for entry in entries],
    }
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


def whole(response) -> str:
    """The body of a download answered whole, checked against its `Content-Length` and `Repr-Digest`."""
    assert response.status_code == 200
    assert int(response["Content-Length"]) == len(response.content)
    digest = base64.b64encode(hashlib.sha256(response.content).digest()).decode()
    assert response["Repr-Digest"] == f"sha-256=:{digest}:"
    return response.content.decode()


def written(user, kind: Literal["json", "md"], *, ensure_ascii: bool = False) -> tuple[str, list[int], list[str]]:
    """The export's pieces drained one by one: its text, the rows written after each piece, and the SQL run."""
    with CaptureQueriesContext(connection) as queries:
        pieces = list(journal_pieces(Owner(user=user), kind, now=timezone.now(), ensure_ascii=ensure_ascii))
    text = "".join(piece for piece, _ in pieces)
    return text, [rows for _, rows in pieces], [query["sql"] for query in queries.captured_queries]


def downloads(client, user):
    """(JSON response, ensure_ascii, Markdown response) of the page and of the API."""
    client.force_login(user)
    auth = {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=user, name='t')[1]}"}
    return [
        (client.get(reverse("journal:export_json")), False, client.get(reverse("journal:export_md"))),
        (client.get("/api/v1/journal/export.json", **auth), True, client.get("/api/v1/journal/export.md", **auth)),
    ]


def test_a_journal_of_several_pages_is_written_a_page_at_a_time_into_the_same_document(client, user, estimate, order):
    journal(user, estimate, order, ENTRIES)
    for json_response, ensure_ascii, md_response in downloads(client, user):
        body = whole(json_response)
        assert body == whole_json(user, json.loads(body)["exported_at"], ensure_ascii=ensure_ascii)
        assert len(json.loads(body)["entries"]) == ENTRIES
        text = whole(md_response)
        exported = re.search(r"^- Exported: (.+ UTC)$", text, re.MULTILINE)
        assert exported is not None
        assert text == whole_markdown(user, exported.group(1))
        assert text.count("\n## Frage ") == ENTRIES
    for kind in ("json", "md"):
        text, rows, sql = written(user, kind)
        # Three pages, each: its entries (with rental and estimate), their runs, the runs' measurements.
        reads = [query for query in sql if 'FROM "journal_journalentry"' in query]
        assert len(reads) == 3
        assert all(f"LIMIT {MAX_PAGE_SIZE + 1}" in query for query in reads)
        assert len(sql) == 3 * 3
        # The rows written so far never go back, and end at every entry and run (3 runs).
        assert rows == sorted(rows)
        assert rows[-1] == ENTRIES + 3


@pytest.mark.parametrize("count", [0, 1, 3])
def test_a_short_journal_is_the_same_document_as_before(client, user, estimate, order, count):
    journal(user, estimate, order, count)
    for json_response, ensure_ascii, md_response in downloads(client, user):
        body = whole(json_response)
        assert body == whole_json(user, json.loads(body)["exported_at"], ensure_ascii=ensure_ascii)
        text = whole(md_response)
        exported = re.search(r"^- Exported: (.+ UTC)$", text, re.MULTILINE)
        assert exported is not None
        assert text == whole_markdown(user, exported.group(1))


def test_the_markdown_is_in_the_language_of_the_request(client, user, estimate, order):
    journal(user, estimate, order, 1)
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "vi"
    text = whole(client.get(reverse("journal:export_md")))
    assert "Nhật ký thí nghiệm" in text
    assert "Experiment journal" not in text


def test_a_journal_over_the_bound_is_not_answered_at_once(client, user, estimate, order, monkeypatch):
    """Past `JOURNAL_DIRECT_MAX` entries and runs, the page leads to the prepared download and the API says
    `download_too_large` (decision 0430): nothing long is written inside a request."""
    journal(user, estimate, order, 4)  # 4 entries, 2 runs (on the first and the last)
    monkeypatch.setattr("gpurent.journal.export.JOURNAL_DIRECT_MAX", 5)
    (json_response, _, md_response), (api_json, _, api_md) = downloads(client, user)
    assert json_response.status_code == md_response.status_code == 302
    assert json_response["Location"] == reverse("exports:new", args=["journal.json"])
    assert md_response["Location"] == reverse("exports:new", args=["journal.md"])
    for response in (api_json, api_md):
        assert response.status_code == 409
        assert response.json()["error"]["code"] == "download_too_large"
    monkeypatch.setattr("gpurent.journal.export.JOURNAL_DIRECT_MAX", 6)
    for page_or_api in downloads(client, user):
        assert [page_or_api[0].status_code, page_or_api[2].status_code] == [200, 200]

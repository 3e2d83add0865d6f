"""A long history is prepared by the worker into a stored file, then downloaded whole or by ranges, with its
length and SHA-256; only its owner sees it (decision 0430)."""

from __future__ import annotations

import base64
import csv
import hashlib
import io
import re
from datetime import timedelta

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from gpurent.accounts.owners import Owner
from gpurent.core.errors import NotFound
from gpurent.exports.enums import ExportState
from gpurent.exports.models import Export, ExportPart
from gpurent.exports.services import STALLED_AFTER, export_request, exports_purge
from gpurent.exports.writing import KEEP, export_write
from gpurent.payments.balance.statement import balance_csv

from .conftest import ledger_lines

pytestmark = pytest.mark.django_db


def statement(customer) -> bytes:
    return "".join(text for text, _ in balance_csv(customer)).encode()


def prepare(client, kind: str, capture) -> Export:
    """Ask for the file on its page, as the customer's browser does; the worker (immediate in tests) writes it
    once the request commits."""
    with capture(execute=True):
        response = client.post(reverse("exports:new", args=[kind]), {"idempotency_key": f"k-{kind}"})
    assert response.status_code == 302
    export = Export.objects.get(kind=kind)
    assert response["Location"] == reverse("exports:detail", args=[export.public_id])
    return export


def test_a_long_statement_leads_to_its_prepared_file(client, customer, small_parts, django_capture_on_commit_callbacks):
    ledger_lines(customer, 4)
    client.force_login(customer)
    response = client.get(reverse("payments:balance_csv"))
    assert response["Location"] == reverse("exports:new", args=["balance.csv"])
    page = client.get(response["Location"]).content.decode()
    assert "Prepare the file" in page
    export = prepare(client, "balance.csv", django_capture_on_commit_callbacks)
    export.refresh_from_db()
    expected = statement(customer)
    assert (export.state, export.rows_total, export.rows_done) == (ExportState.READY, 4, 4)
    assert (export.size_bytes, export.sha256) == (len(expected), hashlib.sha256(expected).hexdigest())
    assert ExportPart.objects.filter(export=export).count() == -(-len(expected) // small_parts)
    assert export.filename == f"balance-{timezone.now():%Y-%m-%d}.csv"
    page = client.get(reverse("exports:detail", args=[export.public_id])).content.decode()
    assert "Your file is ready" in page
    assert export.sha256 in page
    assert "hx-trigger" not in page  # nothing left to wait for
    download = client.get(reverse("exports:file", args=[export.public_id]))
    body = b"".join(download.streaming_content)
    assert body == expected
    assert download["Content-Length"] == str(len(expected))
    assert download["Repr-Digest"] == f"sha-256=:{base64.b64encode(hashlib.sha256(expected).digest()).decode()}:"
    assert download["ETag"] == f'"{export.sha256}"'
    assert download["Content-Disposition"] == f'attachment; filename="{export.filename}"'
    assert "no-store" in download["Cache-Control"]
    assert [row["amount_usd"] for row in csv.DictReader(io.StringIO(body.decode()))] == [
        "1.00",
        "1.01",
        "1.02",
        "1.03",
    ]


def test_a_cut_download_is_resumed_from_the_byte_it_stopped_at(client, customer, small_parts):
    ledger_lines(customer, 5)
    export = export_request(owner=Owner(user=customer), kind="balance.csv", language="en")
    assert export_write(export.pk, writer="w")
    expected, url = statement(customer), reverse("exports:file", args=[export.public_id])
    client.force_login(customer)
    size, etag = len(expected), f'"{hashlib.sha256(expected).hexdigest()}"'
    for first, last in [(0, 4), (95, 205), (100, 199), (250, size - 1), (size - 1, size - 1)]:
        part = client.get(url, HTTP_RANGE=f"bytes={first}-{last}", HTTP_IF_RANGE=etag)
        assert part.status_code == 206
        assert part["Content-Range"] == f"bytes {first}-{last}/{size}"
        assert part["Content-Length"] == str(last - first + 1)
        assert b"".join(part.streaming_content) == expected[first : last + 1]
    rest = client.get(url, HTTP_RANGE="bytes=150-")
    assert b"".join(rest.streaming_content) == expected[150:]
    # A range of another version of the file is not served: the whole current file is.
    other = client.get(url, HTTP_RANGE="bytes=150-", HTTP_IF_RANGE='"another"')
    assert (other.status_code, b"".join(other.streaming_content)) == (200, expected)
    past = client.get(url, HTTP_RANGE=f"bytes={size}-")
    assert (past.status_code, past["Content-Range"]) == (416, f"bytes */{size}")
    backwards = client.get(url, HTTP_RANGE="bytes=20-10")
    assert (backwards.status_code, b"".join(backwards.streaming_content)) == (200, expected)


def test_another_customers_export_does_not_exist(client, customer, stranger, auth):
    ledger_lines(customer, 2)
    export = export_request(owner=Owner(user=customer), kind="balance.csv", language="en")
    export_write(export.pk, writer="w")
    client.force_login(stranger)
    for name in ("exports:detail", "exports:file"):
        assert client.get(reverse(name, args=[export.public_id])).status_code == 404
    client.logout()
    assert client.get(reverse("exports:file", args=[export.public_id])).status_code == 404  # anonymous
    stranger_auth = {"HTTP_AUTHORIZATION": f"Bearer {_token(stranger)}"}
    for path in (f"/api/v1/exports/{export.public_id}", f"/api/v1/exports/{export.public_id}/file"):
        response = client.get(path, **stranger_auth)
        assert (response.status_code, response.json()["error"]["code"]) == (404, "not_found")
        assert client.get(path, **auth).status_code == 200
    assert client.get("/api/v1/exports/not-a-uuid", **auth).status_code == 404


def _token(user) -> str:
    from gpurent.accounts.services import api_token_create

    return api_token_create(user=user, name="s")[1]


def ask(client, auth, kind: str, key: str):
    return client.post(
        "/api/v1/exports", {"kind": kind}, content_type="application/json", HTTP_IDEMPOTENCY_KEY=key, **auth
    )


def test_the_api_prepares_a_file_and_says_when_it_is_ready(client, customer, auth, django_capture_on_commit_callbacks):
    ledger_lines(customer, 3)
    with django_capture_on_commit_callbacks() as queued:
        asked = ask(client, auth, "balance.csv", "e-1")
    assert asked.status_code == 202
    body = asked.json()
    assert (body["state"], body["file_url"], body["sha256"]) == ("queued", None, "")
    early = client.get(f"/api/v1/exports/{body['id']}/file", **auth)
    assert (early.status_code, early.json()["error"]["code"]) == (409, "export_not_ready")
    for callback in queued:  # the worker's turn
        callback()
    ready = client.get(f"/api/v1/exports/{body['id']}", **auth).json()
    expected = statement(customer)
    assert ready["state"] == "ready"
    assert (ready["rows_total"], ready["rows_done"], ready["size_bytes"]) == (3, 3, len(expected))
    assert ready["sha256"] == hashlib.sha256(expected).hexdigest()
    assert ready["file_url"] == f"/api/v1/exports/{body['id']}/file"
    download = client.get(ready["file_url"], **auth)
    assert b"".join(download.streaming_content) == expected
    assert download["Content-Length"] == str(ready["size_bytes"])
    again = ask(client, auth, "balance.csv", "e-1")
    assert again.json()["id"] == body["id"]  # the same key replays the first answer
    refused = ask(client, auth, "secrets.csv", "e-2")
    assert refused.status_code == 422


def test_asking_again_returns_the_file_in_progress_and_replaces_a_finished_or_stalled_one(customer):
    ledger_lines(customer, 2)
    owner = Owner(user=customer)
    first = export_request(owner=owner, kind="balance.csv", language="en")
    assert export_request(owner=owner, kind="balance.csv", language="en") == first  # queued: the same
    export_write(first.pk, writer="w")
    second = export_request(owner=owner, kind="balance.csv", language="en")
    assert second != first
    assert not Export.objects.filter(pk=first.pk).exists()
    assert not ExportPart.objects.filter(export_id=first.pk).exists()
    Export.objects.filter(pk=second.pk).update(progress_at=timezone.now() - STALLED_AFTER - timedelta(seconds=1))
    third = export_request(owner=owner, kind="balance.csv", language="en")
    assert third != second
    assert list(Export.objects.values_list("pk", flat=True)) == [third.pk]  # one of each kind per owner


def test_a_guest_may_prepare_the_journal_but_not_an_accounts_statement(client, django_capture_on_commit_callbacks):
    client.post(reverse("journal:entry_create"), {"question": "bf16 or fp8?", "idempotency_key": "j-1"})
    export = prepare(client, "journal.md", django_capture_on_commit_callbacks)
    export.refresh_from_db()
    assert (export.user, export.state) == (None, ExportState.READY)
    assert export.guest is not None
    text = b"".join(client.get(reverse("exports:file", args=[export.public_id])).streaming_content).decode()
    assert "## bf16 or fp8?" in text
    assert client.get(reverse("exports:new", args=["balance.csv"]))["Location"].startswith(reverse("accounts:login"))
    with pytest.raises(NotFound):
        export_request(owner=Owner(guest=export.guest), kind="rentals.csv", language="en")
    assert client.get(reverse("exports:new", args=["nothing.csv"])).status_code == 404


def test_a_file_is_written_in_the_language_it_was_asked_in(client, customer, django_capture_on_commit_callbacks):
    from gpurent.journal.records import EntryDraft
    from gpurent.journal.services import entry_create

    entry_create(owner=Owner(user=customer), draft=EntryDraft(question="bf16?"))
    client.force_login(customer)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "vi"
    export = prepare(client, "journal.md", django_capture_on_commit_callbacks)
    assert export.language == "vi"
    text = b"".join(client.get(reverse("exports:file", args=[export.public_id])).streaming_content).decode()
    assert text.startswith("# Nhật ký thí nghiệm")


def test_the_page_shows_the_progress_and_asks_again_while_the_file_is_written(client, customer):
    export = export_request(owner=Owner(user=customer), kind="balance.csv", language="en")
    Export.objects.filter(pk=export.pk).update(state=ExportState.WRITING, rows_total=1_000_000, rows_done=412_000)
    client.force_login(customer)
    page = client.get(reverse("exports:detail", args=[export.public_id])).content.decode()
    assert "Written so far: 412,000 of 1,000,000." in page
    assert re.search(r'hx-get="[^"]+" hx-trigger="every \d+s"', page)
    partial = client.get(reverse("exports:detail", args=[export.public_id]), HTTP_HX_REQUEST="true").content.decode()
    assert partial.startswith('<section class="panel" id="export-progress"')
    early = client.get(reverse("exports:file", args=[export.public_id]))
    assert early["Location"] == reverse("exports:detail", args=[export.public_id])


def test_a_run_taken_over_by_another_stops_writing(customer, monkeypatch):
    ledger_lines(customer, 3)
    export = export_request(owner=Owner(user=customer), kind="balance.csv", language="en")
    monkeypatch.setattr("gpurent.exports.writing.PART_BYTES", 10)

    def pieces_then_taken_over(owner, now):
        yield "a" * 25, 1
        Export.objects.filter(pk=export.pk).update(writer="another run")  # the task queued again took it
        yield "b" * 25, 2

    _kind_with(monkeypatch, write=pieces_then_taken_over)
    assert not export_write(export.pk, writer="first run")
    export.refresh_from_db()
    assert (export.state, export.writer) == (ExportState.WRITING, "another run")
    assert ExportPart.objects.filter(export=export).count() == 2  # the first run's two full parts, nothing after


def test_a_writer_that_fails_marks_the_export_failed(client, customer, monkeypatch):
    export = export_request(owner=Owner(user=customer), kind="balance.csv", language="en")

    def broken(owner, now):
        yield "header\n", 0
        raise ValueError("a bug")

    _kind_with(monkeypatch, write=broken)
    with pytest.raises(ValueError, match="a bug"):
        export_write(export.pk, writer="w")
    export.refresh_from_db()
    assert export.state == ExportState.FAILED
    client.force_login(customer)
    page = client.get(reverse("exports:detail", args=[export.public_id])).content.decode()
    assert "Please ask for it again" in page
    assert not export_write(export.pk, writer="w2")  # a failed export is not written again; a new one is asked for


def _kind_with(monkeypatch, **changes) -> None:
    from dataclasses import replace

    from gpurent.exports import kinds

    monkeypatch.setitem(kinds.KINDS, "balance.csv", replace(kinds.KINDS["balance.csv"], **changes))


def test_the_sweep_deletes_files_a_day_after_they_were_ready(customer):
    ledger_lines(customer, 1)
    export = export_request(owner=Owner(user=customer), kind="balance.csv", language="en")
    export_write(export.pk, writer="w")
    export.refresh_from_db()
    assert export.finished_at is not None
    assert exports_purge(now=export.finished_at + KEEP - timedelta(seconds=1)) == 0
    assert exports_purge(now=export.finished_at + KEEP + timedelta(seconds=1)) == 1
    assert not ExportPart.objects.exists()

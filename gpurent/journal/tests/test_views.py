"""Journal pages: opening an entry once per key, recording a run, comparing, exports, and owner scoping."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from django.urls import reverse

from gpurent.journal.forms import PeaksField
from gpurent.journal.models import JournalEntry, Run
from vramcalc.units import GIB

pytestmark = pytest.mark.django_db


def test_entry_create_from_a_saved_estimate_once_per_key(client, user, estimate):
    client.force_login(user)
    page = client.get(reverse("journal:entry_create"), {"estimate": str(estimate.public_id)})
    assert page.context["form"]["estimate"].value() == str(estimate.public_id)
    data = {"question": "bf16 vs fp8", "estimate": str(estimate.public_id), "idempotency_key": "k1"}
    first = client.post(reverse("journal:entry_create"), data)
    second = client.post(reverse("journal:entry_create"), data)
    entry = JournalEntry.objects.get()
    assert first["Location"] == second["Location"] == reverse("journal:entry", args=[entry.public_id])
    html = client.get(first["Location"]).content.decode()
    assert "Estimate · assumption" in html
    assert "20.00 GiB" in html


def test_entry_create_without_question_shows_the_error(client, user):
    client.force_login(user)
    response = client.post(reverse("journal:entry_create"), {"question": "", "idempotency_key": "k1"})
    assert response.status_code == 422
    assert "This field is required." in response.content.decode()
    assert not JournalEntry.objects.exists()


def test_guest_entry_is_listed_in_the_guest_session_only(client, db):
    client.post(reverse("journal:entry_create"), {"question": "guest question", "idempotency_key": "k1"})
    assert "guest question" in client.get(reverse("journal:index")).content.decode()
    assert JournalEntry.objects.get().guest is not None


def test_run_create_records_a_run_and_prefills_the_next_one(client, user, entry):
    client.force_login(user)
    url = reverse("journal:run_create", args=[entry.public_id])
    data = {
        "name": "bf16 b16",
        "code_version": "a1b2c3d",
        "parameters": "batch=16\ndtype=bf16",
        "seeds": "torch=0",
        "reproducibility": "not_stated",
        "steady_peak": "22",
        "peak_source": "nvidia-smi",
        "steady_throughput": "1830",
        "throughput_unit": "tokens/s",
        "outcome": "completed",
        "checkpoint": "none",
        "idempotency_key": "k1",
    }
    response = client.post(url, data)
    run = Run.objects.get()
    assert response["Location"] == reverse("journal:run", args=[entry.public_id, run.public_id])
    assert run.parameters == {"batch": "16", "dtype": "bf16"}
    html = client.get(response["Location"]).content.decode()
    assert "Observation · measured" in html
    assert "Estimate error −9.1 %" in html
    form = client.get(url).context["form"]
    assert form["parameters"].value() == "batch=16\ndtype=bf16"


def test_entry_runs_are_cards_with_named_figures_on_a_phone(client, user, entry):
    # A sideways-scrolling table hid the observed peak past the right edge at 390 px.
    client.force_login(user)
    data = {"name": "bf16 b16", "steady_peak": "61,5", "reproducibility": "not_stated", "outcome": "completed"}
    client.post(
        reverse("journal:run_create", args=[entry.public_id]), {**data, "checkpoint": "none", "idempotency_key": "k"}
    )
    html = client.get(reverse("journal:entry", args=[entry.public_id])).content.decode()
    assert '<table class="data-table stack-table" data-testid="runs">' in html
    assert 'data-label="Observed peak">61.50 GiB' in html
    run = client.get(reverse("journal:run", args=[entry.public_id, Run.objects.get().public_id])).content.decode()
    assert '<table class="data-table observed-table stack-table" data-testid="measurements">' in run
    assert 'data-label="Peak memory per GPU">61.50 GiB' in run


def test_run_create_bad_pairs_and_peaks_are_explained(client, user, entry):
    client.force_login(user)
    url = reverse("journal:run_create", args=[entry.public_id])
    data = {"name": "x", "parameters": "batch 16", "steady_peak": "lots", "reproducibility": "tolerance"}
    data |= {"outcome": "completed", "checkpoint": "none", "idempotency_key": "k1"}
    response = client.post(url, data)
    html = response.content.decode()
    assert response.status_code == 422
    assert "Line 1: write name=value (e.g. batch=16)." in html
    assert "Enter one number of GiB per GPU, separated by semicolons" in html
    assert not Run.objects.exists()


@pytest.mark.parametrize(
    ("typed", "gib"),
    [
        ("61,5", [61.5]),
        ("61.5", [61.5]),
        ("21,4; 21,9", [21.4, 21.9]),
        ("21.4, 21.9", [21.4, 21.9]),
        ("22 23", [22, 23]),
    ],
)
def test_a_peak_typed_with_a_decimal_comma_is_one_gpu(typed, gib):
    # "61,5" is how Spanish, Vietnamese and Turkish write 61.5: it was read as two GPUs of 61 and 5 GiB.
    assert PeaksField(required=False).clean(typed) == tuple(int(Decimal(str(g)) * GIB) for g in gib)


def test_run_create_tolerance_without_value_is_shown_on_the_field(client, user, entry):
    client.force_login(user)
    data = {"name": "x", "reproducibility": "tolerance", "outcome": "completed", "checkpoint": "none"}
    response = client.post(reverse("journal:run_create", args=[entry.public_id]), {**data, "idempotency_key": "k"})
    assert response.status_code == 422
    assert response.context["form"].errors["tolerance"] == [
        "State the tolerance within which two runs count as equivalent."
    ]


def test_compare_two_changed_variables_warns_about_attribution(client, user, entry, two_runs):
    client.force_login(user)
    a, b = two_runs
    url = reverse("journal:compare", args=[entry.public_id])
    html = client.get(url, {"a": str(a.public_id), "b": str(b.public_id)}).content.decode()
    assert "2 variables changed between these runs." in html
    assert "cannot be attributed to a single factor" in html
    assert "Parameter batch" in html


def test_exports_download_markdown_and_json(client, user, entry, two_runs):
    client.force_login(user)
    md = client.get(reverse("journal:entry_export_md", args=[entry.public_id]))
    assert md["Content-Type"] == "text/markdown; charset=utf-8"
    assert "attachment;" in md["Content-Disposition"]
    text = md.content.decode()
    assert text.startswith("# bf16 vs fp8 at batch 16")
    assert "Estimate (an assumption, not a measurement)" in text
    assert "## Run 2: fp8 b32" in text
    document = json.loads(client.get(reverse("journal:export_json")).getvalue())
    assert document["format"] == "gpurent-journal/1"
    (exported,) = document["entries"]
    assert exported["estimate"]["kind"] == "estimate"
    assert exported["runs"][0]["steady"]["kind"] == "observation"
    journal_md = client.get(reverse("journal:export_md")).getvalue().decode()
    assert "## bf16 vs fp8 at batch 16" in journal_md


@pytest.mark.parametrize(
    ("name", "with_run"),
    [
        ("journal:entry", False),
        ("journal:run_create", False),
        ("journal:compare", False),
        ("journal:entry_export_md", False),
        ("journal:entry_export_json", False),
        ("journal:run", True),
    ],
)
def test_another_customers_entry_is_a_404(client, other_user, entry, two_runs, name, with_run):
    client.force_login(other_user)
    args = [entry.public_id, two_runs[0].public_id] if with_run else [entry.public_id]
    assert client.get(reverse(name, args=args)).status_code == 404
    if name == "journal:run_create":
        data = {"name": "x", "outcome": "completed", "checkpoint": "none", "idempotency_key": "k"}
        assert client.post(reverse(name, args=args), data).status_code == 404
        assert Run.objects.count() == 2


def test_another_customers_entries_are_not_listed_or_exported(client, other_user, entry):
    client.force_login(other_user)
    assert entry.question not in client.get(reverse("journal:index")).content.decode()
    assert json.loads(client.get(reverse("journal:export_json")).getvalue())["entries"] == []


def test_a_guest_cannot_open_an_account_entry(client, entry):
    assert client.get(reverse("journal:entry", args=[entry.public_id])).status_code == 404


def test_client_download_is_the_standalone_script(client, db):
    response = client.get(reverse("journal:client"))
    assert response["Content-Disposition"] == 'attachment; filename="gpurent_journal.py"'
    assert b"def post_run(" in response.content


@pytest.mark.parametrize("path", ["/api/v1/journal/export.json", "entry-api", "journal:export_json", "entry-page"])
def test_exported_json_links_are_whole_urls_on_the_shops_address(client, settings, user, entry, two_runs, path):
    # QA2 #22: "web_url": "/journal/<id>/" was useless in a file read away from the site.
    settings.SITE_URL = "https://shop.example/"
    client.force_login(user)
    url = {
        "entry-api": f"/api/v1/journal/entries/{entry.public_id}/export.json",
        "entry-page": reverse("journal:entry_export_json", args=[entry.public_id]),
        "journal:export_json": reverse("journal:export_json"),
    }.get(path, path)
    response = client.get(url)
    content = response.getvalue() if response.streaming else response.content
    document = json.loads(content)
    (exported,) = document.get("entries") or [document["entry"]]
    assert exported["web_url"] == f"https://shop.example/journal/{entry.public_id}/"
    assert [run["web_url"] for run in exported["runs"]] == [
        f"https://shop.example/journal/{entry.public_id}/runs/{run.public_id}/" for run in two_runs
    ]
    # The API's own answers keep the path its clients put the shop's address before.
    read = client.get(f"/api/v1/journal/entries/{entry.public_id}").json()
    assert read["web_url"] == f"/journal/{entry.public_id}/"

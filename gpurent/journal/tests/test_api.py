"""`/api/v1/journal`: shapes, idempotency, 422 on bad input, and owner scoping for every route."""

from __future__ import annotations

import json

import pytest

from gpurent.accounts.services import api_token_create
from gpurent.journal.models import JournalEntry, Run

from .conftest import GIB

pytestmark = pytest.mark.django_db

BASE = "/api/v1/journal"
RUN = {
    "name": "bf16 b16",
    "parameters": {"batch": 16, "dtype": "bf16", "compile": True},
    "steady": {"peak_bytes_per_gpu": [22 * GIB], "peak_source": "nvidia-smi", "throughput": 1830.5},
}


def bearer(user):
    _token, secret = api_token_create(user=user, name="test")
    return {"HTTP_AUTHORIZATION": f"Bearer {secret}"}


def post(client, url, auth, body, key="k-1"):
    return client.post(url, body, content_type="application/json", HTTP_IDEMPOTENCY_KEY=key, **auth)


def test_create_entry_and_list_it(client, user, estimate, order):
    auth = bearer(user)
    body = {"question": "bf16 vs fp8", "rental": order.ref, "estimate": str(estimate.public_id)}
    response = post(client, f"{BASE}/entries", auth, body)
    assert response.status_code == 201, response.content
    created = response.json()
    assert (created["rental"], created["estimate"]["kind"], created["runs"]) == (order.ref, "estimate", [])
    assert created["web_url"] == f"/journal/{created['id']}/"
    listed = client.get(f"{BASE}/entries", **auth).json()["items"]
    assert [item["id"] for item in listed] == [created["id"]]
    # The list's row has every field of the entry (DESIGN §11.1: never renamed), and its newest runs.
    assert {key: listed[0][key] for key in created} == created
    assert (listed[0]["runs"], listed[0]["latest_runs"]) == ([], [])


def test_create_entry_same_key_replays_and_other_body_is_422(client, user):
    auth = bearer(user)
    first = post(client, f"{BASE}/entries", auth, {"question": "q"})
    again = post(client, f"{BASE}/entries", auth, {"question": "q"})
    assert first.json() == again.json()
    reused = post(client, f"{BASE}/entries", auth, {"question": "other"})
    assert (reused.status_code, reused.json()["error"]["code"]) == (422, "idempotency_key_reused")
    assert JournalEntry.objects.count() == 1


def test_create_entry_without_key_or_with_foreign_estimate_is_422(client, user, other_user):
    from .conftest import make_estimate

    auth = bearer(user)
    no_key = client.post(f"{BASE}/entries", {"question": "q"}, content_type="application/json", **auth)
    assert no_key.status_code == 422
    theirs = make_estimate(other_user)
    response = post(client, f"{BASE}/entries", auth, {"question": "q", "estimate": str(theirs.public_id)})
    assert response.status_code == 422
    assert response.json()["error"] == {
        "code": "invalid_request",
        "message": "You have no saved estimate with this id.",
    }


def test_create_run_returns_the_run_with_the_estimate_check(client, user, entry):
    auth = bearer(user)
    response = post(client, f"{BASE}/entries/{entry.public_id}/runs", auth, RUN)
    assert response.status_code == 201, response.content
    run = response.json()
    assert run["number"] == 1
    assert run["parameters"] == {"batch": "16", "compile": "true", "dtype": "bf16"}
    assert run["steady"]["kind"] == "observation"
    assert run["estimate_check"]["error_bytes"] == -2 * GIB
    assert run["web_url"] == f"/journal/{entry.public_id}/runs/{run['id']}/"
    again = post(client, f"{BASE}/entries/{entry.public_id}/runs", auth, RUN)
    assert again.json() == run
    assert Run.objects.count() == 1
    read = client.get(f"{BASE}/entries/{entry.public_id}/runs/{run['id']}", **auth)
    assert read.json()["id"] == run["id"]


@pytest.mark.parametrize(
    "change",
    [
        {"name": ""},
        {"outcome": "maybe"},
        {"steady": {"peak_bytes_per_gpu": [0]}},
        {"steady": {"throughput": -1}},
        {"reproducibility": "tolerance"},
        {"first": {"quality_value": 0.3}},
    ],
)
def test_create_run_bad_input_is_422_and_writes_nothing(client, user, entry, change):
    response = post(client, f"{BASE}/entries/{entry.public_id}/runs", bearer(user), {**RUN, **change})
    assert response.status_code == 422, response.content
    assert response.json()["error"]["code"] == "invalid_request"
    assert not Run.objects.exists()


def test_exports_answer_markdown_and_json(client, user, entry, two_runs):
    auth = bearer(user)
    md = client.get(f"{BASE}/entries/{entry.public_id}/export.md", **auth)
    assert md["Content-Type"] == "text/markdown; charset=utf-8"
    assert "## Run 1: bf16 b16" in md.content.decode()
    document = json.loads(client.get(f"{BASE}/export.json", **auth).getvalue())
    assert [len(e["runs"]) for e in document["entries"]] == [2]
    assert client.get(f"{BASE}/export.md", **auth).status_code == 200
    assert client.get(f"{BASE}/entries/{entry.public_id}/export.json", **auth).json()["entry"]["id"] == str(
        entry.public_id
    )


@pytest.mark.parametrize(
    "path",
    ["/entries/{entry}", "/entries/{entry}/runs/{run}", "/entries/{entry}/export.md", "/entries/{entry}/export.json"],
)
def test_another_customers_entry_is_a_404(client, other_user, entry, two_runs, path):
    url = BASE + path.format(entry=entry.public_id, run=two_runs[0].public_id)
    response = client.get(url, **bearer(other_user))
    assert (response.status_code, response.json()["error"]["code"]) == (404, "not_found")


def test_posting_a_run_to_another_customers_entry_is_a_404(client, other_user, entry):
    response = post(client, f"{BASE}/entries/{entry.public_id}/runs", bearer(other_user), RUN)
    assert response.status_code == 404
    assert not Run.objects.exists()


def test_without_authentication_is_401(client, entry):
    assert client.get(f"{BASE}/entries").status_code == 401
    assert (
        client.post(f"{BASE}/entries/{entry.public_id}/runs", RUN, content_type="application/json").status_code == 401
    )

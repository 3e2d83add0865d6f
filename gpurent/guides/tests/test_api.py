"""`/api/v1/guides`: the public guide list, and quote requests created once per key and scoped to their owner."""

import uuid

import pytest

from gpurent.accounts.models import GuestSession
from gpurent.accounts.owners import Owner
from gpurent.guides.models import QuoteRequest
from gpurent.guides.services import quote_request_create

from .test_services import DETAILS

pytestmark = pytest.mark.django_db

BODY = {
    "gpu": "h100-80gb",
    "workload": "llm-serving",
    "guide_scope": "pilot",
    "model": "gemma-3-27b",
    "endpoint": "openai_api",
    "support_level": "managed",
    "delivery_scope": "pilot",
    "expected_load": "20,000 requests a day, peaks of 30 at once.",
}


def post(client, body=BODY, key="k-1"):
    return client.post("/api/v1/guides/quotes", body, content_type="application/json", HTTP_IDEMPOTENCY_KEY=key)


def test_list_guides_is_public_and_filterable(client, demo_catalog):
    body = client.get("/api/v1/guides").json()
    assert len(body["items"]) == 105
    filtered = client.get("/api/v1/guides", {"gpu": "a100-80gb", "scope": "production"}).json()["items"]
    assert {item["workload"] for item in filtered} == {
        "llm-serving",
        "lora-finetuning",
        "full-finetuning",
        "image-generation",
        "vision-finetuning",
    }
    item = next(i for i in filtered if i["workload"] == "vision-finetuning")
    assert item["title"] == "A100 80GB for vision-model fine-tuning: production"
    assert item["url"] == "/guides/a100-80gb/vision-finetuning/production/"
    assert item["estimator_url"].startswith("/estimate/?preset=vit-huge-patch14-224")
    assert item["estimator_fields"]["workload"] == "vision_finetune"
    assert client.get("/api/v1/guides", {"scope": "forever"}).status_code == 422


def test_create_quote_needs_authentication(client, demo_catalog):
    response = post(client)
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "not_authenticated"


def test_create_quote_once_per_key_with_the_accounts_email(client, demo_catalog, customer):
    client.force_login(customer)
    first, second = post(client), post(client)
    assert first.status_code == second.status_code == 201
    assert first.json() == second.json()
    body = first.json()
    assert (body["contact_email"], body["status"], body["gpu"], body["model"]) == (
        "ada@example.com",
        "new",
        "h100-80gb",
        "gemma-3-27b",
    )
    assert QuoteRequest.objects.get().user == customer
    reused = post(client, {**BODY, "model": "llama-3.1-70b"})
    assert reused.status_code == 422
    assert reused.json()["error"]["code"] == "idempotency_key_reused"


def test_create_quote_without_key_or_with_bad_fields_is_422_and_writes_nothing(client, demo_catalog, customer):
    client.force_login(customer)
    missing = client.post("/api/v1/guides/quotes", BODY, content_type="application/json")
    assert missing.status_code == 422
    unknown_gpu = post(client, {**BODY, "gpu": "tpu-v5"})
    assert (unknown_gpu.status_code, unknown_gpu.json()["error"]["message"]) == (422, "This GPU model is not on sale.")
    bad_email = post(client, {**BODY, "contact_email": "nope"}, key="k-2")
    assert bad_email.status_code == 422
    assert QuoteRequest.objects.count() == 0


def test_create_quote_rate_limited_is_429(client, demo_catalog, customer, settings):
    settings.GUIDES_QUOTE_RATE_LIMIT = 1
    client.force_login(customer)
    assert post(client, key="k-1").status_code == 201
    response = post(client, key="k-2")
    assert response.status_code == 429
    assert response.json()["error"]["code"] == "rate_limited"


def test_quotes_are_scoped_to_their_owner(client, demo_catalog, customer, other_customer):
    mine = quote_request_create(owner=Owner(user=customer), details=DETAILS)
    theirs = quote_request_create(owner=Owner(user=other_customer), details=DETAILS)
    guests = quote_request_create(owner=Owner(guest=GuestSession.objects.create()), details=DETAILS)
    client.force_login(customer)
    assert [item["id"] for item in client.get("/api/v1/guides/quotes").json()["items"]] == [str(mine.public_id)]
    assert client.get(f"/api/v1/guides/quotes/{mine.public_id}").json()["ref"] == mine.short_id
    for other in (theirs.public_id, guests.public_id, uuid.uuid4(), "not-a-uuid"):
        response = client.get(f"/api/v1/guides/quotes/{other}")
        assert response.status_code == 404
        assert response.json()["error"]["code"] == "not_found"

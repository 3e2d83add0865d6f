"""`/api/v1/support`: shapes, redaction in responses, idempotency, limits, and owner scoping."""

import pytest

from gpurent.support.models import SupportMessage, SupportRequest
from gpurent.support.tests.conftest import FAKE_AWS_KEY, FAKE_SEED

pytestmark = pytest.mark.django_db

BODY = {"subject": "vLLM 401", "observed": "401 Unauthorized", "logs": ""}


def post(client, auth, path, body, key="k-1"):
    return client.post(path, body, content_type="application/json", HTTP_IDEMPOTENCY_KEY=key, **auth)


def test_support_api_create_redacts_and_lists_what_was_removed(client, auth, order):
    body = {**BODY, "order": order.ref, "logs": f"key {FAKE_AWS_KEY}\n\n{FAKE_SEED}"}
    response = post(client, auth, "/api/v1/support/requests", body)
    assert response.status_code == 201
    data = response.json()
    assert data["ref"].startswith("S-")
    assert (data["order"], data["gpu"], data["status"]) == (order.ref, order.gpu.slug, "open")
    assert data["logs"] == "key [REDACTED: AWS access key]\n\n[REDACTED: Wallet seed phrase]"
    assert data["redactions"] == [
        {"field": "logs", "line": 1, "kind": "aws_access_key", "label": "AWS access key"},
        {"field": "logs", "line": 3, "kind": "seed_phrase", "label": "Wallet seed phrase"},
    ]
    assert FAKE_AWS_KEY not in response.content.decode()
    assert data["messages"] == []


def test_support_api_create_replays_with_the_same_key(client, auth):
    first = post(client, auth, "/api/v1/support/requests", BODY)
    second = post(client, auth, "/api/v1/support/requests", BODY)
    assert first.json()["ref"] == second.json()["ref"]
    assert SupportRequest.objects.count() == 1
    other = post(client, auth, "/api/v1/support/requests", {**BODY, "subject": "other"})
    assert (other.status_code, other.json()["error"]["code"]) == (422, "idempotency_key_reused")


def test_support_api_create_requires_an_idempotency_key(client, auth):
    response = client.post("/api/v1/support/requests", BODY, content_type="application/json", **auth)
    assert (response.status_code, response.json()["error"]["code"]) == (422, "invalid_request")


def test_support_api_create_refuses_other_orders_oversized_fields_and_excess(client, other_auth, order, settings):
    settings.SUPPORT_FIELD_MAX_BYTES = 100
    foreign = post(client, other_auth, "/api/v1/support/requests", {**BODY, "order": order.ref}, key="a")
    assert (foreign.status_code, foreign.json()["error"]["code"]) == (422, "invalid_request")
    big = post(client, other_auth, "/api/v1/support/requests", {**BODY, "logs": "x" * 101}, key="b")
    assert big.status_code == 422
    assert "Messages and logs is too long" in big.json()["error"]["message"]
    settings.SUPPORT_REQUEST_RATE_LIMITS = [(3600, 1)]
    assert post(client, other_auth, "/api/v1/support/requests", BODY, key="c").status_code == 201
    limited = post(client, other_auth, "/api/v1/support/requests", BODY, key="d")
    assert (limited.status_code, limited.json()["error"]["code"]) == (429, "rate_limited")


def test_support_api_list_and_read_only_my_requests(client, auth, other_auth, support_request):
    mine = client.get("/api/v1/support/requests", **auth).json()["items"]
    assert [item["ref"] for item in mine] == [support_request.ref]
    assert client.get("/api/v1/support/requests", **other_auth).json() == {"items": [], "next": None}
    assert client.get(f"/api/v1/support/requests/{support_request.ref}", **auth).status_code == 200
    response = client.get(f"/api/v1/support/requests/{support_request.ref}", **other_auth)
    assert (response.status_code, response.json()["error"]["code"]) == (404, "not_found")


def test_support_api_message_is_redacted_and_idempotent(client, auth, support_request):
    path = f"/api/v1/support/requests/{support_request.ref}/messages"
    first = post(client, auth, path, {"body": "DB_PASSWORD=Sup3r!secret"})
    again = post(client, auth, path, {"body": "DB_PASSWORD=Sup3r!secret"})
    assert first.status_code == 201
    assert first.json() == again.json()
    assert first.json()["body"] == "DB_PASSWORD=[REDACTED: Password]"
    assert first.json()["author"] == "customer"
    assert SupportMessage.objects.count() == 1
    detail = client.get(f"/api/v1/support/requests/{support_request.ref}", **auth).json()
    assert [message["body"] for message in detail["messages"]] == ["DB_PASSWORD=[REDACTED: Password]"]


def test_support_api_message_to_another_customers_request_is_not_found(client, other_auth, support_request):
    path = f"/api/v1/support/requests/{support_request.ref}/messages"
    response = post(client, other_auth, path, {"body": "hi"})
    assert response.status_code == 404
    assert not SupportMessage.objects.exists()


def test_support_api_requires_authentication(client, support_request):
    assert client.get("/api/v1/support/requests").status_code == 401
    assert client.get(f"/api/v1/support/requests/{support_request.ref}").status_code == 401


def test_support_api_stores_no_aws_secret_after_its_key_id_nor_a_spanish_seed_phrase(client, auth):
    """Issue 32: a walk-through pasted `AKIA… / <secret>` and the secret was stored and shown to the operator (0389);
    a Spanish seed phrase went through whole (0390)."""
    secret = "wJalrXUtnFEMI/K7MDENG+bPxRfiCY3fake8Kw2Q"
    seed = "fogón verano óvulo humo bulto redondo manga jarabe alarma burla mazorca cariño"  # a valid checksum
    body = {**BODY, "logs": f"AWS {FAKE_AWS_KEY} / {secret}\nmi frase: {seed}"}
    response = post(client, auth, "/api/v1/support/requests", body)
    assert response.status_code == 201
    stored = SupportRequest.objects.get()
    assert stored.logs == (
        "AWS [REDACTED: AWS access key] / [REDACTED: AWS secret access key]\nmi frase: [REDACTED: Wallet seed phrase]"
    )
    assert [item["kind"] for item in response.json()["redactions"]] == [
        "aws_access_key",
        "aws_secret_key",
        "seed_phrase",
    ]

"""`/api/v1/ssh-keys`: list, add and remove with a token; the account page's checks; owner scoping;
Idempotency-Key like every write; the OpenAPI document."""

import pytest

from gpurent.accounts.models import SshKey
from gpurent.accounts.services import api_token_create

from .test_ssh_keys import ED25519, ED25519_FINGERPRINT

pytestmark = pytest.mark.django_db

PRIVATE = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmU=\n-----END OPENSSH PRIVATE KEY-----"


@pytest.fixture
def auth(user):
    _, token = api_token_create(user=user, name="script")
    return {"HTTP_AUTHORIZATION": f"Bearer {token}"}


def _add(client, auth, body, key="k-1"):
    return client.post("/api/v1/ssh-keys", body, content_type="application/json", HTTP_IDEMPOTENCY_KEY=key, **auth)


def test_add_list_remove_with_a_token(client, user, auth):
    added = _add(client, auth, {"name": "laptop", "public_key": ED25519})
    assert added.status_code == 201
    body = added.json()
    assert (body["name"], body["key_type"], body["fingerprint"]) == ("laptop", "ssh-ed25519", ED25519_FINGERPRINT)
    listed = client.get("/api/v1/ssh-keys", **auth).json()
    assert [item["fingerprint"] for item in listed] == [ED25519_FINGERPRINT]
    removed = client.delete(f"/api/v1/ssh-keys/{body['id']}", HTTP_IDEMPOTENCY_KEY="r-1", **auth)
    assert removed.status_code == 200
    assert removed.json()["id"] == body["id"]
    assert not SshKey.objects.exists()
    # A retry of the same removal replays its answer; a new key for it finds nothing.
    assert client.delete(f"/api/v1/ssh-keys/{body['id']}", HTTP_IDEMPOTENCY_KEY="r-1", **auth).status_code == 200
    gone = client.delete(f"/api/v1/ssh-keys/{body['id']}", HTTP_IDEMPOTENCY_KEY="r-2", **auth)
    assert gone.status_code == 404
    assert gone.json()["error"]["code"] == "not_found"


def test_adding_is_idempotent_by_key(client, user, auth):
    first = _add(client, auth, {"name": "laptop", "public_key": ED25519})
    again = _add(client, auth, {"name": "laptop", "public_key": ED25519})
    assert again.status_code == 201
    assert again.json() == first.json()
    assert SshKey.objects.count() == 1
    other_body = _add(client, auth, {"name": "desk", "public_key": ED25519})
    assert other_body.status_code == 422
    assert other_body.json()["error"]["code"] == "idempotency_key_reused"
    duplicate = _add(client, auth, {"name": "desk", "public_key": ED25519}, key="k-2")
    assert duplicate.status_code == 422
    assert duplicate.json()["error"]["message"] == "This key is already on your account."
    assert (
        client.post(
            "/api/v1/ssh-keys", {"name": "x", "public_key": ED25519}, content_type="application/json", **auth
        ).status_code
        == 422
    )


def test_a_private_key_is_refused_and_not_echoed_or_stored(client, user, auth):
    response = _add(client, auth, {"name": "oops", "public_key": PRIVATE})
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "invalid_request"
    assert "b3BlbnNzaC1rZXktdjEAAAAABG5vbmU" not in response.content.decode()
    assert not SshKey.objects.exists()


def test_another_customers_key_is_not_found_and_not_listed(client, user, other_user, auth):
    _, other_token = api_token_create(user=other_user, name="theirs")
    other_auth = {"HTTP_AUTHORIZATION": f"Bearer {other_token}"}
    key = _add(client, other_auth, {"name": "bo", "public_key": ED25519}).json()
    assert client.get("/api/v1/ssh-keys", **auth).json() == []
    assert client.delete(f"/api/v1/ssh-keys/{key['id']}", HTTP_IDEMPOTENCY_KEY="x", **auth).status_code == 404
    assert SshKey.objects.filter(pk=key["id"]).exists()


def test_no_credentials_no_keys(client, user):
    assert client.get("/api/v1/ssh-keys").status_code == 401


def test_the_openapi_document_describes_the_endpoints(client):
    paths = client.get("/api/v1/openapi.json").json()["paths"]
    assert set(paths["/api/v1/ssh-keys"]) == {"get", "post"}
    assert set(paths["/api/v1/ssh-keys/{key_id}"]) == {"delete"}
    header = [p for p in paths["/api/v1/ssh-keys"]["post"]["parameters"] if p["in"] == "header"]
    assert header[0]["name"] == "Idempotency-Key"
    assert header[0]["required"] is True

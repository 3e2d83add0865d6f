"""Who may read /metrics: a token, an allow-list of addresses, both, or nobody (decision 0411)."""

from __future__ import annotations

import pytest

from .conftest import TOKEN

pytestmark = pytest.mark.django_db


def test_metrics_without_token_or_addresses_is_not_found(client, settings):
    settings.METRICS_TOKEN = ""
    settings.METRICS_ALLOWED_IPS = []
    assert client.get("/metrics").status_code == 404
    assert client.get("/metrics", headers={"Authorization": "Bearer anything"}).status_code == 404


@pytest.mark.parametrize("authorization", [None, "Bearer wrong-token", f"Basic {TOKEN}", f"Bearer {TOKEN}x", "Bearer"])
def test_metrics_with_a_token_refuses_a_missing_or_wrong_one(client, settings, authorization):
    settings.METRICS_TOKEN = TOKEN
    settings.METRICS_ALLOWED_IPS = []
    headers = {"Authorization": authorization} if authorization else {}
    response = client.get("/metrics", headers=headers)
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == 'Bearer realm="metrics"'
    assert b"gpurent_" not in response.content


def test_metrics_with_the_token_answers_the_exposition_never_cached(client, settings):
    settings.METRICS_TOKEN = TOKEN
    settings.METRICS_ALLOWED_IPS = []
    response = client.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain; version=0.0.4; charset=utf-8"
    assert "no-store" in response["Cache-Control"]
    assert b"# TYPE gpurent_orders gauge" in response.content
    assert client.post("/metrics", headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 405


@pytest.mark.parametrize(
    ("allowed", "peer", "status"),
    [
        (["127.0.0.1"], "127.0.0.1", 200),
        (["10.1.0.0/16"], "10.1.2.3", 200),
        (["10.1.0.0/16"], "::ffff:10.1.2.3", 200),  # an IPv4 peer on a dual-stack socket
        (["2001:db8::/32"], "2001:db8::7", 200),
        (["10.1.0.0/16"], "10.2.0.1", 403),
        (["10.1.0.0/16"], "127.0.0.1", 403),
        (["10.1.0.0/16"], "not an address", 403),
    ],
)
def test_metrics_with_an_allow_list_checks_the_connecting_address(client, settings, allowed, peer, status):
    settings.METRICS_TOKEN = ""
    settings.METRICS_ALLOWED_IPS = allowed
    assert client.get("/metrics", REMOTE_ADDR=peer).status_code == status


def test_metrics_allow_list_ignores_forwarded_headers(client, settings):
    settings.METRICS_TOKEN = ""
    settings.METRICS_ALLOWED_IPS = ["10.1.0.0/16"]
    headers = {"X-Forwarded-For": "10.1.2.3", "X-Real-IP": "10.1.2.3"}
    assert client.get("/metrics", headers=headers, REMOTE_ADDR="203.0.113.9").status_code == 403


def test_metrics_with_both_needs_the_address_and_the_token(client, settings):
    settings.METRICS_TOKEN = TOKEN
    settings.METRICS_ALLOWED_IPS = ["10.1.0.0/16"]
    good = {"Authorization": f"Bearer {TOKEN}"}
    assert client.get("/metrics", headers=good, REMOTE_ADDR="10.1.0.9").status_code == 200
    assert client.get("/metrics", REMOTE_ADDR="10.1.0.9").status_code == 401
    assert client.get("/metrics", headers=good, REMOTE_ADDR="10.9.0.9").status_code == 403

"""No secret and no personal data in the logs (issue 28): the flows that handle them are driven through the test
client, every line logged meanwhile is captured as production writes it (JSON, DEBUG level and above), and none
may hold a password, an e-mail address, a token, a cookie, an SSH key, a crypto address or a customer's text."""

from __future__ import annotations

import json
import re
from decimal import Decimal

import pytest
from django.contrib.auth.tokens import default_token_generator
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from gpurent.accounts.models import User
from gpurent.core.testing import logged_lines, public_key
from gpurent.orders.services import Contact, order_place
from gpurent.payments.models import ExchangeRate, PaymentIntent, ReceivingAddress

pytestmark = pytest.mark.django_db

EMAIL = "wanda.private@example.org"
PASSWORD = "velvet harbour cobalt ninety"
WRONG_PASSWORD = "guessing harbour cobalt ten"
TRON_ADDRESS = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"
AWS_KEY = "AKIA" + "FAKE" + "Q3EGUWZKX7YH"
SUPPORT_TEXT = "my notebook says hunter2-secret-phrase"


@pytest.fixture
def shop(gpu, settings):
    settings.OPERATOR_EMAILS = ["ops.private@example.org"]
    ExchangeRate.objects.create(asset="USDT", usd_per_unit=Decimal("1"), source="test", as_of=timezone.now())
    ReceivingAddress.objects.create(network="tron", address=TRON_ADDRESS, mode="shared")
    return gpu


def test_the_flows_that_handle_secrets_log_none_of_them(client, shop):
    key = public_key("wanda@laptop")
    with logged_lines() as lines:
        registered = client.post(
            reverse("accounts:register"),
            {"first_name": "Wanda", "last_name": "Private", "email": EMAIL, "password": PASSWORD},
        )
        assert registered.status_code == 302
        client.post(reverse("accounts:logout"))
        failed = client.post(reverse("accounts:login"), {"username": EMAIL, "password": WRONG_PASSWORD})
        assert failed.status_code == 200
        signed_in = client.post(reverse("accounts:login"), {"username": EMAIL, "password": PASSWORD})
        assert signed_in.status_code == 302
        session_id = client.cookies["sessionid"].value
        added = client.post(
            reverse("accounts:ssh_key_create"), {"name": "laptop", "public_key": key, "idempotency_key": "k-key"}
        )
        assert added.status_code == 302

        user = User.objects.get(email=EMAIL)
        order = order_place(
            owner=user,
            gpu_slug=shop.slug,
            term_days=3,
            lots=1,
            environment="ubuntu",
            contact=Contact("Wanda", "Private", EMAIL),
        )
        client.post(reverse("payments:order_intent", args=[order.ref]), {"pair": "USDT/tron", "idempotency_key": "k-i"})
        intent = PaymentIntent.objects.get(order=order)
        reported = client.post(reverse("payments:intent_report", args=[intent.pk]), {"idempotency_key": "k-r"})
        assert reported.status_code == 302

        support = {
            "subject": "Training hangs",
            "order": order.ref,
            "gpu": "",
            "library_versions": "torch 2.4.1",
            "reproduction_steps": f"export AWS_ACCESS_KEY_ID={AWS_KEY}",
            "expected": "it trains",
            "observed": SUPPORT_TEXT,
            "logs": "",
            "idempotency_key": "k-s",
        }
        assert client.post(reverse("support:create"), support).status_code == 302

        api = Client()  # no session: the token alone
        token = api.post(
            "/api/v1/auth/tokens",
            json.dumps({"email": EMAIL, "password": PASSWORD, "name": "ci"}),
            content_type="application/json",
        ).json()["token"]
        assert api.get("/api/v1/orders", headers={"Authorization": f"Bearer {token}"}).status_code == 200
        assert api.get("/api/v1/orders", headers={"Authorization": f"Bearer {token}x"}).status_code == 401
        reset_link = reverse(
            "accounts:password_reset_confirm",
            kwargs={
                "uidb64": urlsafe_base64_encode(force_bytes(user.pk)),
                "token": default_token_generator.make_token(user),
            },
        )
        client.get(reset_link)
        client.get(reset_link.replace("/reset/", "/reset-typo/"))  # a 404 that Django logs with its path
        csrf = client.cookies["csrftoken"].value if "csrftoken" in client.cookies else None

    text = "\n".join(json.dumps(line, ensure_ascii=False) for line in lines)
    assert len(lines) >= 15, "the flows were logged"
    assert any(line["message"] == f"user {user.pk} registered" for line in lines)
    assert any(line["logger"] == "django.request" and "reset-typo" in line["message"] for line in lines)
    secrets = {
        "password": PASSWORD,
        "wrong password": WRONG_PASSWORD,
        "e-mail": EMAIL,
        "operator's e-mail": "ops.private@example.org",
        "API token": token,
        "session id": session_id,
        "SSH key": key.split()[1],
        "crypto address": TRON_ADDRESS,
        "support text": "hunter2-secret-phrase",
        "AWS key": AWS_KEY,
        "reset token": reset_link.rstrip("/").rsplit("/", 1)[1],
    }
    if csrf:
        secrets["CSRF token"] = csrf
    found = {name for name, secret in secrets.items() if secret in text}
    assert found == set()
    assert not re.search(r"[\w.+-]+@[\w-]+\.[\w.-]+", text), "no e-mail address of any kind"

"""A retry with the same idempotency key while the first request is still running answers 409 at once (DESIGN §5).

Placing an order (API and HTML checkout) and saving an estimate insert their key already finished inside the
action's transaction (decisions 0250, 0255), so no claim row tells a retry that the first is running. Before
decision 0295 such a retry queued behind the first (on the owner's row lock, or on the key's unique index) and
was replayed after its COMMIT. Now the key is locked (`pg_try_advisory_xact_lock`) in a statement the request
runs anyway, and the retry answers 409 `idempotency_key_in_use` without waiting; once the first has committed,
the same retry is replayed.

PostgreSQL only (SQLite serialises writers: a retry there waits for the database lock, then is replayed). The
first request is held inside its transaction by a hook on its own connection, just before a given statement;
the retry runs in another thread, and the test watches `pg_stat_activity`: the retry must finish without any
session of the test database ever waiting on a lock.
"""

from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from gpurent.accounts.services import api_token_create
from gpurent.core.testing import retry_while_the_first_runs
from gpurent.orders.models import Order
from gpurent.sizing.models import SavedEstimate
from gpurent.sizing.tests.conftest import SERVING_70B

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="concurrency is only meaningful on PostgreSQL"),
]
RESERVE = 'UPDATE "catalog_gpumodel" SET "stock_lots"'
SAVE_ESTIMATE = 'INSERT INTO "sizing_savedestimate"'
ORDER = {"gpu": "b200-2x180gb", "term_days": 7, "lots": 1, "environment": "pytorch"}
CHOICE = {"gpu": "b200-2x180gb", "term": "7", "lots": "1", "environment": "pytorch", "environment_note": ""}


def error_code(response: Any) -> str:
    return response.json()["error"]["code"]


def test_an_api_order_retried_while_the_first_is_placing_gets_409_then_the_replay(django_user_model, b200):
    user = django_user_model.objects.create_user(
        "r@example.com", "long enough passphrase", first_name="R", last_name="T"
    )
    auth: dict[str, Any] = {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=user, name='t')[1]}"}

    def send() -> Any:
        return Client().post("/api/v1/orders", ORDER, content_type="application/json", HTTP_IDEMPOTENCY_KEY="k", **auth)

    first, retry, without_waiting = retry_while_the_first_runs(send, send, before=RESERVE)
    assert without_waiting, "the retry waited for the first placement instead of answering 409"
    assert (retry.status_code, error_code(retry)) == (409, "idempotency_key_in_use"), retry.content
    assert first.status_code == 201, first.content
    replay = send()  # after the first has committed
    assert replay.status_code == 201
    assert replay.json() == first.json()
    assert Order.objects.count() == 1


def test_a_checkout_resubmitted_while_the_first_is_placing_gets_409_then_the_replay(django_user_model, b200):
    user = django_user_model.objects.create_user(
        "h@example.com", "long enough passphrase", first_name="H", last_name="T"
    )
    browser = Client()
    browser.force_login(user)
    browser.post(reverse("orders:checkout_start"), CHOICE)
    form = browser.get(reverse("orders:checkout_summary")).context["form"]
    data = {name: form[name].value() for name in form.fields} | {"idempotency_key": "form-key"}

    def send() -> Any:
        tab = Client()
        tab.cookies = browser.cookies  # the same browser: its session, its draft
        return tab.post(reverse("orders:checkout_place"), data)

    first, retry, without_waiting = retry_while_the_first_runs(send, send, before=RESERVE)
    assert without_waiting, "the second submission waited for the first placement instead of answering 409"
    order = Order.objects.get()
    assert first["Location"] == reverse("orders:rental", args=[order.ref])
    # The 409 on a form: its message, and back to the summary the form was on.
    assert retry["Location"] == reverse("orders:checkout_summary")
    messages = [str(message) for message in retry.wsgi_request._messages]
    # In the customer's words: a form never shows its key (the API's message speaks of idempotency keys).
    assert messages == [
        "This form was already sent and is still being processed. Wait a moment, then check the result before"
        " sending it again."
    ]
    assert send()["Location"] == first["Location"]  # after the first has committed: the replay
    assert Order.objects.count() == 1


def test_an_estimate_retried_while_the_first_is_saving_gets_409_then_the_replay(django_user_model, demo_catalog):
    user = django_user_model.objects.create_user(
        "e@example.com", "long enough passphrase", first_name="E", last_name="T"
    )
    auth: dict[str, Any] = {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=user, name='t')[1]}"}

    def send() -> Any:
        return Client().post(
            "/api/v1/estimates", SERVING_70B, content_type="application/json", HTTP_IDEMPOTENCY_KEY="e", **auth
        )

    first, retry, without_waiting = retry_while_the_first_runs(send, send, before=SAVE_ESTIMATE)
    assert without_waiting, "the retry waited for the first estimate instead of answering 409"
    assert (retry.status_code, error_code(retry)) == (409, "idempotency_key_in_use"), retry.content
    assert first.status_code == 201, first.content
    replay = send()
    assert replay.status_code == 201
    assert replay.json()["id"] == first.json()["id"]
    assert SavedEstimate.objects.count() == 1

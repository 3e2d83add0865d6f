"""The limit of open payment instructions per order holds under a burst, through real HTTP against gunicorn
(issue 16, decision 0310).

PostgreSQL only. One customer asks for instructions for one order 12 times at once (distinct idempotency keys).
The count runs in the issue's transaction, after the order's row is locked: requests count one after the other.
Expected: exactly `PAYMENTS_MAX_OPEN_INTENTS` (3) created, every other answer 409 `too_many_open_intents`,
zero 5xx. The same for a top-up (its row is the lock).

Decision 0336 counts under the same lock: with the open limit out of the way, an order or a top-up that already
has intents the payment processor never prepared gets exactly what its limits leave, 1 more (9 usable + 9 never
prepared: the 10 in all) or 5 more (15 never prepared: the 20 intents of any kind), every other answer 409
`intent_limit_reached`.
"""

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from conftest import make_gpu
from gpurent.core.money import Usd
from gpurent.core.testing import POSTGRES_BURST, bearer_posts, post_all, tally
from gpurent.orders.models import Order
from gpurent.payments.intents.lifecycle import intent_issue_for_deposit, intent_issue_for_order
from gpurent.payments.models import PaymentIntent
from gpurent.payments.services import deposit_create
from tests.conftest import orders_placed

OPEN = 3
BURST = 12

pytestmark = POSTGRES_BURST


def target_and_path(customer, kind):
    """The order or top-up to ask instructions for, and the API path that asks."""
    if kind == "order":
        [order] = orders_placed(customer, make_gpu(slug="intent-gpu", price_7d_cents=1_000).slug, 1)
        return order, f"/api/v1/orders/{order.ref}/intents"
    deposit = deposit_create(owner=customer, amount=Usd(2_500))
    return deposit, f"/api/v1/deposits/{deposit.ref}/intents"


def burst(gunicorn_server, token, path, open_limit):
    """`BURST` requests for instructions at once, each with its own idempotency key; answers by (status, code)."""
    body = json.dumps({"asset": "USDT", "network": "tron"}).encode()
    requests = bearer_posts(path, [body] * BURST, token=token, key="intent")
    with gunicorn_server(PAYMENTS_MAX_OPEN_INTENTS=str(open_limit)) as server:
        return tally(post_all(server, requests, socket_timeout=600))


@pytest.mark.parametrize("kind", ["order", "top-up"])
def test_a_burst_of_instructions_for_one_order_opens_exactly_the_limit(
    gunicorn_server, customer_with_token, usdt_on_tron, kind
):
    customer, token = customer_with_token("many@example.com", first_name="Ma", last_name="Ny")
    _, path = target_and_path(customer, kind)

    answers = burst(gunicorn_server, token, path, OPEN)

    assert answers == {(201, ""): OPEN, (409, "too_many_open_intents"): BURST - OPEN}, answers
    assert PaymentIntent.objects.filter(owner=customer).count() == OPEN


def earlier_intents(customer, target, *, usable, never_prepared):
    """Intents asked for before the burst, all expired: `usable` ones that were shown, then `never_prepared` ones
    the payment processor failed (closed, no invoice, no address), made through the service one at a time."""
    for number in range(usable + never_prepared):
        if isinstance(target, Order):
            intent = intent_issue_for_order(order=target, owner=customer, asset="USDT", network="tron")
        else:
            intent = intent_issue_for_deposit(deposit=target, owner=customer, asset="USDT", network="tron")
        PaymentIntent.objects.filter(pk=intent.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
        if number >= usable:
            PaymentIntent.objects.filter(pk=intent.pk).update(
                processor="btcpay", processor_invoice_id="", address="", status="closed"
            )


@pytest.mark.parametrize("kind", ["order", "top-up"])
@pytest.mark.parametrize(("usable", "never_prepared", "created"), [(9, 9, 1), (0, 15, 5)])
def test_a_burst_after_processor_failures_gets_exactly_what_the_limits_leave(
    gunicorn_server, customer_with_token, usdt_on_tron, kind, usable, never_prepared, created
):
    customer, token = customer_with_token("many@example.com", first_name="Ma", last_name="Ny")
    target, path = target_and_path(customer, kind)
    earlier_intents(customer, target, usable=usable, never_prepared=never_prepared)

    answers = burst(gunicorn_server, token, path, BURST + 20)

    assert answers == {(201, ""): created, (409, "intent_limit_reached"): BURST - created}, answers
    assert PaymentIntent.objects.filter(owner=customer).count() == usable + never_prepared + created

"""A rental has at most `ORDERS_MAX_EXTENSIONS_PER_RENTAL` extensions, whatever became of them, so its page, its API
answer and a page of `GET /api/v1/orders` stay bounded whatever the rental's history (decision 0353, issue 16).
The concurrent case is `tests/test_extension_limit_concurrency_http.py`."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone, translation

from gpurent.core.references import new_reference
from gpurent.orders.extensions import TooManyExtensions, order_extension_place
from gpurent.orders.models import Order
from gpurent.orders.services import order_cancel, orders_expire_due
from gpurent.payments.services import order_pay_from_balance

pytestmark = pytest.mark.django_db

FULL = (
    "This rental has 4 extensions, the most one rental can have (cancelled and lapsed ones count too). "
    "To rent on after its term, place a new order from the catalog."
)
DEFAULT_LIMIT = 60  # config/settings/base.py
PAGE_LIMIT_BYTES = 150_000  # issue 16: every page ≤ 150 KB


def extend(rental, customer, days: int = 3) -> Order:
    return order_extension_place(rental=rental, owner=customer, term_days=days)


def post_extend(client, rental, key: str):
    url = f"/api/v1/orders/{rental.ref}/extend"
    return client.post(url, {"term_days": 3}, content_type="application/json", headers={"Idempotency-Key": key})


def test_every_extension_counts_the_nth_is_placed_and_one_more_is_refused(settings, rental, customer):
    settings.ORDERS_MAX_EXTENSIONS_PER_RENTAL = 4
    order_cancel(order=extend(rental, customer), actor=customer)
    order_pay_from_balance(order=extend(rental, customer), owner=customer)
    lapsed = extend(rental, customer)
    assert orders_expire_due(now=lapsed.reserved_until) == 1
    fourth = extend(rental, customer)  # the N-th, left unpaid
    with pytest.raises(TooManyExtensions) as refused:
        extend(rental, customer)
    # The limit is told before the unpaid fourth: paying it would not make room.
    assert (refused.value.code, refused.value.status, refused.value.message) == ("too_many_extensions", 409, FULL)
    statuses = list(Order.objects.filter(extends=rental).order_by("id").values_list("payment_status", flat=True))
    assert statuses == ["cancelled", "paid", "expired", "awaiting_payment"]
    assert Order.objects.get(pk=fourth.pk).payment_status == "awaiting_payment"


def test_the_api_places_the_nth_and_answers_409_too_many_extensions_for_one_more(client, settings, rental, customer):
    settings.ORDERS_MAX_EXTENSIONS_PER_RENTAL = 2
    client.force_login(customer)
    first = post_extend(client, rental, "a")
    order_pay_from_balance(order=Order.objects.get(ref=first.json()["ref"]), owner=customer)
    second = post_extend(client, rental, "b")
    assert (first.status_code, second.status_code) == (201, 201)
    order_pay_from_balance(order=Order.objects.get(ref=second.json()["ref"]), owner=customer)
    refused = post_extend(client, rental, "c")
    message = FULL.replace("4 extensions", "2 extensions")
    error = {"code": "too_many_extensions", "message": message}
    assert (refused.status_code, refused.json()) == (409, {"error": error})
    # Not stored with the key (nothing was written): the same key is refused again, not replayed as a success.
    assert post_extend(client, rental, "c").json()["error"]["code"] == "too_many_extensions"
    assert client.get(f"/api/v1/orders/{rental.ref}").json()["extensions"] == [
        first.json()["ref"],
        second.json()["ref"],
    ]
    assert Order.objects.filter(extends=rental).count() == 2


def test_the_page_counts_them_places_the_nth_then_says_why_there_is_no_more(client, settings, rental, customer):
    settings.ORDERS_MAX_EXTENSIONS_PER_RENTAL = 2
    client.force_login(customer)
    url = reverse("orders:rental", args=[rental.ref])
    action = reverse("orders:rental_extend", args=[rental.ref])
    first = client.post(action, {"term": "3", "idempotency_key": "p1"})
    order_pay_from_balance(order=Order.objects.get(extends=rental), owner=customer)
    page = client.get(url).content.decode()
    assert "This rental can be extended 1 more time" in page
    second = client.post(action, {"term": "3", "idempotency_key": "p2"})  # the N-th
    assert second.status_code == 302
    assert second["Location"] != first["Location"]
    assert Order.objects.filter(extends=rental).count() == 2
    page = client.get(url).content.decode()
    assert 'data-testid="extend-form"' not in page
    message = FULL.replace("4 extensions", "2 extensions")
    assert f'<p class="hint" id="extend" data-testid="extensions-full">{message}</p>' in page
    # Posted anyway (an old tab): the same refusal, above the page's form, and nothing placed.
    refused = client.post(action, {"term": "3", "idempotency_key": "p3"}, follow=True)
    assert refused.redirect_chain == [(f"{url}#extend", 302)]
    assert refused.content.decode().count(message) == 2  # the error message and the hint
    assert Order.objects.filter(extends=rental).count() == 2


@pytest.mark.parametrize(
    ("language", "words"),
    [("es", "haga un pedido nuevo"), ("vi", "hãy đặt một đơn hàng mới"), ("tr", "yeni bir sipariş verin")],
)
def test_the_refusal_is_translated(settings, rental, customer, language, words):
    settings.ORDERS_MAX_EXTENSIONS_PER_RENTAL = 0
    with translation.override(language), pytest.raises(TooManyExtensions) as refused:
        extend(rental, customer)
    assert words in refused.value.message


def _extensions(rentals: list[Order], each: int, first_id: int) -> None:
    """`each` cancelled 30-day extensions of every rental, as many as the page at the bound would list."""
    ids = iter(range(first_id, first_id + len(rentals) * each))
    rows = []
    for rental in rentals:
        have = Order.objects.filter(extends=rental).count()
        rows += [
            Order(
                id=next(ids),
                ref=new_reference("R"),
                owner_id=rental.owner_id,
                gpu_id=rental.gpu_id,
                term_days=30,
                lots=rental.lots,
                cards=rental.cards,
                environment=rental.environment,
                lot_price_cents=79_000,
                total_cents=79_000 * rental.lots,
                contact_first_name="R",
                contact_last_name="E",
                contact_email="r@example.com",
                reserved_until=timezone.now(),
                payment_status="cancelled",
                extends=rental,
            )
            for _ in range(each - have)
        ]
    Order.objects.bulk_create(rows)


def test_an_order_and_its_page_at_the_bound_stay_small(client, rental, customer):
    client.force_login(customer)
    api = f"/api/v1/orders/{rental.ref}"
    page = reverse("orders:rental", args=[rental.ref])
    before = len(client.get(api).content)
    _extensions([rental], DEFAULT_LIMIT, first_id=1_000_000)
    answer = client.get(api)
    assert len(answer.json()["extensions"]) == DEFAULT_LIMIT
    # A ref and its JSON punctuation: about 15 bytes per extension, under 1 KB for all 60.
    assert len(answer.content) - before <= 16 * DEFAULT_LIMIT
    html = client.get(page).content.decode()
    assert html.count('<li><a href="/rentals/R-') >= DEFAULT_LIMIT
    assert len(html.encode()) <= PAGE_LIMIT_BYTES
    assert 'data-testid="extensions-full"' in html  # the rental runs: the form gave way to the reason
    assert post_extend(client, rental, "over").json()["error"]["code"] == "too_many_extensions"


def test_a_page_of_rentals_at_the_bound_is_read_in_the_same_queries_and_stays_under_150_kb(client, gpu, customer):
    """50 rentals (the default page), each with the most extensions, and the longest environment note: the orders
    list answers them in the same number of queries as with one extension each, under 150 KB."""
    now = timezone.now()
    rentals = [
        Order(
            id=2_000_000 + n,  # above every extension's id: the newest page (by id) holds the rentals only
            ref=new_reference("R"),
            owner=customer,
            gpu=gpu,
            term_days=30,
            lots=2,
            cards=2,
            environment="other",
            environment_note="n" * 200,
            lot_price_cents=79_000,
            total_cents=158_000,
            contact_first_name="R",
            contact_last_name="E",
            contact_email="r@example.com",
            reserved_until=now,
            payment_status="paid",
            paid_at=now,
            provisioning_status="ended",
            term_starts_at=now - timedelta(days=60),
            term_ends_at=now - timedelta(days=1),
        )
        for n in range(50)
    ]
    Order.objects.bulk_create(rentals)
    client.force_login(customer)

    def read() -> tuple[list[dict], int, int]:
        with CaptureQueriesContext(connection) as queries:
            answer = client.get("/api/v1/orders")
        return answer.json()["items"], len(queries), len(answer.content)

    _extensions(rentals, 1, first_id=1_000_000)
    items, queries_with_one, _size = read()
    assert [len(item["extensions"]) for item in items] == [1] * 50
    _extensions(rentals, DEFAULT_LIMIT, first_id=1_000_000 + 50)
    items, queries_at_bound, size = read()
    assert [len(item["extensions"]) for item in items] == [DEFAULT_LIMIT] * 50
    assert queries_at_bound == queries_with_one
    assert size <= PAGE_LIMIT_BYTES, size


def test_the_limit_is_mentioned_only_near_it_and_an_extension_has_one_deadline(client, settings, rental, customer):
    settings.ORDERS_MAX_EXTENSIONS_PER_RENTAL = 60
    client.force_login(customer)
    url = reverse("orders:rental", args=[rental.ref])
    assert 'data-testid="extensions-left"' not in client.get(url).content.decode()
    client.post(reverse("orders:rental_extend", args=[rental.ref]), {"term": "3", "idempotency_key": "d1"})
    extension = Order.objects.get(extends=rental)
    page = client.get(reverse("orders:rental", args=[extension.ref])).content.decode()
    assert 'data-testid="extension-deadline"' in page
    assert "Your lots are reserved until" not in page

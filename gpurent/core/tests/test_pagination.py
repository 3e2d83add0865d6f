"""Keyset pagination: pages cover a list exactly once, in order, in a number of queries that does not grow."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from gpurent.accounts.services import api_token_create
from gpurent.core.errors import InvalidRequest
from gpurent.core.models import AuditLogEntry
from gpurent.core.money import Usd
from gpurent.core.pagination import InvalidCursor, keyset_page, list_page
from gpurent.ledger.services import EXTERNAL_CRYPTO, customer_account, system_account, transfer_post
from gpurent.orders.models import Order

pytestmark = pytest.mark.django_db


def audit_rows(count):
    return AuditLogEntry.objects.bulk_create(
        AuditLogEntry(actor_label="t", action=f"a{number}", target_type="x", target_id=str(number))
        for number in range(count)
    )


def walk(queryset, size, key=("-id",)):
    seen, cursor, pages = [], None, 0
    while True:
        page = keyset_page(queryset, cursor, size=size, key=key)
        seen.extend(page.items)
        pages += 1
        if page.next is None:
            return seen, pages
        cursor = page.next


def test_pages_cover_every_row_once_newest_first():
    audit_rows(23)
    seen, pages = walk(AuditLogEntry.objects.all(), size=5)
    ids = [row.pk for row in seen]
    assert ids == sorted(AuditLogEntry.objects.values_list("pk", flat=True), reverse=True)
    assert pages == 5


def test_a_two_field_key_breaks_ties_on_the_last_field():
    audit_rows(12)
    same_time = timezone.now() - timedelta(days=1)
    AuditLogEntry.objects.filter(pk__in=list(AuditLogEntry.objects.values_list("pk", flat=True)[:7])).update(
        created_at=same_time
    )
    key = ("-created_at", "-id")
    seen, _ = walk(AuditLogEntry.objects.all(), size=4, key=key)
    expected = list(AuditLogEntry.objects.order_by(*key).values_list("pk", flat=True))
    assert [row.pk for row in seen] == expected


def test_ascending_keys_work_too():
    audit_rows(9)
    seen, _ = walk(AuditLogEntry.objects.all(), size=4, key=("id",))
    assert [row.pk for row in seen] == sorted(row.pk for row in seen)
    assert len(seen) == 9


@pytest.mark.parametrize("cursor", ["not base64!", "bm90IGpzb24", "WzEsMl0", "WyJ4Il0", "W251bGxd", "e30"])
def test_a_forged_or_broken_cursor_is_an_invalid_request(cursor):
    audit_rows(3)
    with pytest.raises(InvalidRequest):
        keyset_page(AuditLogEntry.objects.all(), cursor, size=2)


def test_the_page_size_is_capped():
    audit_rows(5)
    assert len(keyset_page(AuditLogEntry.objects.all(), None, size=0).items) == 1


@pytest.fixture
def customer(django_user_model):
    return django_user_model.objects.create_user("p@example.com", "passphrase 12", first_name="P", last_name="G")


@pytest.fixture
def auth(customer):
    _, secret = api_token_create(user=customer, name="t")
    return {"HTTP_AUTHORIZATION": f"Bearer {secret}"}


def ledger_lines(customer, count, start=0):
    for number in range(start, start + count):
        transfer_post(
            reference=f"deposit:D-{number}",
            debit=system_account(EXTERNAL_CRYPTO),
            credit=customer_account(customer),
            amount=Usd(100),
        )


def test_balance_api_returns_a_page_and_a_cursor_in_constant_queries(client, auth, customer):
    ledger_lines(customer, 7)
    first = client.get("/api/v1/balance?limit=3", **auth).json()
    assert first["available_usd"] == "7.00"
    assert [line["reference"] for line in first["entries"]] == ["deposit:D-6", "deposit:D-5", "deposit:D-4"]
    second = client.get(f"/api/v1/balance?limit=3&cursor={first['next']}", **auth).json()
    assert [line["reference"] for line in second["entries"]] == ["deposit:D-3", "deposit:D-2", "deposit:D-1"]
    last = client.get(f"/api/v1/balance?limit=3&cursor={second['next']}", **auth).json()
    assert [line["reference"] for line in last["entries"]] == ["deposit:D-0"]
    assert last["next"] is None
    with CaptureQueriesContext(connection) as few:
        client.get("/api/v1/balance?limit=3", **auth)
    ledger_lines(customer, 20, start=7)
    with CaptureQueriesContext(connection) as more:
        response = client.get("/api/v1/balance?limit=3", **auth)
    assert len(response.json()["entries"]) == 3
    assert len(more.captured_queries) == len(few.captured_queries)


def test_balance_api_default_page_is_bounded_and_bad_cursors_are_422(client, auth, customer):
    ledger_lines(customer, 55)
    body = client.get("/api/v1/balance", **auth).json()
    assert len(body["entries"]) == 50
    assert body["next"]
    bad = client.get("/api/v1/balance?cursor=zzz", **auth)
    assert bad.status_code == 422
    assert bad.json()["error"]["code"] == "invalid_request"
    assert client.get("/api/v1/balance?limit=1000", **auth).status_code == 422


@pytest.mark.parametrize("limit", ["%205", "5%20", "%2B5", "5_0", "5.0", "%D9%A5", "%EF%BC%95", "1e1", "true"])
def test_api_page_limit_is_plain_ascii_digits(client, limit):
    # Numbers are parsed strictly (issue 15): a query string is text, and only the digits 0-9 are a number.
    response = client.get(f"/api/v1/catalog?limit={limit}")
    assert response.status_code == 422
    assert response.json()["error"]["message"].startswith("limit: ")
    assert client.get("/api/v1/catalog?limit=5").status_code == 200


def test_balance_page_shows_older_links(client, customer):
    ledger_lines(customer, 53)
    client.force_login(customer)
    first = client.get("/balance/").content.decode()
    # Each reference is written as a word and its ref, the machine reference in data-reference (decision 0441).
    assert 'data-reference="deposit:D-52"' in first
    assert 'data-reference="deposit:D-2"' not in first
    assert 'rel="next"' in first
    cursor = first.split('href="?cursor=')[1].split("#")[0].split('"')[0]
    older = client.get(f"/balance/?cursor={cursor}").content.decode()
    assert 'data-reference="deposit:D-2"' in older
    assert 'data-reference="deposit:D-0"' in older
    assert 'data-reference="deposit:D-52"' not in older
    assert 'rel="first"' in older
    assert 'rel="next"' not in older
    # A broken cursor on a page shows the first page instead of an error.
    assert "deposit:D-52" in client.get("/balance/?cursor=%%%").content.decode()


def many_orders(client, headers, b200, count):
    """One order placed through the API and `count` copies of it (R-TEST-0000… newer than it); returns the first."""
    placed = client.post(
        "/api/v1/orders",
        {"gpu": b200.slug, "term_days": 7, "lots": 1, "environment": "pytorch"},
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY="k",
        **headers,
    )
    assert placed.status_code == 201
    template = Order.objects.get()
    copies = []
    for number in range(count):
        copy = Order.objects.get(pk=template.pk)
        copy.pk = None
        copy.ref = f"R-TEST-{number:04d}"
        copies.append(copy)
    Order.objects.bulk_create(copies)
    return template


def test_orders_api_and_rentals_page_are_paginated(client, auth, customer, b200):
    template = many_orders(client, auth, b200, 60)
    first = client.get("/api/v1/orders", **auth).json()
    assert len(first["items"]) == 50
    assert first["items"][0]["ref"] == "R-TEST-0059"
    rest = client.get(f"/api/v1/orders?cursor={first['next']}", **auth).json()
    assert [item["ref"] for item in rest["items"]][-1] == template.ref
    assert rest["next"] is None
    assert len(first["items"]) + len(rest["items"]) == 61
    client.force_login(customer)
    page = client.get("/rentals/").content.decode()
    assert "R-TEST-0059" in page
    assert template.ref not in page
    assert 'rel="next"' in page


def test_a_stored_list_is_paged_by_position_each_row_once():
    rows = [f"row {n}" for n in range(23)]
    seen, sizes, cursor = [], [], None
    while True:
        page = list_page(rows, cursor, size=10)
        seen += page.items
        sizes.append(len(page.items))
        cursor = page.next
        if cursor is None:
            break
    assert seen == rows
    assert sizes == [10, 10, 3]
    assert list_page(rows[:10], None, size=10).next is None
    assert list_page([], None).items == []
    for forged in ["x!", "WzIzXQ", "Wy0xXQ", "WzEuNV0", "W3RydWVd", "WzEsMl0"]:  # [23], [-1], [1.5], [true], [1,2]
        with pytest.raises(InvalidCursor):
            list_page(rows, forged)

"""The printable summary (/rentals/summary/) is bounded like every list: a page of orders and a page of balance
movements, each with its own "Older" link, whatever the history's length; the CSV downloads hold the whole
history but write it one keyset page of rows at a time (issue 16, decision 0270), answered at once for a short
history and prepared by the background worker for a long one (decision 0430)."""

import csv
import html
import io
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from gpurent.core.pagination import MAX_PAGE_SIZE
from gpurent.orders.export import orders_csv
from gpurent.orders.selectors import order_list_for
from gpurent.payments.balance.statement import balance_csv

from .test_pagination import auth, customer, ledger_lines, many_orders  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db


def older_link(page: str, param: str) -> str | None:
    found = re.search(rf'<a href="(\?{param}=[^"]+)" rel="next"', page)
    return html.unescape(found.group(1)).split("#")[0] if found else None


def test_the_printable_summary_pages_its_balance_movements(client, customer):  # noqa: F811
    ledger_lines(customer, 57)
    client.force_login(customer)
    first = client.get("/rentals/summary/").content.decode()
    shown = re.findall(r'data-reference="(deposit:D-\d+)">Payment received <code>D-\d+</code>', first)
    assert len(shown) == 50
    assert shown[0] == "deposit:D-56"
    link = older_link(first, "lines")
    assert link is not None
    older = client.get(f"/rentals/summary/{link}").content.decode()
    rest = re.findall(r'data-reference="(deposit:D-\d+)">Payment received <code>D-\d+</code>', older)
    assert len(rest) == 7
    assert set(shown).isdisjoint(rest)
    assert older_link(older, "lines") is None
    assert 'rel="first"' in older


def test_the_printable_summary_pages_its_orders(client, auth, customer, b200):  # noqa: F811
    template = many_orders(client, auth, b200, 60)
    client.force_login(customer)
    first = client.get("/rentals/summary/").content.decode()
    refs = re.findall(r'<td class="ref">([^<]+)</td>', first)
    assert len(refs) == 50
    assert refs[0] == "R-TEST-0059"
    link = older_link(first, "cursor")
    assert link is not None
    rest = re.findall(r'<td class="ref">([^<]+)</td>', client.get(f"/rentals/summary/{link}").content.decode())
    assert len(rest) == 11
    assert rest[-1] == template.ref
    assert set(refs).isdisjoint(rest)


def whole(response) -> str:
    """The body of a download answered whole (a short history, decision 0430), checked against its length."""
    assert response.status_code == 200
    assert int(response["Content-Length"]) == len(response.content)
    assert response["Repr-Digest"].startswith("sha-256=:")
    return response.content.decode()


def test_the_balance_csv_is_written_a_page_of_lines_at_a_time(client, auth, customer, monkeypatch):  # noqa: F811
    ledger_lines(customer, 450)
    monkeypatch.setattr("gpurent.payments.balance.statement.BALANCE_CSV_PAGE", 200)
    client.force_login(customer)
    for response in (client.get("/api/v1/balance/summary.csv", **auth), client.get(reverse("payments:balance_csv"))):
        rows = list(csv.DictReader(io.StringIO(whole(response))))
        assert [row["reference"] for row in rows] == [f"deposit:D-{number}" for number in range(450)]
    with CaptureQueriesContext(connection) as queries:
        pieces = list(balance_csv(customer))
    reads = [query["sql"] for query in queries.captured_queries if "ledger_ledgerentry" in query["sql"]]
    assert len(reads) == 3  # 200 + 200 + 50 lines, each a keyset page
    assert all("LIMIT 200" in query for query in reads)
    assert [rows for _, rows in pieces] == [0, 200, 400, 450]


def test_the_orders_csv_is_written_a_page_of_orders_at_a_time(client, auth, customer, b200):  # noqa: F811
    template = many_orders(client, auth, b200, 420)
    client.force_login(customer)
    for response in (client.get("/api/v1/orders/summary.csv", **auth), client.get(reverse("orders:rentals_csv"))):
        refs = [row["reference"] for row in csv.DictReader(io.StringIO(whole(response)))]
        assert refs == [f"R-TEST-{number:04d}" for number in reversed(range(420))] + [template.ref]
    with CaptureQueriesContext(connection) as queries:
        pieces = list(orders_csv(order_list_for(customer)))
    reads = [query["sql"] for query in queries.captured_queries if 'FROM "orders_order"' in query["sql"]]
    assert len(reads) == 3
    assert all(f"LIMIT {MAX_PAGE_SIZE + 1}" in query for query in reads)
    assert [rows for _, rows in pieces] == [0, 200, 400, 421]

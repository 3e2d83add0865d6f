"""The printable summary (/rentals/summary/) is bounded like every list: a page of orders and a page of balance
movements, each with its own "Older" link, whatever the history's length; the CSV downloads hold the whole
history but stream it, one keyset page of rows at a time (issue 16, decision 0270)."""

import csv
import html
import io
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from gpurent.core.pagination import MAX_PAGE_SIZE

from .test_pagination import auth, customer, ledger_lines, many_orders  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db


def older_link(page: str, param: str) -> str | None:
    found = re.search(rf'<a href="(\?{param}=[^"]+)" rel="next"', page)
    return html.unescape(found.group(1)).split("#")[0] if found else None


def test_the_printable_summary_pages_its_balance_movements(client, customer):  # noqa: F811
    ledger_lines(customer, 57)
    client.force_login(customer)
    first = client.get("/rentals/summary/").content.decode()
    shown = re.findall(r"<code>(deposit:D-\d+)</code>", first)
    assert len(shown) == 50
    assert shown[0] == "deposit:D-56"
    link = older_link(first, "lines")
    assert link is not None
    older = client.get(f"/rentals/summary/{link}").content.decode()
    rest = re.findall(r"<code>(deposit:D-\d+)</code>", older)
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


def drain(response) -> tuple[str, list[str]]:
    """The streamed body and the SQL run while it was streamed."""
    with CaptureQueriesContext(connection) as queries:
        body = b"".join(response.streaming_content).decode()
    return body, [query["sql"] for query in queries.captured_queries]


def test_the_balance_csv_is_streamed_a_page_of_lines_at_a_time(client, auth, customer):  # noqa: F811
    ledger_lines(customer, 450)
    client.force_login(customer)
    for response in (client.get("/api/v1/balance/summary.csv", **auth), client.get(reverse("payments:balance_csv"))):
        assert response.streaming
        body, sql = drain(response)
        rows = list(csv.DictReader(io.StringIO(body)))
        assert [row["reference"] for row in rows] == [f"deposit:D-{number}" for number in range(450)]
        reads = [query for query in sql if "ledger_ledgerentry" in query]
        assert len(reads) == 3  # 200 + 200 + 50 lines, each a keyset page
        assert all(f"LIMIT {MAX_PAGE_SIZE + 1}" in query for query in reads)


def test_the_orders_csv_is_streamed_a_page_of_orders_at_a_time(client, auth, customer, b200):  # noqa: F811
    template = many_orders(client, auth, b200, 420)
    client.force_login(customer)
    for response in (client.get("/api/v1/orders/summary.csv", **auth), client.get(reverse("orders:rentals_csv"))):
        assert response.streaming
        body, sql = drain(response)
        refs = [row["reference"] for row in csv.DictReader(io.StringIO(body))]
        assert refs == [f"R-TEST-{number:04d}" for number in reversed(range(420))] + [template.ref]
        reads = [query for query in sql if 'FROM "orders_order"' in query]
        assert len(reads) == 3
        assert all(f"LIMIT {MAX_PAGE_SIZE + 1}" in query for query in reads)

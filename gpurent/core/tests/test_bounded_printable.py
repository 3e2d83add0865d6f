"""The printable summary (/rentals/summary/) is bounded like every list: a page of orders and a page of balance
movements, each with its own "Older" link, whatever the history's length (issue 16)."""

import html
import re

import pytest

from gpurent.orders.models import Order

from .test_pagination import auth, customer, ledger_lines  # noqa: F401 (fixtures)

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
    placed = client.post(
        "/api/v1/orders",
        {"gpu": b200.slug, "term_days": 7, "lots": 1, "environment": "pytorch"},
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY="k",
        **auth,
    )
    assert placed.status_code == 201
    template = Order.objects.get()
    copies = []
    for number in range(60):
        copy = Order.objects.get(pk=template.pk)
        copy.pk = None
        copy.ref = f"R-TEST-{number:04d}"
        copies.append(copy)
    Order.objects.bulk_create(copies)
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

"""The balance page renders its ledger rows once per page of entries and its form widgets once per language
(decision 0428): the same page every time, each customer's own lines only, a new line shown at once."""

import re

import pytest
from django.test import Client

from gpurent.core.money import Usd
from gpurent.core.pagination import id_page_from_request, page_from_request
from gpurent.ledger.selectors import ledger_lines_for
from gpurent.ledger.services import EXTERNAL_CRYPTO, customer_account, system_account, transfer_post

pytestmark = pytest.mark.django_db

ROWS = "payments/partials/ledger_rows.html"


def credit(customer, number: int, cents: int = 100) -> None:
    transfer_post(
        reference=f"deposit:D-{number}",
        debit=system_account(EXTERNAL_CRYPTO),
        credit=customer_account(customer),
        amount=Usd(cents),
    )


def without_keys(response) -> bytes:
    """The page without its CSRF tokens and idempotency keys (new on every view)."""
    return re.sub(rb'name="(?:csrfmiddlewaretoken|idempotency_key)" value="[^"]*"', b"", response.content)


def rendered(response) -> list[str]:
    return [template.name for template in response.templates]


def test_the_ledger_rows_are_rendered_once_and_a_new_line_shows_at_once(client, customer):
    for number in range(53):
        credit(customer, number)
    client.force_login(customer)
    first = client.get("/balance/")
    assert ROWS in rendered(first)
    again = client.get("/balance/")
    assert ROWS not in rendered(again)
    assert without_keys(again) == without_keys(first)
    page = again.content.decode()
    assert page.count('data-reference="deposit:D-') == 50
    assert 'data-reference="deposit:D-52"' in page
    assert "+$1.00" in page
    assert "$53.00" in page  # the newest line's balance after it
    credit(customer, 53, cents=250)
    after = client.get("/balance/")
    assert ROWS in rendered(after)
    text = after.content.decode()
    assert 'data-reference="deposit:D-53"' in text
    assert "+$2.50" in text
    assert "$55.50" in text
    assert 'data-reference="deposit:D-3"' not in text  # pushed to the next page


def test_the_older_page_has_its_own_rows_and_an_invalid_cursor_shows_the_first(client, customer, rf):
    for number in range(53):
        credit(customer, number)
    client.force_login(customer)
    first = client.get("/balance/").content.decode()
    cursor = first.split('href="?cursor=')[1].split("#")[0].split('"')[0]
    older = client.get(f"/balance/?cursor={cursor}").content.decode()
    assert 'data-reference="deposit:D-2"' in older
    assert 'data-reference="deposit:D-0"' in older
    assert 'data-reference="deposit:D-52"' not in older
    assert 'rel="first"' in older
    assert 'data-reference="deposit:D-52"' in client.get("/balance/?cursor=not-a-cursor").content.decode()
    # The ids page reads the same cursors as the page of rows it replaces.
    request = rf.get("/balance/", {"cursor": cursor})
    rows = page_from_request(request, ledger_lines_for(customer))
    ids = id_page_from_request(request, ledger_lines_for(customer))
    assert ids.items == [line.pk for line in rows.items]
    assert (ids.next, ids.cursor) == (rows.next, rows.cursor)


def test_each_customer_sees_only_their_own_lines(customer, django_user_model):
    other = django_user_model.objects.create_user("other@example.com", "o" * 16)
    credit(customer, 1, cents=700)
    credit(other, 2, cents=900)
    mine, theirs = Client(), Client()
    mine.force_login(customer)
    theirs.force_login(other)
    for _ in range(2):
        my_page, their_page = mine.get("/balance/").content.decode(), theirs.get("/balance/").content.decode()
        assert 'data-reference="deposit:D-1"' in my_page
        assert 'data-reference="deposit:D-2"' not in my_page
        assert 'data-reference="deposit:D-2"' in their_page
        assert 'data-reference="deposit:D-1"' not in their_page


def test_the_form_widgets_come_from_the_cache_in_the_page_language(client, customer):
    client.force_login(customer)
    english = client.get("/balance/").content.decode()
    assert 'name="amount_usd"' in english
    assert 'id="payout_pair"' in english
    assert 'id="payout_address"' in english
    assert "BTC on Bitcoin" in english
    spanish = client.get("/balance/", headers={"accept-language": "es"}).content.decode()
    assert "BTC en Bitcoin" in spanish

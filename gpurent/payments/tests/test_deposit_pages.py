"""Top-ups and withdrawals are keyset-paginated like every list a customer grows (issue 16): the API's
`GET /api/v1/deposits` and the balance page's "Recent top-ups" and "Withdrawals", each with its own "Older" link."""

import html
import re

import pytest

from gpurent.accounts.services import api_token_create
from gpurent.core.money import Usd
from gpurent.payments.models import Payout
from gpurent.payments.services import deposit_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def customer(django_user_model):
    return django_user_model.objects.create_user("d@example.com", "passphrase 12", first_name="D", last_name="P")


def older_link(page: str, param: str) -> str:
    found = re.search(rf'<a href="(\?{param}=[^"]+)" rel="next"', page)
    assert found is not None
    return html.unescape(found.group(1)).split("#")[0]


def test_the_deposits_api_pages_every_top_up_once(client, customer):
    refs = {deposit_create(owner=customer, amount=Usd(1_000 + number)).ref for number in range(23)}
    auth = {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=customer, name='t')[1]}"}
    first = client.get("/api/v1/deposits?limit=10", **auth).json()
    assert len(first["items"]) == 10
    assert first["items"][0]["amount_usd"] == "10.22"
    seen, body = [], first
    while True:
        seen += [item["ref"] for item in body["items"]]
        if body["next"] is None:
            break
        body = client.get(f"/api/v1/deposits?limit=10&cursor={body['next']}", **auth).json()
    assert len(seen) == len(set(seen)) == 23
    assert set(seen) == refs
    assert len(client.get("/api/v1/deposits", **auth).json()["items"]) == 23
    assert client.get("/api/v1/deposits?cursor=zzz", **auth).json()["error"]["code"] == "invalid_request"


@pytest.fixture
def deposits(customer):
    """24 top-ups (their refs, oldest first) and 22 withdrawals: more than one page of each on the balance page."""
    refs = [deposit_create(owner=customer, amount=Usd(1_000)).ref for _ in range(24)]
    Payout.objects.bulk_create(
        Payout(ref=f"W-TEST-{number:03d}", owner=customer, asset="USDT", network="tron", address="T", amount_cents=900)
        for number in range(22)
    )
    return refs


def test_the_balance_page_pages_top_ups_and_withdrawals(client, customer, deposits):
    client.force_login(customer)
    first = client.get("/balance/").content.decode()
    shown = [ref for ref in deposits if f">{ref}</a>" in first]
    assert len(shown) == 20
    assert deposits[-1] in shown
    assert len(re.findall(r"Withdrawal <code>W-TEST-\d+</code>", first)) == 20
    older = client.get(f"/balance/{older_link(first, 'deposits')}").content.decode()
    rest = [ref for ref in deposits if f">{ref}</a>" in older]
    assert sorted(shown + rest) == sorted(deposits)
    assert len(rest) == 4
    older = client.get(f"/balance/{older_link(first, 'payouts')}").content.decode()
    assert re.findall(r"Withdrawal <code>(W-TEST-\d+)</code>", older) == ["W-TEST-001", "W-TEST-000"]


def test_paging_one_list_of_the_balance_page_keeps_the_others_where_they_are(client, customer, deposits):
    client.force_login(customer)
    first = client.get("/balance/").content.decode()
    on_older_deposits = client.get(f"/balance/{older_link(first, 'deposits')}").content.decode()
    # From there, the withdrawals' "Older" link keeps the top-ups on their older page, and back.
    both = html.unescape(
        re.search(r'<a href="(\?[^"]*payouts=[^"]+)" rel="next"', on_older_deposits).group(1)  # type: ignore[union-attr]
    ).split("#")[0]
    page = client.get(f"/balance/{both}").content.decode()
    older_deposits = [ref for ref in deposits if f">{ref}</a>" in on_older_deposits]
    assert len(older_deposits) == 4
    assert [ref for ref in deposits if f">{ref}</a>" in page] == older_deposits
    assert re.findall(r"Withdrawal <code>(W-TEST-\d+)</code>", page) == ["W-TEST-001", "W-TEST-000"]
    newest = re.search(r'<a href="(\?[^"]*)#deposits-heading" rel="first"', page)
    assert newest is not None
    assert "payouts=" in html.unescape(newest.group(1))
    assert "deposits=" not in html.unescape(newest.group(1))

"""Back-office change lists cost the same whatever the table's length: the count is capped (`SELECT COUNT(*) FROM
(… LIMIT cap)`) and there is no second, unfiltered count (issue 16, decision 0271). "Select all" acts only on a
list no longer than the cap, so an action does exactly what the list announced (decision 0292)."""

import html
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from gpurent.accounts.models import ApiToken
from gpurent.accounts.services import api_token_create
from gpurent.core.admin import BoundedCountPaginator
from gpurent.core.models import AuditLogEntry
from gpurent.core.money import Usd
from gpurent.ledger.services import EXTERNAL_CRYPTO, customer_account, system_account, transfer_post

pytestmark = pytest.mark.django_db


@pytest.fixture
def operator(django_user_model):
    return django_user_model.objects.create_superuser("root@shop.example", "passphrase 12")


def test_a_long_ledger_is_counted_only_up_to_the_cap(client, operator, django_user_model, monkeypatch):
    monkeypatch.setattr(BoundedCountPaginator, "CAP", 5)
    customer = django_user_model.objects.create_user("c@example.com", "passphrase 12", first_name="C", last_name="U")
    for number in range(6):  # 12 entries: a debit and a credit each
        transfer_post(
            reference=f"deposit:D-{number}",
            debit=system_account(EXTERNAL_CRYPTO),
            credit=customer_account(customer),
            amount=Usd(100),
        )
    client.force_login(operator)
    for path in ("/backoffice/ledger/ledgerentry/", "/backoffice/ledger/ledgertransfer/"):
        with CaptureQueriesContext(connection) as queries:
            response = client.get(path)
        assert response.status_code == 200
        assert response.context["cl"].result_count == 5
        counts = [query["sql"] for query in queries.captured_queries if "COUNT(" in query["sql"].upper()]
        assert counts
        assert all("LIMIT 5" in sql for sql in counts)


def _revoke_all(client, url: str):
    """The token list's "Select all" then "Revoke the selected tokens": the page's rows ticked and select across
    set, as the admin's script sends them."""
    page = client.get(url)
    shown = [token.pk for token in page.context["cl"].result_list]
    key = re.search(r'name="idempotency_key" value="([^"]+)"', page.content.decode())
    assert key is not None
    posted = {"action": "revoke", "select_across": "1", "index": "0", "_selected_action": shown}
    return client.post(url, {**posted, "idempotency_key": key.group(1)}, follow=True)


def test_select_all_past_the_cap_acts_on_nothing_and_asks_to_narrow_the_list(
    client, operator, django_user_model, monkeypatch
):
    monkeypatch.setattr(BoundedCountPaginator, "CAP", 2)
    customer = django_user_model.objects.create_user("c@example.com", "passphrase 12", first_name="C", last_name="U")
    for name in ("laptop", "ci", "desktop"):
        api_token_create(user=customer, name=name)
    client.force_login(operator)
    url = reverse("admin:accounts_apitoken_changelist")
    assert client.get(url).context["cl"].result_count == 2  # what "Select all" offers

    refused = _revoke_all(client, url)

    assert refused.redirect_chain == [(url, 302)]
    assert "Nothing was done: “select all” can act on at most 2 rows, and this list has more." in (
        html.unescape(refused.content.decode())
    )
    assert not ApiToken.objects.filter(revoked_at__isnull=False).exists()
    assert not AuditLogEntry.objects.filter(action="admin.api_token_revoke").exists()


def test_select_all_within_the_cap_acts_on_exactly_the_rows_it_announced(
    client, operator, django_user_model, monkeypatch
):
    monkeypatch.setattr(BoundedCountPaginator, "CAP", 2)
    customer = django_user_model.objects.create_user("c@example.com", "passphrase 12", first_name="C", last_name="U")
    for name in ("laptop one", "laptop two", "desktop"):
        api_token_create(user=customer, name=name)
    client.force_login(operator)
    url = reverse("admin:accounts_apitoken_changelist") + "?q=laptop"
    assert client.get(url).context["cl"].result_count == 2

    _revoke_all(client, url)

    revoked = ApiToken.objects.filter(revoked_at__isnull=False).values_list("name", flat=True)
    assert sorted(revoked) == ["laptop one", "laptop two"]

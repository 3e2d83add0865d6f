"""Back-office change lists cost the same whatever the table's length: the count is capped (`SELECT COUNT(*) FROM
(… LIMIT cap)`) and there is no second, unfiltered count (issue 16, decision 0271)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from gpurent.core.admin import BoundedCountPaginator
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

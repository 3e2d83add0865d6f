"""The ledger in the back office (QA walk of the back office, defect 19): amounts as money, accounts by the
customer's e-mail, moments as the desks write them."""

import html

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from gpurent.core.money import Usd
from gpurent.ledger.models import LedgerAccount, LedgerEntry, LedgerTransfer
from gpurent.ledger.services import EXTERNAL_CRYPTO, customer_account, system_account, transfer_post

pytestmark = pytest.mark.django_db

# The e-mail as the desks write it: broken only before its "@".
ANA = '<span class="email-part">ana</span><wbr><span class="email-part">@example.com</span>'


@pytest.fixture
def operator(django_user_model):
    return django_user_model.objects.create_superuser("op@shop.example", "long enough passphrase", is_staff=True)


def credit(users, email, reference, cents):
    """A customer credited `cents` from outside (ledger rows are append-only: their moment is the test's)."""
    user = users.objects.create_user(email, "passphrase 12", first_name="C", last_name="U")
    transfer_post(
        reference=reference, debit=system_account(EXTERNAL_CRYPTO), credit=customer_account(user), amount=Usd(cents)
    )
    return user


@pytest.fixture
def credited(django_user_model):
    """$62.00 credited to ana's balance."""
    return credit(django_user_model, "ana@example.com", "deposit:D-9KQ5-YNYQ", 6_200)


def page(client, url):
    response = client.get(url)
    assert response.status_code == 200
    return html.unescape(response.content.decode())


def table(text):
    return text.split('id="result_list"', 1)[1].split("</table>", 1)[0]


def test_ledger_entries_show_money_the_customers_email_and_zoned_moments(client, operator, credited):
    client.force_login(operator)
    listed = table(page(client, "/backoffice/ledger/ledgerentry/"))
    assert '<td class="field-amount">$62.00</td>' in listed
    assert '<td class="field-balance_after">$62.00</td>' in listed
    assert ANA in listed
    assert "customer:" not in listed
    assert "external:crypto" in listed  # a system account keeps its code
    assert "6200" not in listed
    entry = LedgerEntry.objects.filter(account__customer=credited).get()
    assert f"{entry.created_at:%d %b %Y, %H:%M} UTC</a></th>" in listed


def test_ledger_entries_are_searched_by_email_or_transfer_reference(client, operator, credited):
    client.force_login(operator)
    assert client.get("/backoffice/ledger/ledgerentry/", {"q": "ana@example"}).context["cl"].result_count == 1
    assert client.get("/backoffice/ledger/ledgerentry/", {"q": "D-9KQ5-YNYQ"}).context["cl"].result_count == 2


def test_ledger_transfers_and_accounts_show_money_and_emails(client, operator, credited):
    client.force_login(operator)
    transfers = table(page(client, "/backoffice/ledger/ledgertransfer/"))
    assert '<td class="field-amount">$62.00</td>' in transfers
    assert ANA in transfers
    assert "customer:" not in transfers
    transfer = LedgerTransfer.objects.get()
    assert f"{transfer.created_at:%d %b %Y, %H:%M} UTC" in transfers

    accounts = table(page(client, "/backoffice/ledger/ledgeraccount/"))
    assert '<td class="field-balance">$62.00</td>' in accounts
    assert ANA in accounts
    assert "customer:" not in accounts
    assert "6200" not in accounts
    assert LedgerAccount.objects.count() == 2


def test_the_entry_list_costs_the_same_queries_for_one_customer_or_many(client, operator, django_user_model):
    client.force_login(operator)

    def queries(path):
        with CaptureQueriesContext(connection) as captured:
            page(client, path)
        return len(captured.captured_queries)

    credit(django_user_model, "c0@example.com", "deposit:D-0", 100)
    one = {path: queries(path) for path in ("/backoffice/ledger/ledgerentry/", "/backoffice/ledger/ledgertransfer/")}
    for n in range(1, 5):
        credit(django_user_model, f"c{n}@example.com", f"deposit:D-{n}", 100)
    assert {path: queries(path) for path in one} == one

"""The payouts desk after the outside QA walk of the back office: the amount to send in the asset and the check of
the amount recorded as sent (defect 3), the customer's language and the reference (16), and messages that say
what happened (14)."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import Group
from django.utils import timezone

from gpurent.core.models import AuditLogEntry
from gpurent.core.money import Usd
from gpurent.ledger.selectors import account_balance, balance_for
from gpurent.ledger.services import EXTERNAL_CRYPTO, SUSPENSE_PAYOUTS, customer_account, system_account, transfer_post
from gpurent.payments.models import ExchangeRate, Payout
from gpurent.payments.payouts import payout_mark_sent, payout_request

pytestmark = pytest.mark.django_db

DESK = "/backoffice/backoffice/payoutsdesk/"
BECH32 = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"
TXID = "4a5e1e4baab89f3a32518a88c31bc87f618f76673e2cc77ab2127b7afdeda33b"


@pytest.fixture
def cem(django_user_model, payment_setup, settings):
    """A Turkish customer with $500 on the balance (fee $1.00)."""
    settings.PAYOUTS_MIN_CENTS, settings.PAYOUTS_FEE_CENTS = 2_000, 100
    user = django_user_model.objects.create_user(
        "cem@example.com", "passphrase 12", first_name="Cem", last_name="Y", language="tr"
    )
    transfer_post(
        reference="deposit:D-CEM",
        debit=system_account(EXTERNAL_CRYPTO),
        credit=customer_account(user),
        amount=Usd(50_000),
    )
    return user


@pytest.fixture
def payout(cem):
    """$300.00 in BTC: $299.00 to send, 0.00308248 BTC at 97,000 USD/BTC."""
    return payout_request(owner=cem, asset="BTC", network="bitcoin", address=BECH32, amount=Usd(30_000))


@pytest.fixture
def operator(client, django_user_model):
    user = django_user_model.objects.create_user(
        "payouts@shop.example", "passphrase 12", first_name="O", last_name="P", is_staff=True
    )
    user.groups.set(Group.objects.filter(name="payouts"))
    client.force_login(user)
    return user


def page(client, payout):
    return client.get(f"{DESK}{payout.pk}/change/").content.decode()


def send(client, payout, amount, key, **extra):
    body = {"action": "sent", "txid": TXID, "sent": amount, "reason": "", "idempotency_key": key, **extra}
    return client.post(f"{DESK}{payout.pk}/change/", body, follow=True)


def test_the_page_shows_the_amount_in_the_asset_at_the_current_rate_with_the_rate_and_its_time(
    client, operator, payout
):
    rate_time = ExchangeRate.objects.get(asset="BTC").as_of.strftime("%d %b %Y, %H:%M UTC")
    html = page(client, payout)
    assert (
        "≈ <strong>0.00308248 BTC</strong> at 97,000 USD/BTC (rate of " + rate_time + ", test). An amount sent more "
        "than 10 % away from it is recorded only once you confirm it."
    ) in html
    assert "About 0.00308248 BTC; an amount more than 10 % away from it is recorded only once you confirm it." in html


def test_the_page_says_when_the_rate_is_too_old_or_missing(client, operator, payout):
    ExchangeRate.objects.filter(asset="BTC").update(as_of=timezone.now() - timedelta(hours=3))
    assert "<strong>Not a current rate:</strong> The latest BTC exchange rate is 180 minutes old" in page(
        client, payout
    )
    ExchangeRate.objects.filter(asset="BTC").delete()
    assert "The shop has no BTC rate: the amount cannot be shown here, and the amount you record as sent must be " + (
        "confirmed."
    ) in page(client, payout)


def test_the_page_names_the_customers_language_and_the_reference_as_customers_read_it(client, operator, payout):
    html = page(client, payout)
    assert "cem@example.com · Customer's language: <strong>Türkçe (tr)</strong> — write in it." in html
    assert '<div class="help" id="id_reason_helptext"><div>Customer&#x27;s language: <strong>Türkçe (tr)' in html
    assert f"<code>{payout.ref}</code>" in html
    assert "payout:" not in html


def test_an_amount_far_from_the_quote_is_refused_and_writes_nothing(client, operator, payout):
    response = send(client, payout, "0.3", "far-1")
    html = response.content.decode()
    assert response.status_code == 200  # the form again, with the amount and the txid kept
    assert ("0.30000000 BTC is 97.3 times the expected 0.00308248 BTC: worth $29,100.00 at 97,000 USD/BTC") in html
    assert "for $299.00 owed. Check the amount; if it is what you sent, tick the confirmation below" in html
    assert (
        '<input type="checkbox" name="confirm_sent" value="0.30000000" aria-describedby="id_confirm_sent_helptext" '
        'id="id_confirm_sent">'
    ) in html
    assert (
        "Yes, I sent 0.30000000 BTC: 97.3 times the expected 0.00308248 BTC, $28,801.00 more than the $299.00 owed."
        in (html)
    )
    assert Payout.objects.get(pk=payout.pk).status == "requested"
    assert account_balance(SUSPENSE_PAYOUTS) == Usd(30_000)
    assert not AuditLogEntry.objects.filter(action="payout.sent").exists()


def test_a_small_slip_below_the_quote_is_refused_too(client, operator, payout):
    html = send(client, payout, "0.0003", "less-1").content.decode()
    assert "0.00030000 BTC is 90.3 % less than the expected 0.00308248 BTC: worth $29.10" in html
    assert Payout.objects.get(pk=payout.pk).status == "requested"


def test_the_confirmation_of_the_same_amount_records_it_with_the_difference_in_the_audit_row(client, operator, payout):
    response = send(client, payout, "0.3", "far-2", confirm_sent="0.30000000")
    assert response.redirect_chain[-1][0] == DESK
    payout.refresh_from_db()
    assert (payout.status, payout.sent_units) == ("sent", 30_000_000)
    assert (
        f"{payout.ref} marked sent: 0.30000000 BTC to cem@example.com ($299.00 after the fee); the customer is "
        "e-mailed the transaction id. You confirmed the amount: 97.3 times the expected 0.00308248 BTC."
    ) in response.content.decode()
    after = AuditLogEntry.objects.get(action="payout.sent").after
    assert after is not None
    check = after["amount_check"]
    assert (check["sent"], check["expected"], check["percent_off"], check["difference_confirmed"]) == (
        "0.30000000",
        "0.00308248",
        "9632.4",
        True,
    )


def test_a_confirmation_given_for_another_amount_confirms_nothing(client, operator, payout):
    html = send(client, payout, "0.03", "far-3", confirm_sent="0.30000000").content.decode()
    assert "0.03000000 BTC is 9.7 times the expected 0.00308248 BTC" in html
    assert 'name="confirm_sent" value="0.03000000"' in html
    assert Payout.objects.get(pk=payout.pk).status == "requested"


def test_without_a_rate_an_amount_is_recorded_only_once_confirmed(client, operator, payout):
    ExchangeRate.objects.filter(asset="BTC").delete()
    html = send(client, payout, "0.0031", "none-1").content.decode()
    assert "0.00310000 BTC cannot be checked against what is owed: the shop has no BTC rate." in html
    assert "Yes, I sent 0.00310000 BTC, unchecked: the shop has no BTC rate." in html
    assert Payout.objects.get(pk=payout.pk).status == "requested"
    send(client, payout, "0.0031", "none-2", confirm_sent="0.00310000")
    assert Payout.objects.get(pk=payout.pk).status == "sent"


def test_an_amount_near_the_quote_is_sent_and_the_message_says_what_happened(client, operator, payout):
    response = send(client, payout, "0.00315", "near-1")  # 2.2 % more: the price moved
    assert (
        f"{payout.ref} marked sent: 0.00315000 BTC to cem@example.com ($299.00 after the fee); the customer is "
        "e-mailed the transaction id."
    ) in response.content.decode()
    assert "You confirmed" not in response.content.decode()
    after = AuditLogEntry.objects.get(action="payout.sent").after
    assert after is not None
    assert after["amount_check"]["difference_confirmed"] is False


def test_a_rejection_says_the_amount_is_back_on_the_customers_balance(client, operator, payout, cem):
    body = {"action": "reject", "reason": "Adres hatalı", "idempotency_key": "rej-1"}
    response = client.post(f"{DESK}{payout.pk}/change/", body, follow=True)
    assert (
        f"{payout.ref} rejected: the amount, $300.00, is back on cem@example.com&#x27;s balance; the customer is "
        "e-mailed your reason."
    ) in response.content.decode()
    assert balance_for(cem) == Usd(50_000)


def test_the_list_shows_the_amount_sent_in_the_asset(client, operator, payout):
    payout_mark_sent(payout_id=payout.pk, txid=TXID, sent_units=30_000_000, actor=operator)
    html = client.get(DESK + "?queue=all").content.decode()
    assert '$299.00 ($300.00 − fee) <span class="sent">sent 0.30000000 BTC</span>' in html


def test_a_double_submit_of_a_confirmed_amount_acts_once(client, operator, payout):
    url = f"{DESK}{payout.pk}/change/"
    body = {"action": "sent", "txid": TXID, "sent": "0.3", "confirm_sent": "0.30000000", "idempotency_key": "dbl"}
    first, again = client.post(url, body), client.post(url, body)
    assert (first.status_code, again.status_code, again["Location"]) == (302, 302, DESK)
    assert AuditLogEntry.objects.filter(action="payout.sent").count() == 1

"""The order page's payment section, the balance and top-up pages, and owner scoping in HTML."""

import pytest
from django.urls import reverse

from gpurent.core.money import Usd
from gpurent.payments.intents.lifecycle import intent_issue_for_deposit, intent_issue_for_order
from gpurent.payments.models import PaymentIntent
from gpurent.payments.received.verification import intent_confirm
from gpurent.payments.services import deposit_create

pytestmark = pytest.mark.django_db


def test_order_page_gets_instructions_reports_and_keeps_saying_so(client, customer, order):
    client.force_login(customer)
    page = reverse("orders:rental", args=[order.ref])
    html = client.get(page).content.decode()
    assert "Get payment instructions" in html
    assert "USDT on Tron (TRC-20)" in html
    client.post(reverse("payments:order_intent", args=[order.ref]), {"pair": "USDT/tron", "idempotency_key": "k1"})
    intent = PaymentIntent.objects.get()
    html = client.get(page).content.decode()
    for text in ["410.000000", intent.address, "Send only USDT on the Tron network", "<svg", "I have sent the payment"]:
        assert text in html
    client.post(reverse("payments:intent_report", args=[intent.pk]))
    for _ in range(2):  # every later visit
        html = client.get(page).content.decode()
        # Once, on the intent's card: the payment panel said it a second time above the card (QA).
        assert html.count("Payment reported. Awaiting verification.") == 1
        assert 'data-testid="intent-reported">Payment reported. Awaiting verification.<' in html
        assert "I have sent the payment" not in html


def test_order_page_after_confirmation_shows_paid_and_the_ledger_references(client, customer, order):
    intent = intent_issue_for_order(order=order, owner=customer, asset="USDT", network="tron")
    intent_confirm(intent_id=intent.pk, txid="tx", received_units=intent.amount_units)
    client.force_login(customer)
    html = client.get(reverse("orders:rental", args=[order.ref])).content.decode()
    assert f'<span class="ledger-ref" data-reference="order:{order.ref}">Order <code>{order.ref}</code></span>' in html
    deposit = PaymentIntent.objects.get().payments.get().deposit
    assert deposit is not None
    assert f'data-reference="deposit:{deposit.ref}">Payment received <code>{deposit.ref}</code>' in html
    assert "$410.00" in html
    balance = client.get(reverse("payments:balance")).content.decode()
    assert f'data-reference="order:{order.ref}">Order <code>{order.ref}</code>' in balance
    assert "$0.00" in balance


def test_top_up_page_flow(client, customer, payment_setup):
    client.force_login(customer)
    response = client.post(reverse("payments:top_up"), {"amount_usd": "120.00", "idempotency_key": "t1"})
    deposit_page = response["Location"]
    html = client.get(deposit_page).content.decode()
    assert "$120.00" in html
    assert "Get payment instructions" in html
    client.post(deposit_page + "intents/", {"pair": "BTC/bitcoin", "idempotency_key": "t2"})
    assert "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq" in client.get(deposit_page).content.decode()


def test_top_up_page_after_the_report_says_payment_reported_once(client, customer, payment_setup):
    # QA (vi, tr): the flash message and the instructions' card both said it, one under the other.
    client.force_login(customer)
    deposit = deposit_create(owner=customer, amount=Usd(12_000))
    intent = intent_issue_for_deposit(deposit=deposit, owner=customer, asset="BTC", network="bitcoin")
    response = client.post(reverse("payments:intent_report", args=[intent.pk]), follow=True)
    html = response.content.decode()
    assert response.redirect_chain[-1][0] == reverse("payments:deposit", args=[deposit.ref]) + f"#intent-{intent.pk}"
    assert html.count("Payment reported. Awaiting verification.") == 1
    assert 'data-testid="intent-reported">Payment reported. Awaiting verification.<' in html


def test_pay_from_balance_button_appears_when_the_balance_covers_it(client, customer, order):
    deposit = deposit_create(owner=customer, amount=Usd(50_000))
    intent = intent_issue_for_deposit(deposit=deposit, owner=customer, asset="USDT", network="tron")
    intent_confirm(intent_id=intent.pk, txid="tx", received_units=intent.amount_units)
    client.force_login(customer)
    html = client.get(reverse("orders:rental", args=[order.ref])).content.decode()
    assert "Pay $410.00 from my balance" in html
    client.post(reverse("payments:order_pay", args=[order.ref]), {"idempotency_key": "p1"})
    order.refresh_from_db()
    assert order.payment_status == "paid"


def test_another_customers_payment_pages_are_404(client, customer, order, django_user_model):
    intent = intent_issue_for_order(order=order, owner=customer, asset="USDT", network="tron")
    deposit = deposit_create(owner=customer, amount=Usd(1_000))
    stranger = django_user_model.objects.create_user("eve@example.com", "passphrase 12", first_name="E", last_name="V")
    client.force_login(stranger)
    assert client.post(reverse("payments:intent_report", args=[intent.pk])).status_code == 404
    assert (
        client.post(
            reverse("payments:order_intent", args=[order.ref]), {"pair": "USDT/tron", "idempotency_key": "x"}
        ).status_code
        == 404
    )
    assert client.post(reverse("payments:order_pay", args=[order.ref]), {"idempotency_key": "y"}).status_code == 404
    assert client.get(reverse("payments:deposit", args=[deposit.ref])).status_code == 404
    assert PaymentIntent.objects.get().reported_at is None


def test_a_part_paid_intent_shows_the_worth_of_what_is_still_due(client, customer, order):
    """150 of 410 USDT arrived: the amount is the 260 USDT still due, and "Worth" is those 260 USDT in USD
    (not the $410.00 the whole instructions were for, which is named as the whole)."""
    intent = intent_issue_for_order(order=order, owner=customer, asset="USDT", network="tron")
    intent_confirm(intent_id=intent.pk, txid="part-1", received_units=150 * 10**6)
    client.force_login(customer)
    html = client.get(reverse("orders:rental", args=[order.ref])).content.decode()
    assert '<code data-testid="intent-amount">260.000000</code>' in html
    assert '<span data-testid="intent-worth">$260.00</span>' in html
    assert "the rest of $410.00" in html


def test_a_crypto_amount_reads_right_in_spanish_and_copies_exactly(client, customer, order):
    """Decision 0400: "410.000000 USDT" reads as 410 million to a Spanish reader; the page writes "410 USDT" and
    keeps the exact machine string in the copy field and button."""
    intent_issue_for_order(order=order, owner=customer, asset="USDT", network="tron")
    client.force_login(customer)
    html = client.get(reverse("orders:rental", args=[order.ref]), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert '<strong data-testid="intent-amount-read">410 USDT</strong>' in html
    assert '<code data-testid="intent-amount">410.000000</code>' in html
    assert 'data-copy="410.000000"' in html
    assert "410.000000 USDT" not in html


@pytest.mark.parametrize(("language", "rate"), [("en", "at 97,000 USD per BTC"), ("es", "a 97.000 USD por BTC")])
def test_the_rate_of_instructions_is_grouped_as_the_reader_groups_numbers(client, customer, order, language, rate):
    intent_issue_for_order(order=order, owner=customer, asset="BTC", network="bitcoin")
    client.force_login(customer)
    html = client.get(reverse("orders:rental", args=[order.ref]), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert rate in html


def test_an_unpaid_intent_is_worth_what_it_was_issued_for(client, customer, order):
    intent_issue_for_order(order=order, owner=customer, asset="USDT", network="tron")
    client.force_login(customer)
    html = client.get(reverse("orders:rental", args=[order.ref])).content.decode()
    assert '<span data-testid="intent-worth">$410.00</span>' in html
    assert "the rest of" not in html


def test_the_payment_pairs_read_in_the_customers_language(client, customer, order):
    intent_issue_for_order(order=order, owner=customer, asset="USDT", network="tron")
    client.force_login(customer)
    page = reverse("orders:rental", args=[order.ref])
    html = client.get(page, HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "<strong>USDT en Tron (TRC-20)</strong>" in html  # the instructions' heading
    assert ">BTC en Bitcoin</option>" in html  # the "Pay with" choices
    assert " on Tron" not in html
    balance = client.get(reverse("payments:balance"), HTTP_ACCEPT_LANGUAGE="tr").content.decode()
    assert ">Tron ağında USDT (TRC-20)</option>" in balance  # "Receive in"


def test_pay_with_starts_on_the_pair_of_the_newest_instructions(client, customer, order):
    client.force_login(customer)
    page = reverse("orders:rental", args=[order.ref])
    assert '<option value="USDT/tron" selected>' not in client.get(page).content.decode()
    intent_issue_for_order(order=order, owner=customer, asset="USDT", network="tron")
    assert '<option value="USDT/tron" selected>' in client.get(page).content.decode()


def test_a_balance_that_covers_the_order_leaves_the_crypto_options(client, customer, order):
    deposit = deposit_create(owner=customer, amount=Usd(50_000))
    intent = intent_issue_for_deposit(deposit=deposit, owner=customer, asset="USDT", network="tron")
    intent_confirm(intent_id=intent.pk, txid="tx", received_units=intent.amount_units)
    client.force_login(customer)
    html = client.get(reverse("orders:rental", args=[order.ref])).content.decode()
    assert "Pay $410.00 from my balance" in html
    assert reverse("payments:order_intent", args=[order.ref]) in html
    assert "Get payment instructions" in html

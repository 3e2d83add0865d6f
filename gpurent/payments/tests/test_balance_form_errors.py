"""A refused top-up or withdrawal on the balance page (QA walk): the form comes back with what was typed and the
error next to its field, on a 422, and the page is anchored at that form; nothing is written."""

import re

import pytest
from django.urls import reverse

from gpurent.core.money import Usd
from gpurent.ledger.services import EXTERNAL_CRYPTO, customer_account, system_account, transfer_post
from gpurent.payments.models import Deposit, Payout

pytestmark = pytest.mark.django_db

TRON = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"


def _field(page: str, field_id: str) -> str:
    """The `<div class="field…">` that holds the input `field_id`, up to its closing tag."""
    match = re.search(rf'<div class="field[^"]*">(?:(?!<div class="field).)*?id="{field_id}".*?</div>', page, re.S)
    assert match, field_id
    return match.group(0)


@pytest.mark.parametrize("language", ["en", "tr"])
def test_an_ambiguous_top_up_comes_back_as_typed_with_its_error_next_to_it(client, customer, payment_setup, language):
    client.force_login(customer)
    body = {"amount_usd": "1.000", "idempotency_key": "t-1"}
    response = client.post(reverse("payments:top_up"), body, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 422
    page = response.content.decode()
    field = _field(page, "id_amount_usd")
    assert 'value="1.000"' in field  # not the default 100.00: one more tap must not start a $100 top-up
    assert "has-error" in field
    assert 'class="errorlist' in field
    assert "1000" in field
    assert f'action="{reverse("payments:top_up")}#topup-heading"' in page
    assert not Deposit.objects.exists()


def test_a_refused_withdrawal_keeps_the_address_and_amount_and_marks_the_field(client, customer, payment_setup):
    client.force_login(customer)
    body = {"pair": "USDT/tron", "address": TRON, "amount_usd": "1e3", "idempotency_key": "w-1"}
    response = client.post(reverse("payments:withdraw"), body)
    assert response.status_code == 422
    page = response.content.decode()
    assert f'value="{TRON}"' in _field(page, "payout_address")
    amount = _field(page, "payout_amount_usd")
    assert 'value="1e3"' in amount
    assert "has-error" in amount
    assert "Enter a dollar amount with at most two decimals" in amount
    assert 'value="USDT/tron" selected' in _field(page, "payout_pair")
    assert f'action="{reverse("payments:withdraw")}#withdraw-heading"' in page
    assert not Payout.objects.exists()


def test_a_withdrawal_the_service_refuses_shows_why_on_the_field_it_is_about(client, customer, payment_setup, settings):
    settings.PAYOUTS_MIN_CENTS, settings.PAYOUTS_FEE_CENTS = 2_000, 100
    transfer_post(
        reference="deposit:D-T",
        debit=system_account(EXTERNAL_CRYPTO),
        credit=customer_account(customer),
        amount=Usd(5_000),
    )
    client.force_login(customer)
    body = {"pair": "USDT/tron", "address": "nope", "amount_usd": "30,00", "idempotency_key": "w-2"}
    response = client.post(reverse("payments:withdraw"), body)
    assert response.status_code == 422
    page = response.content.decode()
    address = _field(page, "payout_address")
    assert 'value="nope"' in address
    assert "has-error" in address
    assert "not a valid" in address
    assert 'value="30,00"' in _field(page, "payout_amount_usd")
    too_much = {**body, "address": TRON, "amount_usd": "80.00", "idempotency_key": "w-3"}
    amount = _field(client.post(reverse("payments:withdraw"), too_much).content.decode(), "payout_amount_usd")
    assert 'value="80.00"' in amount
    assert "does not cover" in amount
    # The same form sent again replays the stored refusal: still on the amount.
    again = _field(client.post(reverse("payments:withdraw"), too_much).content.decode(), "payout_amount_usd")
    assert "does not cover" in again
    assert not Payout.objects.exists()


def test_the_unbound_forms_still_show_the_default_amount(client, customer, payment_setup):
    client.force_login(customer)
    page = client.get(reverse("payments:balance")).content.decode()
    assert 'value="100.00"' in _field(page, "id_amount_usd")
    assert "errorlist" not in page


def test_a_withdrawal_shows_every_error_at_once(client, customer, payment_setup, settings):
    """QA walk 2: a bad address and an amount below the minimum were told one after the other."""
    settings.PAYOUTS_MIN_CENTS, settings.PAYOUTS_FEE_CENTS = 2_000, 100
    client.force_login(customer)
    body = {"pair": "USDT/tron", "address": "notanaddress", "amount_usd": "5", "idempotency_key": "w-1"}
    page = client.post(reverse("payments:withdraw"), body).content.decode()
    assert "not a valid" in _field(page, "payout_address")
    assert "The smallest withdrawal is $20.00 (the fee of $1.00 is taken from it)." in _field(page, "payout_amount_usd")
    over = {**body, "amount_usd": "30", "idempotency_key": "w-2"}
    page = client.post(reverse("payments:withdraw"), over).content.decode()
    assert "not a valid" in _field(page, "payout_address")
    assert "does not cover" in _field(page, "payout_amount_usd")
    assert not Payout.objects.exists()


def test_the_withdrawal_hint_knows_the_minimum_and_what_is_available(client, customer, payment_setup, settings):
    settings.PAYOUTS_MIN_CENTS, settings.PAYOUTS_FEE_CENTS = 2_000, 100
    transfer_post(
        reference="deposit:D-H",
        debit=system_account(EXTERNAL_CRYPTO),
        credit=customer_account(customer),
        amount=Usd(5_000),
    )
    client.force_login(customer)
    page = client.get(reverse("payments:balance")).content.decode()
    hint = re.search(r'<p class="hint" data-testid="payout-net"[^>]*>', page)
    assert hint
    assert 'data-minimum-cents="2000" data-available-cents="5000"' in hint.group(0)
    assert 'data-below="Below the smallest withdrawal of $20.00: nothing can be sent."' in hint.group(0)
    assert 'data-over="More than the $50.00 you can withdraw now."' in hint.group(0)


def test_a_withdrawal_form_sent_twice_replays_its_answer_not_a_balance_refusal(client, customer, payment_setup):
    """The balance is left to the service when nothing else is wrong: the first sending spent it, and the same form
    again (a double click) must answer as the first did."""
    transfer_post(
        reference="deposit:D-2",
        debit=system_account(EXTERNAL_CRYPTO),
        credit=customer_account(customer),
        amount=Usd(5_000),
    )
    client.force_login(customer)
    body = {"pair": "USDT/tron", "address": TRON, "amount_usd": "50", "idempotency_key": "w-1"}
    first = client.post(reverse("payments:withdraw"), body)
    again = client.post(reverse("payments:withdraw"), body)
    assert (first.status_code, again.status_code) == (302, 302)
    assert again["Location"] == first["Location"]
    assert Payout.objects.count() == 1

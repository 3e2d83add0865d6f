"""`manage.py confirm_payment`: an operator confirms or rejects an intent's payment from the shell.

Every refusal is a CommandError with the domain error's code, never a traceback; a confirmation goes through
the payment service, so it is credited once and the ledger balances.
"""

import io
import uuid

import pytest
from django.core.management import CommandError, call_command

from gpurent.ledger.selectors import ledger_check
from gpurent.orders.models import Order
from gpurent.orders.services import Contact, order_place
from gpurent.payments.intents.lifecycle import intent_issue_for_order
from gpurent.payments.models import Payment

pytestmark = pytest.mark.django_db

TXID = "ab" * 32


@pytest.fixture
def intent(order, customer):
    return intent_issue_for_order(order=order, owner=customer, asset="USDT", network="tron")


def confirm(*args):
    out = io.StringIO()
    call_command("confirm_payment", *[str(arg) for arg in args], stdout=out)
    return out.getvalue()


def test_confirm_payment_credits_the_amount_once_and_the_order_is_paid(intent, order):
    out = confirm(intent.pk, "--txid", TXID, "--amount", "410")
    payment = Payment.objects.get(txid=TXID)
    assert payment.deposit is not None
    assert out == f"intent {intent.pk}: confirmed; payment credited, credited as deposit {payment.deposit.ref}\n"
    assert (payment.amount_units, payment.source) == (410_000_000, "operator")
    paid = Order.objects.get(pk=order.pk)
    assert (paid.payment_status, paid.paid_at is not None) == ("paid", True)
    # The same output again, same intent and amount: nothing changes.
    assert confirm(intent.pk, "--txid", TXID, "--amount", "410") == out
    assert Payment.objects.count() == 1
    assert ledger_check() == []


def test_confirm_payment_names_an_unknown_intent():
    missing = uuid.uuid4()
    with pytest.raises(CommandError, match=f"^no payment intent {missing}$"):
        confirm(missing, "--txid", TXID, "--amount", "1")


@pytest.mark.parametrize("args", [["--txid", TXID], ["--amount", "410"], []])
def test_confirm_payment_needs_both_the_txid_and_the_amount(intent, args):
    with pytest.raises(CommandError, match=r"^--txid and --amount are required to confirm$"):
        confirm(intent.pk, *args)
    assert not Payment.objects.exists()


@pytest.mark.parametrize("amount", ["twelve", "-1", "0.0000001"])
def test_confirm_payment_refuses_an_amount_the_asset_cannot_hold(intent, amount):
    with pytest.raises(CommandError, match=r"^invalid: "):
        confirm(intent.pk, "--txid", TXID, "--amount", amount)
    assert not Payment.objects.exists()


def test_confirm_payment_refuses_an_output_already_credited_to_another_intent(intent, order, customer, gpu):
    confirm(intent.pk, "--txid", TXID, "--amount", "410")
    other_order = order_place(
        owner=customer,
        gpu_slug=gpu.slug,
        term_days=7,
        lots=1,
        environment="ubuntu",
        contact=Contact("Pay", "Er", "pay@example.com"),
    )
    other = intent_issue_for_order(order=other_order, owner=customer, asset="USDT", network="tron")
    with pytest.raises(CommandError, match=r"^payment_already_credited: "):
        confirm(other.pk, "--txid", TXID, "--amount", "410")
    assert Payment.objects.count() == 1


def test_confirm_payment_reject_closes_the_intent_with_the_reason(intent, order):
    out = confirm(intent.pk, "--reject", "--reason", "no such transaction on chain")
    intent.refresh_from_db()
    assert out == f"intent {intent.pk}: {intent.status}\n"
    assert intent.status == "rejected"
    assert not Payment.objects.exists()

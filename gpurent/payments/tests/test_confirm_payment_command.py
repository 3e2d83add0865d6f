"""`manage.py confirm_payment`: an operator confirms or rejects an intent's payment from the shell.

Every refusal is a CommandError with a sentence (never a raw code, never a traceback); a confirmation goes
through the payment service, so it is credited once and the ledger balances. The intent is given by its id or
by its order's or top-up's reference; a txid must have its network's form; a confirmed intent takes another
transaction only with --additional.
"""

import io
import uuid

import pytest
from django.core.management import CommandError, call_command

from gpurent.ledger.selectors import ledger_check
from gpurent.orders.models import Order
from gpurent.orders.services import Contact, order_place
from gpurent.payments.intents.lifecycle import intent_issue_for_order, intent_report
from gpurent.payments.models import Deposit, Payment, PaymentIntent

pytestmark = pytest.mark.django_db

TXID = "ab" * 32
TXID_2 = "cd" * 32


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
    with pytest.raises(CommandError, match=rf"^The amount “{amount}” is not a plain amount of USDT with at most 6 "):
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
    deposit = Deposit.objects.get(payment__isnull=False)
    with pytest.raises(
        CommandError,
        match=rf"^This transaction was already recorded as a payment: recorded for order {order.ref} \(deposit "
        rf"{deposit.ref}\) on \d\d \w+ \d{{4}}, \d\d:\d\d UTC\.$",
    ):
        confirm(other.pk, "--txid", TXID, "--amount", "410")
    assert Payment.objects.count() == 1


def test_confirm_payment_reject_closes_the_intent_with_the_reason(intent, order):
    out = confirm(intent.pk, "--reject", "--reason", "no such transaction on chain")
    intent.refresh_from_db()
    assert out == f"intent {intent.pk}: {intent.status}\n"
    assert intent.status == "rejected"
    assert not Payment.objects.exists()


def test_confirm_payment_refuses_a_confirmed_intent_unless_additional(intent, order):
    confirm(intent.pk, "--txid", TXID, "--amount", "410")
    deposit = Deposit.objects.get(payment__isnull=False)
    with pytest.raises(
        CommandError,
        match=rf"^This payment is already confirmed \(\$410.00 credited as {deposit.ref}\); a second transaction is "
        r"recorded on it only as an additional one. If a second, real transaction paid it, run again with "
        r"--additional",
    ):
        confirm(intent.pk, "--txid", TXID_2, "--amount", "410")
    assert Payment.objects.count() == 1
    out = confirm(intent.pk, "--txid", TXID_2, "--amount", "410", "--additional")
    second = Deposit.objects.get(payment__txid=TXID_2)
    assert out == f"intent {intent.pk}: confirmed; payment credited, credited as deposit {second.ref}\n"
    assert ledger_check() == []


@pytest.mark.parametrize(
    ("network", "asset", "txid", "form"),
    [
        ("tron", "USDT", "zzz", "64 hexadecimal characters"),
        ("tron", "USDT", "0x" + "ab" * 32, "64 hexadecimal characters"),
        ("ethereum", "USDT", "ab" * 32, "0x followed by 64 hexadecimal characters"),
        ("solana", "USDC", "ab" * 32, "a Base58 transaction signature of 64 to 88 characters"),
    ],
)
def test_confirm_payment_refuses_a_txid_not_of_the_network(order, customer, network, asset, txid, form):
    intent = intent_issue_for_order(order=order, owner=customer, asset=asset, network=network)
    label = network.capitalize()
    with pytest.raises(CommandError, match=rf"^This is not a transaction id on {label}: one is {form}"):
        confirm(intent.pk, "--txid", txid, "--amount", "1")
    assert not Payment.objects.exists()


def test_confirm_payment_takes_the_order_reference_for_its_intent_to_verify(intent, order, customer):
    other = intent_issue_for_order(order=order, owner=customer, asset="BTC", network="bitcoin")
    # Two open intents: the reference alone does not say which.
    with pytest.raises(CommandError, match=rf"^{order.ref} has 2 payment instructions that could be meant: .*Give the"):
        confirm(order.ref, "--txid", TXID, "--amount", "410")
    # The reported one is the one to verify (a reference in lower case too).
    intent_report(intent=intent)
    out = confirm(order.ref.lower(), "--txid", TXID, "--amount", "410")
    assert out.startswith(f"intent {intent.pk}: confirmed; payment credited")
    assert PaymentIntent.objects.get(pk=other.pk).status == "closed"
    with pytest.raises(CommandError, match=rf"^{order.ref} has no payment instructions open or to verify \(for a "):
        confirm(order.ref, "--txid", TXID_2, "--amount", "410")
    with pytest.raises(CommandError, match=r"^No order or top-up R-NONE-0000 has payment instructions"):
        confirm("R-NONE-0000", "--txid", TXID, "--amount", "1")


def test_confirm_payment_reject_of_a_part_paid_intent_says_why_in_a_sentence(intent):
    confirm(intent.pk, "--txid", TXID, "--amount", "100")
    deposit = Deposit.objects.get(payment__isnull=False)
    with pytest.raises(
        CommandError,
        match=rf"^This payment cannot be rejected \(\$100.00 credited as {deposit.ref}\): a credit is corrected by a "
        r"reversal, not by a rejection.$",
    ):
        confirm(intent.pk, "--reject", "--reason", "no")

"""Customers' money e-mails are written in the account's e-mail language, not the crediting process's.

A chain watcher or an operator's back office runs in English; a Spanish or Turkish customer still reads the
subject and paragraphs (made when the e-mail is queued) and the template (rendered later by the worker, from the
language stored with the row) in their own language.
"""

import re
from datetime import timedelta

import pytest
from django.core import mail
from django.utils import translation
from django.utils.translation import gettext

from gpurent.core.models import OutboundEmail
from gpurent.core.money import Usd
from gpurent.ledger.services import EXTERNAL_CRYPTO, customer_account, system_account, transfer_post
from gpurent.payments.intents.lifecycle import intent_issue_for_order
from gpurent.payments.models import Payment
from gpurent.payments.payouts import payout_mark_sent, payout_reject, payout_request
from gpurent.payments.received.receive import payment_receive, payments_review_reject

pytestmark = pytest.mark.django_db

TRON = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"
CREDITED = "Payment received: %(amount)s credited"
CREDITED_TEXT = "We received %(amount)s for %(target)s (transaction %(txid)s) and credited %(credit)s to your balance."
PART_PAID = (
    "So far %(received)s of the %(total)s for order %(ref)s has been received. The order is not paid "
    "yet: the money is in your balance and pays the order as soon as your balance covers the total; "
    "until then you can also withdraw it."
)


@pytest.fixture(params=["es", "tr"])
def language(request, customer):
    customer.language = request.param
    customer.save(update_fields=["language"])
    return request.param


def longest_literal(msgid: str, language: str) -> str:
    """The longest fixed part of `msgid` in `language`: what every e-mail made from it contains."""
    with translation.override(language):
        text = gettext(msgid)
    return max(re.split(r"%\(\w+\)[sd]", text), key=len).strip()


def assert_in_language(key: str, language: str, subject_msgid: str, paragraph_msgids: list[str]) -> None:
    """The row stores `language`; its subject, paragraphs and template text (rendered by the worker) are in it."""
    email = OutboundEmail.objects.get(key=key)
    assert email.language == language
    template_msgids = ["Hello %(name)s,", "Your balance and its history"]  # the template's own words
    checks = [(subject_msgid, email.subject)] + [(msgid, email.text) for msgid in paragraph_msgids + template_msgids]
    for msgid, text in checks:
        assert longest_literal(msgid, language) != longest_literal(msgid, "en")  # it is translated at all
        assert longest_literal(msgid, language) in text, (msgid, text)
        assert longest_literal(msgid, "en") not in text, (msgid, text)
    assert any(sent.subject == email.subject and sent.to == [email.to] for sent in mail.outbox)


def receive(intent, txid, units, **extra):
    with translation.override("en"):  # the chain watcher / the operator's back office
        return payment_receive(intent_id=intent.pk, txid=txid, amount_units=units, source="operator", **extra)


def test_a_credited_payment_is_written_in_the_customers_language(
    customer, order, language, django_capture_on_commit_callbacks
):
    intent = intent_issue_for_order(order=order, owner=customer, asset="USDT", network="tron")
    with django_capture_on_commit_callbacks(execute=True):
        half = receive(intent, "tx-half", intent.amount_units // 2)
    assert_in_language(f"payment_credited:{half.pk}", language, CREDITED, [CREDITED_TEXT, PART_PAID])
    with django_capture_on_commit_callbacks(execute=True):
        rest = receive(intent, "tx-rest", intent.amount_units - intent.amount_units // 2)
    assert_in_language(
        f"payment_credited:{rest.pk}",
        language,
        CREDITED,
        [CREDITED_TEXT, "If it pays an order, the order is paid from your balance as soon as the balance covers it."],
    )


def test_a_late_payment_in_review_and_declined_is_written_in_the_customers_language(
    customer, order, language, django_capture_on_commit_callbacks
):
    intent = intent_issue_for_order(order=order, owner=customer, asset="USDT", network="tron")
    with django_capture_on_commit_callbacks(execute=True):
        receive(intent, "tx-late", intent.amount_units, now=intent.expires_at + timedelta(seconds=1))
    payment = Payment.objects.get(txid="tx-late")
    assert_in_language(
        f"late_payment_received:{payment.pk}",
        language,
        "Late payment received: in review",
        [
            "We received %(amount)s for %(target)s (transaction %(txid)s) after its payment instructions "
            "expired. An operator will credit it to your balance; you will get an e-mail."
        ],
    )
    with translation.override("en"), django_capture_on_commit_callbacks(execute=True):
        payments_review_reject(intent_id=intent.pk, actor=None, reason="not ours")
    assert_in_language(
        f"late_payment_rejected:{payment.pk}",
        language,
        "Late payment not credited",
        [
            "An operator could not credit %(amount)s (transaction %(txid)s) for %(target)s. "
            "Reply to this e-mail if you think this is a mistake."
        ],
    )


def test_a_withdrawal_sent_or_declined_is_written_in_the_customers_language(
    customer, payment_setup, language, settings, django_capture_on_commit_callbacks
):
    settings.PAYOUTS_MIN_CENTS, settings.PAYOUTS_FEE_CENTS = 2_000, 100
    transfer_post(
        reference="deposit:D-LANG",
        debit=system_account(EXTERNAL_CRYPTO),
        credit=customer_account(customer),
        amount=Usd(10_000),
    )
    fields = {"owner": customer, "asset": "USDT", "network": "tron", "address": TRON, "amount": Usd(3_000)}
    sent, declined = payout_request(**fields), payout_request(**fields)
    with translation.override("en"), django_capture_on_commit_callbacks(execute=True):
        payout_mark_sent(payout_id=sent.pk, txid="ab" * 32, sent_units=29_000_000, actor=None)
        payout_reject(payout_id=declined.pk, reason="sanctions", actor=None)
    assert_in_language(
        f"payout_sent:{sent.pk}",
        language,
        "Withdrawal sent: %(net)s",
        [
            "We sent %(sent)s (%(net)s: your withdrawal of %(amount)s minus the fee) to %(address)s on %(pair)s.",
            "Transaction id: %(txid)s. Reference: %(ref)s.",
        ],
    )
    assert_in_language(
        f"payout_rejected:{declined.pk}",
        language,
        "Withdrawal declined: %(amount)s back on your balance",
        [
            "We could not send your withdrawal %(ref)s to %(address)s. Reason: %(reason)s.",
            "The whole amount, %(amount)s, is back on your balance.",
        ],
    )


def test_a_withdrawal_request_is_confirmed_to_the_customer_in_their_language(
    customer, payment_setup, language, settings, django_capture_on_commit_callbacks
):
    # QA2 #12: only the operators were told; the customer had no record of what left the balance, and no word if
    # someone else asked for it.
    settings.PAYOUTS_MIN_CENTS, settings.PAYOUTS_FEE_CENTS = 2_000, 100
    transfer_post(
        reference="deposit:D-LANG",
        debit=system_account(EXTERNAL_CRYPTO),
        credit=customer_account(customer),
        amount=Usd(10_000),
    )
    with translation.override("en"), django_capture_on_commit_callbacks(execute=True):
        payout = payout_request(owner=customer, asset="USDT", network="tron", address=TRON, amount=Usd(3_000))
    assert_in_language(
        f"payout_requested:{payout.pk}",
        language,
        "Withdrawal requested: %(amount)s",
        [
            "We received your request to withdraw %(amount)s to %(address)s on %(pair)s. It has left your "
            "balance; %(net)s (after the fee) will be sent.",
            "You will get another e-mail with the transaction id once it is sent. Reference: %(ref)s. If you did "
            "not ask for this withdrawal, change your password at once and write to us at %(contact)s.",
        ],
    )
    assert TRON in OutboundEmail.objects.get(key=f"payout_requested:{payout.pk}").text


def test_money_emails_write_amounts_and_references_as_the_customers_language(
    customer, order, payment_setup, settings, django_capture_on_commit_callbacks
):
    """Decision 0445: "205 USDT en Tron (TRC-20)" and "205,00 US$", not "205.000000 USDT on Tron (TRC-20)" and
    "$205.00"; a withdrawal's reference as "Retiro W-…", not "payout:W-…"."""
    customer.language = "es"
    customer.save(update_fields=["language"])
    intent = intent_issue_for_order(order=order, owner=customer, asset="USDT", network="tron")
    with django_capture_on_commit_callbacks(execute=True):
        half = receive(intent, "tx-half", intent.amount_units // 2)
    text = OutboundEmail.objects.get(key=f"payment_credited:{half.pk}").text
    assert "205 USDT en Tron (TRC-20)" in text
    assert "205,00\xa0US$" in text
    assert "410,00\xa0US$" in text  # the order's total, in the part-paid line
    assert ".000000" not in text
    assert "$205.00" not in text
    settings.PAYOUTS_MIN_CENTS, settings.PAYOUTS_FEE_CENTS = 2_000, 100
    payout = payout_request(owner=customer, asset="USDT", network="tron", address=TRON, amount=Usd(3_000))
    with translation.override("en"), django_capture_on_commit_callbacks(execute=True):
        payout_mark_sent(payout_id=payout.pk, txid="cd" * 32, sent_units=28_500_000, actor=None)
    sent = OutboundEmail.objects.get(key=f"payout_sent:{payout.pk}").text
    assert "28,5 USDT" in sent
    assert f"Retiro {payout.ref}" in sent
    assert "payout:" not in sent

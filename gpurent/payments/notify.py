"""E-mails to a customer about money: a payment credited, a late payment in review, credited or declined.

Queued in the transaction of the change (an outbox row), sent once after commit; one key per payment and event.
Written in the account's e-mail language, whatever language the process that credits the payment runs in (a chain
watcher, an operator's back office): the texts are made under that language and the row stores it for the
worker that renders the template.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from gpurent.core.emails import email_queue
from gpurent.core.formats import decimal_text, usd_text
from gpurent.core.money import Usd
from gpurent.orders.enums import PaymentStatus
from gpurent.orders.money import order_money

from .assets import format_units, pair_get
from .balance.figures import spendable_for_order
from .models import Payment, PaymentIntent
from .selectors import order_references

__all__ = ["customer_intent_rejected_email", "customer_money_email", "customer_payment_email"]


def customer_money_email(
    *, user: AbstractBaseUser, key: str, texts: Callable[[], tuple[str, list[str]]], path: str = ""
) -> None:
    """Queue one e-mail about the customer's balance (sent once per `key`) in the account's e-mail language.

    `texts` returns the subject and paragraphs; it is called with that language active. The link goes to `path`
    (the balance page when empty).
    """
    language = getattr(user, "email_language", lambda: settings.LANGUAGE_CODE)()
    with translation.override(language):
        subject, paragraphs = texts()
    email_queue(
        key=key,
        to=str(getattr(user, "email", "")),
        template="money_event",
        context={
            "name": getattr(user, "first_name", ""),
            "subject": subject,
            "paragraphs": paragraphs,
            "url": settings.SITE_URL.rstrip("/") + (path or reverse("payments:balance")),
        },
        language=language,
    )


def _what_pays(payment: Payment) -> str:
    """The credited e-mail's last line: for a part of an unpaid order that the balance does not cover yet, how much
    of its total arrived so far and where that money is (from the ledger, this credit included); otherwise how a
    credit pays an order (a balance that covers the order pays it in this same transaction, right after)."""
    order = payment.intent.order
    if order is not None and order.payment_status == PaymentStatus.AWAITING_PAYMENT:
        received = order_money([order], {order.pk: order_references(order)})[order.pk].received
        if received < order.total and spendable_for_order(order) < order.total:
            return _(
                "So far %(received)s of the %(total)s for order %(ref)s has been received. The order is not paid "
                "yet: the money is in your balance and pays the order as soon as your balance covers the total; "
                "until then you can also withdraw it."
            ) % {"received": usd_text(received), "total": usd_text(order.total), "ref": order.ref}
    return _("If it pays an order, the order is paid from your balance as soon as the balance covers it.")


def customer_payment_email(payment: Payment, event: str) -> None:
    """`payment_credited`, `late_payment_received` (in review), `late_payment_rejected`."""
    key = f"{event}:{payment.pk}"
    customer_money_email(user=payment.intent.owner, key=key, texts=lambda: _payment_texts(payment, event))


def customer_intent_rejected_email(intent: PaymentIntent, reason: str) -> None:
    """The answer to a payment the customer reported: an operator found no valid payment for these instructions,
    and why (the operator's reason, as typed). Once per intent; the link goes to the order or the top-up."""
    if intent.order is not None:
        path = reverse("orders:rental", args=[intent.order.ref]) + "#payment"
    else:
        path = reverse("payments:deposit", args=[intent.deposit.ref]) if intent.deposit else ""
    customer_money_email(
        user=intent.owner, key=f"intent_rejected:{intent.pk}", texts=lambda: _rejected_texts(intent, reason), path=path
    )


def _rejected_texts(intent: PaymentIntent, reason: str) -> tuple[str, list[str]]:
    pair = pair_get(intent.asset, intent.network)
    amount = f"{decimal_text(format_units(intent.amount_units, pair))} {pair.display_label}"
    target = intent.order.ref if intent.order else (intent.deposit.ref if intent.deposit else "")
    return (
        _("Reported payment not accepted: %(target)s") % {"target": target},
        [
            _(
                "You reported a payment of %(amount)s for %(target)s. An operator found no valid payment for "
                "these payment instructions, so nothing was credited."
            )
            % {"amount": amount, "target": target},
            _("The operator's reason: %(reason)s") % {"reason": reason},
            _(
                "If you did send it, reply to this e-mail with the transaction id. Anything that still arrives "
                "for these instructions is recorded and checked by an operator."
            ),
        ],
    )


def _payment_texts(payment: Payment, event: str) -> tuple[str, list[str]]:
    intent = payment.intent
    pair = pair_get(intent.asset, intent.network)
    # Amounts as the recipient reads them (decision 0445): "370 USDT en Tron (TRC-20)", "410,00 US$"; the e-mail is
    # read, not pasted into a wallet, so the crypto amount has the language's decimal mark and no trailing zeros.
    amount = f"{decimal_text(format_units(payment.amount_units, pair))} {pair.display_label}"
    target = intent.order.ref if intent.order_id and intent.order else (intent.deposit.ref if intent.deposit else "")
    credited = usd_text(Usd(payment.credited_cents or 0))
    texts = {
        "payment_credited": (
            _("Payment received: %(amount)s credited") % {"amount": credited},
            [
                _(
                    "We received %(amount)s for %(target)s (transaction %(txid)s) "
                    "and credited %(credit)s to your balance."
                )
                % {"amount": amount, "target": target, "txid": payment.txid, "credit": credited},
                _what_pays(payment),
            ],
        ),
        "late_payment_received": (
            _("Late payment received: in review"),
            [
                _(
                    "We received %(amount)s for %(target)s (transaction %(txid)s) after its payment instructions "
                    "expired. An operator will credit it to your balance; you will get an e-mail."
                )
                % {"amount": amount, "target": target, "txid": payment.txid}
            ],
        ),
        "late_payment_rejected": (
            _("Late payment not credited"),
            [
                _(
                    "An operator could not credit %(amount)s (transaction %(txid)s) for %(target)s. "
                    "Reply to this e-mail if you think this is a mistake."
                )
                % {"amount": amount, "target": target, "txid": payment.txid}
            ],
        ),
    }
    return texts[event]

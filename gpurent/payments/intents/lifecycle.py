"""An intent's writes: issued for an order or a top-up, reported paid by its customer, closed with its order.

An intent is issued with its order's row and the customer's account locked (a top-up's: its deposit row), from a
rate read before any lock (DESIGN §13), at an address chosen by `allocation.address_allocate` (or BTCPay's, after
commit); what would refuse it is `refusals.py`'s. Receiving and crediting a payment for it is
`received/receive.py`'s.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from gpurent.core.emails import email_operators
from gpurent.core.locks import lock_rows
from gpurent.core.money import Usd
from gpurent.ledger.models import LedgerAccount
from gpurent.ledger.services import customer_account
from gpurent.orders.enums import PaymentStatus, Track
from gpurent.orders.history_notes import payment_reported_note
from gpurent.orders.models import Order, OrderStatusChange
from gpurent.orders.services import order_extend_reservation

from ..assets import Pair, format_units, pair_get, quote_units
from ..balance.figures import spendable_for_order
from ..btcpay.client import BTCPAY, btcpay_routes
from ..errors import NothingToPay
from ..models import Deposit, DepositStatus, IntentStatus, PaymentIntent
from ..rates import Rate, current_rate
from .allocation import Allocation, address_allocate
from .refusals import intent_refusal, top_up_refusal

__all__ = [
    "intent_issue_for_deposit",
    "intent_issue_for_order",
    "intent_report",
    "order_cancel_warning_for_payments",
    "order_intents_close",
]


def _quote(asset: str, network: str, now: datetime) -> tuple[Pair, Rate]:
    """The pair and its current rate, read before any lock is taken: the rate source may be an HTTP call
    (DESIGN §13: no network call while a lock is held). Refuses a stale rate before anything is written."""
    pair = pair_get(asset, network)
    return pair, current_rate(pair.asset, now=now)


def _intent_issue(
    *,
    owner: AbstractBaseUser,
    usd: Usd,
    pair: Pair,
    rate: Rate,
    order: Order | None,
    deposit: Deposit | None,
    now: datetime,
    share: Usd | None = None,
) -> PaymentIntent:
    amount_units = quote_units(usd, rate.usd_per_unit, pair)
    if btcpay_routes(pair.network):
        # BTCPay gives the address, after this transaction commits (btcpay.invoices.intent_prepare, decision 0147).
        allocation = Allocation("", "", None, amount_units, BTCPAY)
    else:
        allocation = address_allocate(pair=pair, amount_units=amount_units, now=now)
    return PaymentIntent.objects.create(
        owner_id=owner.pk,
        order=order,
        deposit=deposit,
        asset=pair.asset,
        network=pair.network,
        amount_units=allocation.amount_units,
        rate_usd=rate.usd_per_unit,
        usd_cents=usd.cents,
        balance_share_cents=share.cents if share is not None else 0,
        address=allocation.address,
        memo=allocation.memo,
        processor=BTCPAY if allocation.mode == BTCPAY else "",
        expires_at=now + timedelta(minutes=settings.PAYMENTS_INTENT_TTL_MINUTES),
    )


def intent_issue_for_order(
    *, order: Order, owner: AbstractBaseUser, asset: str, network: str, now: datetime | None = None
) -> PaymentIntent:
    """Payment instructions for what the order still needs: its total minus the balance already there.

    Each call makes a new intent at the current rate ("new instructions"); earlier ones stay as they were. An
    order has at most `PAYMENTS_MAX_OPEN_INTENTS` open intents at once and `PAYMENTS_MAX_INTENTS` in all.
    On a network routed through BTCPay Server the intent has no address yet: once the caller's transaction has
    committed, `btcpay.invoices.intent_prepare` creates its invoice (no lock is held during that HTTP call).

    Raises:
        UnsupportedPair, RateUnavailable, NoReceivingAddress: nothing is written.
        NothingToPay: the order is not awaiting payment, or the balance already covers it.
        TooManyOpenIntents, IntentLimitReached: the order has as many intents as it may (nothing is written).
    """
    now = now or timezone.now()
    pair, rate = _quote(asset, network, now)
    with transaction.atomic():
        # The customer's account is locked too: the balance share is decided against the other holds.
        lock_rows((Order, [order.pk]), (LedgerAccount, [customer_account(owner).pk]))
        locked = Order.objects.get(pk=order.pk)
        if locked.payment_status != PaymentStatus.AWAITING_PAYMENT:
            raise NothingToPay(_("This order is not waiting for a payment."))
        share = Usd(max(0, min(spendable_for_order(locked).cents, locked.total.cents)))
        due = locked.total - share
        if due.cents <= 0:
            raise NothingToPay(_("Your balance already covers this order: pay it from the balance."))
        refusal = intent_refusal(PaymentIntent.objects.filter(order_id=locked.pk), now=now, what="order")
        if refusal is not None:
            raise refusal
        return _intent_issue(
            owner=owner, usd=due, pair=pair, rate=rate, order=locked, deposit=None, now=now, share=share
        )


def intent_issue_for_deposit(
    *, deposit: Deposit, owner: AbstractBaseUser, asset: str, network: str, now: datetime | None = None
) -> PaymentIntent:
    """Payment instructions for a top-up (BTCPay-routed networks and limits: see `intent_issue_for_order`).

    Raises:
        UnsupportedPair, RateUnavailable, NoReceivingAddress: nothing is written.
        NothingToPay: the top-up was already credited or cancelled, or made `PAYMENTS_TOP_UP_HOURS` ago or more.
        TooManyOpenIntents, IntentLimitReached: the top-up has as many intents as it may (nothing is written).
    """
    now = now or timezone.now()
    pair, rate = _quote(asset, network, now)
    with transaction.atomic():
        lock_rows((Deposit, [deposit.pk]))
        locked = Deposit.objects.get(pk=deposit.pk)
        if locked.status != DepositStatus.PENDING or locked.requested_cents is None:
            raise NothingToPay(_("This top-up is not waiting for a payment."))
        refusal = top_up_refusal(locked, now=now)
        if refusal is not None:
            raise refusal
        usd = Usd(locked.requested_cents)
        return _intent_issue(owner=owner, usd=usd, pair=pair, rate=rate, order=None, deposit=locked, now=now)


def intent_report(*, intent: PaymentIntent, now: datetime | None = None) -> PaymentIntent:
    """The customer says they sent the payment of this intent. Recorded once; moves no money.

    Allowed on any intent, expired ones included (the customer may have paid it): the report is recorded and
    the operators are told. The order keeps its lots longer (`PAYMENTS_REPORT_HOLD_HOURS`) only for the first
    report of the order, on an intent still open at that moment: a report on an expired intent extends
    nothing, and reporting again (or another intent) never extends the reservation twice.
    """
    now = now or timezone.now()
    with transaction.atomic():
        lock_rows((Order, [intent.order_id]), (Deposit, [intent.deposit_id]), (PaymentIntent, [intent.pk]))
        first = PaymentIntent.objects.filter(pk=intent.pk, reported_at__isnull=True).update(reported_at=now)
        intent.refresh_from_db()
        if first:
            _tell_operators(intent)
            if intent.order_id is not None:
                # The order's history shows the report (it is not a status: the order still awaits payment).
                pair = pair_get(intent.asset, intent.network)
                OrderStatusChange.objects.create(
                    order_id=intent.order_id,
                    track=Track.PAYMENT,
                    from_status=PaymentStatus.AWAITING_PAYMENT,
                    to_status=PaymentStatus.AWAITING_PAYMENT,
                    actor_id=intent.owner_id,
                    reason=payment_reported_note(format_units(intent.amount_units, pair), pair.label),
                )
        open_now = intent.status == IntentStatus.AWAITING_PAYMENT and now < intent.expires_at
        earlier = PaymentIntent.objects.filter(order_id=intent.order_id or 0, reported_at__isnull=False).exclude(
            pk=intent.pk
        )
        if first and open_now and intent.order_id is not None and not earlier.exists():
            hold = timedelta(hours=settings.PAYMENTS_REPORT_HOLD_HOURS)
            order_extend_reservation(order_id=intent.order_id, until=now + hold)
    return intent


def _tell_operators(intent: PaymentIntent) -> None:
    """Email the payments operators that a customer reports a payment (once per intent and operator)."""
    pair = pair_get(intent.asset, intent.network)
    target = f"order {intent.order.ref}" if intent.order else f"top-up {intent.deposit.ref if intent.deposit else ''}"
    # The intent's own page at the payments desk, where it is verified or rejected (not the desk's list).
    url = settings.SITE_URL.rstrip("/") + reverse("admin:backoffice_paymentsdesk_change", args=[intent.pk])
    context = {
        "intent": intent,
        "pair": {"label": pair.label, "asset": pair.asset},  # stored as JSON with the e-mail
        "amount": format_units(intent.amount_units, pair),
        "target": target,
        "url": url,
    }
    email_operators("payments", key=f"payment-reported:{intent.pk}", template="payment_reported", context=context)


def order_intents_close(order: Order) -> int:
    """Close the order's intents still open for payment once the order is paid or cancelled.

    An open intent that already received a payment becomes `confirmed`, any other `closed`. Anything still
    sent to them is credited to the balance (see `received.receive.payment_receive`). `orders.services.order_transition`
    calls it (through `orders.payments_port`) in every payment-track transition, with the order locked.
    Returns how many intents changed.
    """
    open_intents = PaymentIntent.objects.filter(order_id=order.pk, status=IntentStatus.AWAITING_PAYMENT)
    paid = open_intents.filter(payments__isnull=False).update(status=IntentStatus.CONFIRMED)
    return paid + open_intents.update(status=IntentStatus.CLOSED)


def order_cancel_warning_for_payments(order: Order) -> str:
    """What happens to money already sent for `order` if it is cancelled, or "" (orders asks through
    `orders.payments_port` before a customer cancels)."""
    intents = PaymentIntent.objects.filter(order_id=order.pk)
    # A report an operator rejected is no money received; a payment recorded after it still counts.
    reported = Q(reported_at__isnull=False) & ~Q(status=IntentStatus.REJECTED)
    if not intents.filter(reported | Q(payments__isnull=False)).exists():
        return ""
    return str(
        _(
            "You reported a payment for this order, or we received one. If you cancel, the order will not be "
            "provided: money already received and anything that still arrives for its payment instructions is "
            "credited to your balance, where you can use it for another order."
        )
    )

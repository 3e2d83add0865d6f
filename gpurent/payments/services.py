"""Every write of payments: top-ups, payment intents, reports, confirmation, paying orders from the balance.

Money moves only through the ledger (`gpurent.ledger.services.transfer_post`) and only in three places:
crediting a confirmed payment (`deposit:<ref>`), paying an order from the balance (`order:<ref>`), and the
refunds of later work. Recording a top-up or reporting a payment moves nothing.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from gpurent.core.emails import email_queue
from gpurent.core.errors import InvalidRequest
from gpurent.core.money import Usd
from gpurent.core.references import new_reference
from gpurent.ledger.selectors import balance_for
from gpurent.ledger.services import EXTERNAL_CRYPTO, REVENUE_RENTALS, customer_account, system_account, transfer_post
from gpurent.orders.enums import PaymentStatus, Track
from gpurent.orders.errors import TransitionNotAllowed
from gpurent.orders.models import Order
from gpurent.orders.provisioning import provision_paid_order
from gpurent.orders.services import order_extend_reservation, order_transition

from .assets import format_units, pair_get, quote_units
from .errors import NothingToPay
from .models import Deposit, DepositKind, DepositStatus, IntentStatus, PaymentIntent
from .rates import current_rate
from .receiving import address_allocate

__all__ = [
    "deposit_create",
    "intent_issue_for_deposit",
    "intent_issue_for_order",
    "intent_report",
    "order_pay_from_balance",
    "payment_credit",
]

MIN_TOP_UP = Usd(500)
MAX_TOP_UP = Usd(10_000_000)


def _create_deposit(**fields: object) -> Deposit:
    for _attempt in range(5):
        try:
            with transaction.atomic():
                return Deposit.objects.create(ref=new_reference("D"), **fields)
        except IntegrityError:
            continue
    raise RuntimeError("could not find a free deposit reference")


def deposit_create(*, owner: AbstractBaseUser, amount: Usd) -> Deposit:
    """Ask to top up the balance by `amount`. Adds nothing to the balance: only a confirmed payment does.

    Raises:
        InvalidRequest: the amount is outside $5.00 .. $100,000.00.
    """
    if not MIN_TOP_UP <= amount <= MAX_TOP_UP:
        raise InvalidRequest(
            _("A top-up is between %(min)s and %(max)s.") % {"min": MIN_TOP_UP.display(), "max": MAX_TOP_UP.display()}
        )
    return _create_deposit(owner_id=owner.pk, kind=DepositKind.TOP_UP, requested_cents=amount.cents)


def _intent_issue(
    *,
    owner: AbstractBaseUser,
    usd: Usd,
    asset: str,
    network: str,
    order: Order | None,
    deposit: Deposit | None,
    now: datetime,
) -> PaymentIntent:
    pair = pair_get(asset, network)
    rate = current_rate(pair.asset, now=now)  # refuses a stale rate before anything is written
    amount_units = quote_units(usd, rate.usd_per_unit, pair)
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
        address=allocation.address,
        memo=allocation.memo,
        expires_at=now + timedelta(minutes=settings.PAYMENTS_INTENT_TTL_MINUTES),
    )


def intent_issue_for_order(
    *, order: Order, owner: AbstractBaseUser, asset: str, network: str, now: datetime | None = None
) -> PaymentIntent:
    """Payment instructions for what the order still needs: its total minus the balance already there.

    Each call makes a new intent at the current rate ("new instructions"); earlier ones stay as they were.

    Raises:
        UnsupportedPair, RateUnavailable, NoReceivingAddress: nothing is written.
        NothingToPay: the order is not awaiting payment, or the balance already covers it.
    """
    now = now or timezone.now()
    with transaction.atomic():
        locked = Order.objects.select_for_update().get(pk=order.pk)
        if locked.payment_status != PaymentStatus.AWAITING_PAYMENT:
            raise NothingToPay(_("This order is not waiting for a payment."))
        due = locked.total - balance_for(owner)
        if due.cents <= 0:
            raise NothingToPay(_("Your balance already covers this order: pay it from the balance."))
        return _intent_issue(owner=owner, usd=due, asset=asset, network=network, order=locked, deposit=None, now=now)


def intent_issue_for_deposit(
    *, deposit: Deposit, owner: AbstractBaseUser, asset: str, network: str, now: datetime | None = None
) -> PaymentIntent:
    """Payment instructions for a top-up.

    Raises:
        UnsupportedPair, RateUnavailable, NoReceivingAddress: nothing is written.
        NothingToPay: the top-up was already credited or cancelled.
    """
    now = now or timezone.now()
    with transaction.atomic():
        locked = Deposit.objects.select_for_update().get(pk=deposit.pk)
        if locked.status != DepositStatus.PENDING or locked.requested_cents is None:
            raise NothingToPay(_("This top-up is not waiting for a payment."))
        usd = Usd(locked.requested_cents)
        return _intent_issue(owner=owner, usd=usd, asset=asset, network=network, order=None, deposit=locked, now=now)


def intent_report(*, intent: PaymentIntent, now: datetime | None = None) -> PaymentIntent:
    """The customer says they sent the payment of this intent. Recorded once; moves no money.

    Allowed on any intent, expired ones included (the customer may have paid it). While a report awaits
    verification, the order keeps its lots (its reservation is extended).
    """
    now = now or timezone.now()
    with transaction.atomic():
        first = PaymentIntent.objects.filter(pk=intent.pk, reported_at__isnull=True).update(reported_at=now)
        intent.refresh_from_db()
        if first:
            _tell_operators(intent)
        if intent.order_id is not None and intent.status in (IntentStatus.AWAITING_PAYMENT, IntentStatus.EXPIRED):
            hold = timedelta(hours=settings.PAYMENTS_REPORT_HOLD_HOURS)
            order_extend_reservation(order_id=intent.order_id, until=now + hold)
    return intent


def _operator_emails() -> list[str]:
    if settings.OPERATOR_EMAILS:
        return list(settings.OPERATOR_EMAILS)
    staff = get_user_model().objects.filter(is_active=True, is_staff=True, groups__name="payments")
    return sorted(set(staff.values_list("email", flat=True)))


def _tell_operators(intent: PaymentIntent) -> None:
    """Email the payments operators that a customer reports a payment (once per intent and operator)."""
    pair = pair_get(intent.asset, intent.network)
    target = f"order {intent.order.ref}" if intent.order else f"top-up {intent.deposit.ref if intent.deposit else ''}"
    url = settings.SITE_URL.rstrip("/") + "/backoffice/backoffice/paymentsdesk/"
    for address in _operator_emails():
        email_queue(
            key=f"payment-reported:{intent.pk}:{address}",
            to=address,
            template="payment_reported",
            language=settings.LANGUAGE_CODE,  # operators read the back office's language
            context={
                "intent": intent,
                "pair": pair,
                "amount": format_units(intent.amount_units, pair),
                "target": target,
                "url": url,
            },
        )


def order_pay_from_balance(*, order: Order, owner: AbstractBaseUser) -> Order:
    """Pay the order's total from the balance: one debit `order:<ref>`, then the order is paid.

    Raises:
        InsufficientBalance: the balance does not cover the total (nothing changes).
        TransitionNotAllowed: the order is not awaiting payment (paid already, expired or cancelled).
    """
    with transaction.atomic():
        locked = Order.objects.select_for_update().get(pk=order.pk)
        if locked.payment_status != PaymentStatus.AWAITING_PAYMENT:
            raise TransitionNotAllowed(_("This order is not waiting for a payment."))
        transfer_post(
            reference=f"order:{locked.ref}",
            debit=customer_account(owner),
            credit=system_account(REVENUE_RENTALS),
            amount=locked.total,
            memo=f"{locked.lots} × {locked.gpu.name}, {locked.term_days} days",
        )
        paid = order_transition(order=locked, track=Track.PAYMENT, to=PaymentStatus.PAID, actor=owner)
        transaction.on_commit(lambda: provision_paid_order.enqueue(paid.pk))
        return paid


def payment_credit(*, intent: PaymentIntent, credit: Usd, kind: DepositKind, now: datetime) -> Deposit:
    """Credit a verified payment of `intent` to its owner's balance, once, as a deposit; then, for an order's
    intent, pay the order from the balance in the same transaction if the balance now covers it.

    Call inside the verifying transaction, with the intent locked. A top-up's first payment credits the
    top-up itself; any other payment gets a deposit of its own, so each is credited exactly once under its
    own `deposit:<ref>`.
    """
    # Lock the top-up and read its status under the lock: two of its intents confirmed at once must not both
    # take it (the second would collide on `deposit:<ref>`); the second gets a deposit of its own.
    deposit = Deposit.objects.select_for_update().filter(pk=intent.deposit_id).first() if intent.deposit_id else None
    if deposit is None or deposit.status != DepositStatus.PENDING or kind != DepositKind.TOP_UP:
        deposit = _create_deposit(owner_id=intent.owner_id, kind=kind)
    owner = intent.owner
    if credit.cents > 0:
        transfer_post(
            reference=f"deposit:{deposit.ref}",
            debit=system_account(EXTERNAL_CRYPTO),
            credit=customer_account(owner),
            amount=credit,
            memo=f"{intent.asset} on {intent.network}, intent {intent.pk}",
        )
    Deposit.objects.filter(pk=deposit.pk).update(
        status=DepositStatus.CREDITED, credited_cents=credit.cents, credited_at=now
    )
    deposit.refresh_from_db()
    if intent.order_id is not None:
        order = Order.objects.select_for_update().get(pk=intent.order_id)
        if order.payment_status == PaymentStatus.AWAITING_PAYMENT and balance_for(owner) >= order.total:
            order_pay_from_balance(order=order, owner=owner)
    return deposit

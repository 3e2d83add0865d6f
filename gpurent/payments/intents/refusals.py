"""Why a request for payment instructions or a new top-up would be refused, or None: one function per rule.

The services raise what these return with the rows locked (so concurrent requests count in turn), and the
pages show the same message instead of a button or a form that would be refused (decisions 0310, 0320,
0335, 0336). Reads only: nothing here writes.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Count, Q, QuerySet
from django.utils.translation import gettext as _

from gpurent.core.errors import ApplicationError

from ..errors import IntentLimitReached, NothingToPay, TooManyOpenIntents, TooManyPendingTopUps
from ..models import Deposit, DepositKind, DepositStatus, IntentStatus, PaymentIntent

__all__ = [
    "intent_refusal",
    "top_up_lapsed",
    "top_up_refusal",
    "top_up_window_start",
    "top_ups_refusal",
    "top_ups_refusal_at",
]


def top_up_window_start(now: datetime) -> datetime:
    """Top-ups made at or before this moment take no new payment instructions and no longer count as unpaid."""
    return now - timedelta(hours=settings.PAYMENTS_TOP_UP_HOURS)


def top_ups_refusal(owner_id: int, *, now: datetime) -> TooManyPendingTopUps | None:
    """Why the account may not start a new top-up now, or None: it has `PAYMENTS_MAX_PENDING_TOP_UPS` pending
    top-ups made in the last `PAYMENTS_TOP_UP_HOURS` (decision 0320). The one rule: `deposit_create` raises
    it under the owner's row lock, the balance page shows it instead of the top-up form. Counted up to the
    limit (`LIMIT` in a subquery), so its cost stays bounded however many top-ups the account has."""
    limit = settings.PAYMENTS_MAX_PENDING_TOP_UPS
    pending = Deposit.objects.filter(
        owner_id=owner_id,
        kind=DepositKind.TOP_UP,
        status=DepositStatus.PENDING,
        created_at__gt=top_up_window_start(now),
    )
    return top_ups_refusal_at(pending[:limit].count())


def top_ups_refusal_at(pending: int) -> TooManyPendingTopUps | None:
    """`top_ups_refusal` for an account with `pending` such top-ups (the balance page counts them in its one
    statement of figures, `balance.figures.balance_page_figures`)."""
    if pending < settings.PAYMENTS_MAX_PENDING_TOP_UPS:
        return None
    return TooManyPendingTopUps(
        _(
            "You already have as many unpaid top-ups as an account may have at once. Pay one of them (their "
            "instructions are on your balance page), or start a new one later: an unpaid top-up stops counting "
            "%(hours)s hours after it was made."
        )
        % {"hours": settings.PAYMENTS_TOP_UP_HOURS}
    )


def _never_prepared(live: Q) -> Q:
    """Intents the payment processor never gave an address: routed through it (`processor` set), no invoice
    stored, and no longer open (its invoice call failed and closed it, or the request was interrupted and the
    quote expired). Nothing can be paid to them: no address was shown and no webhook can match them."""
    return ~Q(processor="") & Q(processor_invoice_id="") & ~live


def intent_refusal(intents: QuerySet[PaymentIntent], *, now: datetime, what: str) -> ApplicationError | None:
    """Why new instructions would be refused, or None: past `PAYMENTS_MAX_OPEN_INTENTS` open ones or
    `PAYMENTS_MAX_INTENTS` in all (decision 0310), where intents the payment processor never prepared do not
    count (the customer did not cause them), but every intent counts towards `PAYMENTS_MAX_INTENT_ROWS`, so the
    list stays bounded during a processor outage (decision 0336). The one rule: the services raise it with the
    order's or the top-up's row locked (concurrent requests count in turn), the pages show it instead of the
    button. One statement, over at most `PAYMENTS_MAX_INTENT_ROWS` rows."""
    live = Q(status=IntentStatus.AWAITING_PAYMENT, expires_at__gt=now)
    counts = intents.aggregate(
        total=Count("pk"), open=Count("pk", filter=live), never_prepared=Count("pk", filter=_never_prepared(live))
    )
    if counts["open"] >= settings.PAYMENTS_MAX_OPEN_INTENTS:
        return TooManyOpenIntents()
    if counts["total"] - counts["never_prepared"] >= settings.PAYMENTS_MAX_INTENTS:
        return _intent_limit_reached(what)
    if counts["total"] >= settings.PAYMENTS_MAX_INTENT_ROWS:
        return _intent_rows_reached(what)
    return None


def _intent_limit_reached(what: str) -> IntentLimitReached:
    """`PAYMENTS_MAX_INTENTS` instructions the customer could use: the way out is to pay one of them, or to pay
    another way (decision 0310)."""
    if what == "order":
        return IntentLimitReached(
            _(
                "This order already has as many payment instructions as we give for one order. Pay one of "
                "those shown (you can report a payment on an expired one too), or top up your balance and pay "
                "the order from it."
            )
        )
    return IntentLimitReached(
        _(
            "This top-up already has as many payment instructions as we give for one top-up. Pay one of "
            "those shown (you can report a payment on an expired one too), or start a new top-up."
        )
    )


def _intent_rows_reached(what: str) -> IntentLimitReached:
    """`PAYMENTS_MAX_INTENT_ROWS` intents, most of which the payment processor never prepared (decision 0336): the
    same code and way out as `_intent_limit_reached`, with the reason the customer can see in the list."""
    if what == "order":
        return IntentLimitReached(
            _(
                "We could not prepare payment instructions for this order too many times, so we give no more "
                "for it. Pay one of those shown, or top up your balance and pay the order from it."
            )
        )
    return IntentLimitReached(
        _(
            "We could not prepare payment instructions for this top-up too many times, so we give no more for "
            "it. Pay one of those shown, or start a new top-up."
        )
    )


def top_up_lapsed(deposit: Deposit, *, now: datetime) -> bool:
    """A pending top-up made `PAYMENTS_TOP_UP_HOURS` ago or more: it takes no new instructions and no longer
    counts as unpaid (decision 0320), while payments sent to its instructions are still credited. The lists
    show it as "Lapsed" from this (decision 0335), never from a stored flag, so they cannot disagree with the
    refusal of `intent_issue_for_deposit`, which raises `top_up_refusal` on the same test."""
    waiting = deposit.status == DepositStatus.PENDING and deposit.requested_cents is not None
    return waiting and deposit.created_at <= top_up_window_start(now)


def top_up_refusal(deposit: Deposit, *, now: datetime) -> ApplicationError | None:
    """Why a pending top-up would take no new instructions, or None: it has lapsed (`top_up_lapsed`,
    decision 0320), or it has as many intents as it may (`intent_refusal`)."""
    if top_up_lapsed(deposit, now=now):
        return NothingToPay(
            _(
                "This top-up is %(hours)s hours old or more and takes no new payment instructions: start a new "
                "top-up from your balance page. Payments sent to the instructions shown here are still credited to "
                "your balance."
            )
            % {"hours": settings.PAYMENTS_TOP_UP_HOURS}
        )
    return intent_refusal(PaymentIntent.objects.filter(deposit_id=deposit.pk), now=now, what="top-up")

"""The customer's balance asked to move: a top-up asked for, an order paid from the balance.

Money moves only through the ledger (`gpurent.ledger.services.transfer_post`): paying an order from the balance
posts `order:<ref>`; asking for a top-up moves nothing (only a confirmed payment credits it, in
`received/receive.py`). An intent's own writes (issued, reported, closed) are `intents/lifecycle.py`'s.
"""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from gpurent.core.errors import InvalidRequest
from gpurent.core.formats import usd_text
from gpurent.core.idempotency.keys import lock_row_with_running_key
from gpurent.core.locks import lock_rows
from gpurent.core.money import Usd
from gpurent.ledger.errors import InsufficientBalance
from gpurent.ledger.models import LedgerAccount
from gpurent.ledger.services import REVENUE_RENTALS, customer_account, system_account, transfer_post
from gpurent.orders.enums import PaymentStatus, Track
from gpurent.orders.models import Order
from gpurent.orders.provisioning import provision_paid_order
from gpurent.orders.services import order_lock_keys, order_transition

from .balance.figures import deposit_row_create, spendable_for_order
from .errors import NothingToPay
from .intents.refusals import top_ups_refusal
from .models import Deposit, DepositKind

__all__ = [
    "deposit_create",
    "order_pay_from_balance",
]

MIN_TOP_UP = Usd(500)
MAX_TOP_UP = Usd(10_000_000)


def deposit_create(*, owner: AbstractBaseUser, amount: Usd, now: datetime | None = None) -> Deposit:
    """Ask to top up the balance by `amount`. Adds nothing to the balance: only a confirmed payment does.

    The owner's user row is locked first (decision 0320, as placing an order, decision 0122), with the running
    idempotent request's key (decision 0295), and the account's unpaid top-ups are counted under it.

    Raises:
        InvalidRequest: the amount is outside $5.00 .. $100,000.00.
        TooManyPendingTopUps: the account has `PAYMENTS_MAX_PENDING_TOP_UPS` unpaid top-ups that still take
            instructions (nothing is written).
    """
    if not MIN_TOP_UP <= amount <= MAX_TOP_UP:
        raise InvalidRequest(
            _("A top-up is between %(min)s and %(max)s.") % {"min": usd_text(MIN_TOP_UP), "max": usd_text(MAX_TOP_UP)}
        )
    now = now or timezone.now()
    with transaction.atomic():
        # The first and only lock of this transaction: nothing of the money lock order is taken here.
        lock_row_with_running_key(get_user_model(), owner.pk)
        # A statement of its own, after the lock: it sees the top-ups committed by a request the lock waited for.
        refusal = top_ups_refusal(owner.pk, now=now)
        if refusal is None:
            return deposit_row_create(owner_id=owner.pk, kind=DepositKind.TOP_UP, requested_cents=amount.cents)
    # Raised once the block has ended without a rollback: inside an idempotent request this block is a savepoint,
    # and rolling it back would release the key's advisory lock taken with the row (`core.idempotency.keys._Running`).
    raise refusal


def order_pay_from_balance(*, order: Order, owner: AbstractBaseUser) -> Order:
    """Pay the order's total from the balance: one debit `order:<ref>`, then the order is paid.

    Raises:
        InsufficientBalance: the balance does not cover the total (nothing changes).
        NothingToPay: the order is not awaiting payment (paid already, expired or cancelled): the same refusal,
            with the same code, as payment instructions asked for it (`intent_issue_for_order`).
        TransitionNotAllowed: an extension whose rental's term ended before it was paid (`extension_apply`).
    """
    with transaction.atomic():
        lock_rows((Order, order_lock_keys(order)), (LedgerAccount, [customer_account(owner).pk]))
        locked = Order.objects.get(pk=order.pk)
        if locked.payment_status != PaymentStatus.AWAITING_PAYMENT:
            raise NothingToPay(_("This order is not waiting for a payment."))
        if spendable_for_order(locked) < locked.total:
            # Part of the balance is held for another order's open payment instructions.
            raise InsufficientBalance(_("Part of your balance is held for another order's open payment instructions."))
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

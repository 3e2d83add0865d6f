"""Every write to orders: placing, moving a status track, cancelling, expiring (DESIGN §4)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from gpurent.accounts.models import SshKey
from gpurent.catalog.pricing import quote_for
from gpurent.catalog.selectors import gpu_get
from gpurent.catalog.services import stock_release, stock_reserve
from gpurent.core.durability import commit_unflushed
from gpurent.core.emails import email_enqueue
from gpurent.core.errors import InvalidRequest, NotFound
from gpurent.core.idempotency.keys import lock_row_with_running_key
from gpurent.core.invisible import label_clean
from gpurent.core.locks import lock_rows
from gpurent.core.models import relations_known_empty
from gpurent.core.references import new_reference

from .enums import Environment, PaymentStatus, ProvisioningStatus, Track
from .errors import CancelNeedsConfirmation, OutOfStock, TooManyUnpaidOrders, TransitionNotAllowed
from .history_notes import CANCELLED_BY_CUSTOMER, DEADLINE_PASSED
from .models import Order, OrderSshKey, OrderStatusChange
from .notifications import order_notify
from .payments_port import payments
from .transitions import is_allowed

__all__ = [
    "Contact",
    "extension_apply",
    "order_cancel",
    "order_cancel_warning",
    "order_extend_reservation",
    "order_lock_keys",
    "order_place",
    "order_transition",
    "orders_expire_due",
    "rental_running",
]

# The customer's emails that a transition queues (sent once, after commit).
_NOTIFY: dict[tuple[str, str], str] = {
    (Track.PAYMENT, PaymentStatus.PAID): "paid",
    (Track.PAYMENT, PaymentStatus.CANCELLED): "cancelled",
    (Track.PROVISIONING, ProvisioningStatus.READY): "ready",
    (Track.PROVISIONING, ProvisioningStatus.ENDED): "ended",
}

# Statuses after which the order's lots are back in stock.
_RELEASING = {
    (Track.PAYMENT, PaymentStatus.EXPIRED),
    (Track.PAYMENT, PaymentStatus.CANCELLED),
    (Track.PROVISIONING, ProvisioningStatus.ENDED),
    (Track.PROVISIONING, ProvisioningStatus.FAILED),
}


def order_cancel_warning(order: Order) -> str:
    """What the customer must confirm before cancelling `order` ("" when there is nothing to confirm): what
    happens to money already sent for it, which payments knows (`payments_port`)."""
    return payments().order_cancel_warning(order)


@dataclass(frozen=True, slots=True)
class Contact:
    """Who to contact about an order; prefilled from the account, editable at checkout."""

    first_name: str
    last_name: str
    email: str


def _validated_environment(environment: str, note: str) -> tuple[str, str]:
    if environment not in Environment.values:
        raise InvalidRequest(_("Choose an environment: Ubuntu, PyTorch, Blender or Other."))
    note = note.strip()
    if environment == Environment.OTHER and not note:
        raise InvalidRequest(_("Describe the environment you need."))
    if len(note) > 200:
        raise InvalidRequest(_("Keep the environment description under 200 characters."))
    return environment, note if environment == Environment.OTHER else ""


def order_place(
    *,
    owner: AbstractBaseUser,
    gpu_slug: str,
    term_days: int,
    lots: int,
    environment: str,
    environment_note: str = "",
    contact: Contact,
    ssh_keys: Sequence[SshKey] = (),
    before_reserve: Callable[[Order], object] | None = None,
    savepoint: bool = True,
) -> Order:
    """Place an order and reserve its lots, atomically; `ssh_keys` (the owner's) are copied onto it.

    The lots leave stock in the same transaction that creates the order, through a conditional UPDATE, so two
    customers can never buy the same last lot; if there are too few, the whole transaction rolls back.
    The order waits for payment until `reserved_until`.

    The GPU's stock row is the one every buyer contends for; its lock is held from the reserving UPDATE to
    COMMIT, so that UPDATE is the transaction's last statement: the order, its history and its email are
    written first, and `before_reserve(order)` (e.g. storing the idempotent response) runs just before it.
    That COMMIT does not wait for the disk; the order is flushed right after it (decision 0250).

    `savepoint=False`: inside the caller's transaction without a savepoint of its own; any failure (out of
    stock too) aborts the caller's transaction, which must roll back (an idempotent request's action).

    Raises:
        NotFound: no GPU model on sale with that slug.
        InvalidRequest: term, lots, environment or contact are invalid.
        OutOfStock: fewer than `lots` lots are in stock.
        TooManyUnpaidOrders: the owner already has `ORDERS_MAX_UNPAID_PER_ACCOUNT` orders awaiting payment
            (counted under the owner's row lock, in the placement's transaction: decision 0122).
    """
    try:
        gpu = gpu_get(gpu_slug)
    except NotFound:
        raise InvalidRequest(_("This GPU model is not on sale.")) from None
    quote = quote_for(gpu, term_days=term_days, lots=lots)
    environment, environment_note = _validated_environment(environment, environment_note)
    # The contact's names are labels the back office lists: no bidirectional or zero-width characters.
    contact = Contact(label_clean(contact.first_name), label_clean(contact.last_name), contact.email.strip())
    if not (contact.first_name and contact.last_name and contact.email):
        raise InvalidRequest(_("A contact first name, last name and email are required."))
    now = timezone.now()
    fields = {
        "owner": owner,
        "gpu": gpu,
        "term_days": quote.term.value,
        "lots": lots,
        "cards": quote.cards,
        "environment": environment,
        "environment_note": environment_note,
        "lot_price_cents": quote.lot_price.cents,
        "total_cents": quote.total.cents,
        "contact_first_name": contact.first_name,
        "contact_last_name": contact.last_name,
        "contact_email": contact.email,
        "reserved_until": now + timedelta(hours=settings.ORDER_PAYMENT_WINDOW_HOURS),
    }
    # 40 random bits make a clash of references very unlikely; the unique index makes it impossible, and the
    # whole placement is retried with a new reference, in a savepoint. With `savepoint=False` (an idempotent
    # request's action, two round trips fewer) a clash aborts the caller's transaction, and the caller runs it
    # again (`run_idempotent_unclaimed` does, once, claimed; decision 0250).
    for _attempt in range(5):
        ref = new_reference("R")
        try:
            with transaction.atomic(savepoint=savepoint):
                _unpaid_limit_check(owner.pk)
                return _place(Order(ref=ref, **fields), ssh_keys, before_reserve)
        except IntegrityError:
            if not savepoint or not Order.objects.filter(ref=ref).exists():
                raise
    raise RuntimeError("could not find a free order reference")


def _unpaid_limit_check(owner_id: int) -> None:
    """Refuse a new order when the account already has `ORDERS_MAX_UNPAID_PER_ACCOUNT` awaiting payment.

    The owner's user row is locked first (held to COMMIT), so two placements of one account at once count one
    after the other and the second sees the first's order: the limit cannot be overrun by a burst. Only this
    account's placements wait on it (support and e-mail changes lock the same row for their own per-account
    limits, never together with an order or money lock). In an idempotent request the same statement locks its
    key: a retry while the first placement runs answers 409 instead of waiting here (decision 0295).
    """
    lock_row_with_running_key(get_user_model(), owner_id)
    limit = settings.ORDERS_MAX_UNPAID_PER_ACCOUNT
    # A statement of its own, after the lock, never merged into it: the count must see the orders committed by the
    # placement the lock waited for, and on PostgreSQL a statement sees only what had committed when it started.
    # Counted up to the limit (a LIMIT subquery), so its cost stays bounded however many orders await payment.
    unpaid = Order.objects.filter(owner_id=owner_id, payment_status=PaymentStatus.AWAITING_PAYMENT)[:limit].count()
    if unpaid >= limit:
        raise TooManyUnpaidOrders()


def _create_with_unique_ref(**fields: object) -> Order:
    """An order with a fresh reference, retried in a savepoint on a clash (used by extensions)."""
    for _attempt in range(5):
        try:
            with transaction.atomic():
                return Order.objects.create(ref=new_reference("R"), **fields)
        except IntegrityError:
            continue
    raise RuntimeError("could not find a free order reference")


def _place(order: Order, ssh_keys: Sequence[SshKey], before_reserve: Callable[[Order], object] | None) -> Order:
    order.save(force_insert=True)
    OrderStatusChange.objects.bulk_create(
        [
            OrderStatusChange(order=order, track=track, to_status=status, actor_id=order.owner_id)
            for track, status in [
                (Track.PAYMENT, order.payment_status),
                (Track.PROVISIONING, order.provisioning_status),
            ]
        ]
    )
    OrderSshKey.objects.bulk_create(
        [
            OrderSshKey(order=order, name=key.name, public_key=key.public_key, fingerprint=key.fingerprint)
            for key in ssh_keys
            if key.user_id == order.owner_id
        ]
    )
    relations_known_empty(order, but=("status_changes", "ssh_keys"))  # a new order: reading them costs no query
    email = order_notify(order, "placed", new=True, enqueue=False)
    if before_reserve is not None:
        before_reserve(order)
    # COMMIT does not wait for the disk, so the stock row's lock is not held through a WAL flush; right after
    # it, the email's delivery task is written with a flushed commit that makes the order durable before the
    # request answers (decision 0250).
    commit_unflushed(then=partial(email_enqueue, email) if email is not None else lambda: None)
    # Last: the lock on the GPU's row is held from this UPDATE to COMMIT (decision 0180).
    if not stock_reserve(gpu_id=order.gpu_id, lots=order.lots):
        raise OutOfStock()
    return order


def order_transition(
    *,
    order: Order,
    track: Track,
    to: str,
    actor: AbstractBaseUser | None = None,
    reason: str = "",
    now: datetime | None = None,
) -> Order:
    """Move one status track of `order` to `to`, as the transition table allows, and record the change.

    Side effects in the same transaction: lots go back to stock when the order expires, is cancelled, fails
    or ends; `paid_at` is set when paid; the term starts when access becomes ready.

    Raises:
        TransitionNotAllowed: the table does not allow it, or provisioning would start on an unpaid order.
    """
    now = now or timezone.now()
    with transaction.atomic():
        # An extension's payment moves its rental's term end: both orders, by key (docs/money.md).
        lock_rows((Order, order_lock_keys(order)))
        locked = Order.objects.get(pk=order.pk)
        field = "payment_status" if track == Track.PAYMENT else "provisioning_status"
        current = getattr(locked, field)
        if not is_allowed(track, current, to):
            raise TransitionNotAllowed()
        if track == Track.PROVISIONING and locked.payment_status != PaymentStatus.PAID:
            raise TransitionNotAllowed(_("Provisioning starts only once the order is paid."))
        setattr(locked, field, to)
        update_fields = [field, "updated_at"]
        if (track, to) == (Track.PAYMENT, PaymentStatus.PAID):
            locked.paid_at = now
            update_fields.append("paid_at")
            if locked.extends_id is not None:
                extension_apply(locked, now=now)
        if (track, to) == (Track.PROVISIONING, ProvisioningStatus.READY):
            # A term is exactly term_days × 24 h from the moment access is ready: no calendar arithmetic.
            locked.term_starts_at = now
            locked.term_ends_at = now + timedelta(days=locked.term_days)
            update_fields += ["term_starts_at", "term_ends_at"]
        locked.save(update_fields=update_fields)
        OrderStatusChange.objects.create(
            order=locked,
            track=track,
            from_status=current,
            to_status=to,
            actor_id=actor.pk if actor is not None else None,
            reason=reason,
        )
        # An extension reserved no lots (its rental holds them), so it releases none; GPUs held on a host return
        # to stock once their access is revoked there (gpurent.hosts.placement.allocation_release).
        if (track, to) in _RELEASING and locked.extends_id is None and not locked.lots_held_by_host:
            stock_release(gpu_id=locked.gpu_id, lots=locked.lots)
        if track == Track.PAYMENT:
            # The order no longer waits for payment (paid, cancelled, expired): its open intents close.
            payments().order_intents_close(locked)
        if (track, to) == (Track.PAYMENT, PaymentStatus.PAID) and locked.extends_id is not None:
            order_notify(locked, "extended")
        elif (track, to) in _NOTIFY:
            order_notify(locked, _NOTIFY[(track, to)])
    return locked


def order_lock_keys(order: Order) -> list[int]:
    """The orders a money transaction about `order` locks, for `lock_rows((Order, ...))`: the order, and for
    an extension its rental too (paying it moves the rental's term end). `lock_rows` takes them by primary
    key, so the rental, made first, is always locked before its extensions (docs/money.md)."""
    return [order.pk] + ([order.extends_id] if order.extends_id is not None else [])


def rental_running(rental: Order, now: datetime) -> bool:
    """Whether `rental`'s term runs at `now` (access ready, end not reached)."""
    return (
        rental.provisioning_status == ProvisioningStatus.READY
        and rental.term_ends_at is not None
        and now < rental.term_ends_at
    )


def extension_apply(extension: Order, *, now: datetime) -> Order:
    """Move the rental's term end by the extension's days, when the extension becomes paid (see
    `extensions.py`). The caller has locked both orders through `lock_rows` (`order_lock_keys`: the rental
    first, by key); locking the rental here re-takes a lock already held.

    Raises:
        TransitionNotAllowed: the rental's term is over (then the extension cannot be paid).
    """
    lock_rows((Order, [extension.extends_id]))
    rental = Order.objects.get(pk=extension.extends_id or 0)
    if not rental_running(rental, now) or rental.term_ends_at is None:
        raise TransitionNotAllowed(_("The rental's term ended before this extension was paid."))
    rental.term_ends_at += timedelta(days=extension.term_days)
    rental.save(update_fields=["term_ends_at", "updated_at"])
    return rental


def order_extend_reservation(*, order_id: int, until: datetime) -> None:
    """Keep an unpaid order's lots at least until `until` (a reported payment is being verified)."""
    Order.objects.filter(pk=order_id, payment_status=PaymentStatus.AWAITING_PAYMENT, reserved_until__lt=until).update(
        reserved_until=until
    )


def order_cancel(*, order: Order, actor: AbstractBaseUser, confirmed: bool = False) -> Order:
    """The customer cancels an unpaid order; its lots go back to stock.

    Raises:
        TransitionNotAllowed: the order is no longer awaiting payment.
        CancelNeedsConfirmation: a payment was reported or received for the order and `confirmed` is False
            (the message says what happens to the money); nothing changes.
    """
    warning = order_cancel_warning(order) if order.payment_status == PaymentStatus.AWAITING_PAYMENT else ""
    if warning and not confirmed:
        raise CancelNeedsConfirmation(warning)
    return order_transition(
        order=order, track=Track.PAYMENT, to=PaymentStatus.CANCELLED, actor=actor, reason=CANCELLED_BY_CUSTOMER
    )


def orders_expire_due(*, now: datetime | None = None) -> int:
    """Expire every unpaid order whose payment deadline has passed and return its lots to stock.

    Idempotent and safe to run from several machines at once: each order is locked with SKIP LOCKED on
    PostgreSQL (another sweeper already has it) and re-checked under the lock, so an order expires once.
    Returns how many orders this call expired.
    """
    now = now or timezone.now()
    due = list(
        Order.objects.filter(payment_status=PaymentStatus.AWAITING_PAYMENT, reserved_until__lte=now).values_list(
            "pk", flat=True
        )
    )
    expired = 0
    for pk in due:
        with transaction.atomic():
            order = (
                Order.objects.select_for_update(skip_locked=True)
                .filter(pk=pk, payment_status=PaymentStatus.AWAITING_PAYMENT, reserved_until__lte=now)
                .first()
            )
            if order is None:
                continue
            order_transition(
                order=order, track=Track.PAYMENT, to=PaymentStatus.EXPIRED, reason=DEADLINE_PASSED, now=now
            )
            expired += 1
    return expired

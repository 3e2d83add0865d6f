"""Renewals: during a term the customer extends the same machine and lots by 3, 7 or 30 days.

An extension is an order of its own, linked to the rental (`Order.extends`), priced at the GPU's current lot
price and paid like any order (crypto or balance). It reserves no stock: the rental holds the lots. When it
is paid, the rental's term end moves by exactly `term_days` × 24 h in the same transaction
(`services.extension_apply`, called by `order_transition`), so the sweep never sees the old end and no lot returns to
stock in between. Its payment deadline is the rental's term end: unpaid then, it expires and the term ends
as it would have. Locks: paying it locks the rental and the extension together through `lock_rows`, by
key (`services.order_lock_keys`): the rental first, as the money lock order says (docs/money.md).

A rental has at most `ORDERS_MAX_EXTENSIONS_PER_RENTAL` extensions in all, whatever became of them: each one is
listed with the rental (its page, its API answer, each page of `GET /api/v1/orders`), so the lists stay bounded
(decision 0353). Placing one counts them under the rental's row lock, as the unpaid-extension check does.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from gpurent.catalog.enums import Term
from gpurent.core.errors import ApplicationError, Conflict, InvalidRequest, NotFound
from gpurent.core.locks import lock_rows

from .enums import PaymentStatus, Track
from .history_notes import extends_note
from .models import Order, OrderStatusChange
from .notifications import order_notify
from .services import _create_with_unique_ref, rental_running

__all__ = ["ExtensionPending", "RentalNotRunning", "TooManyExtensions", "extension_payable", "order_extension_place"]


class ExtensionPending(Conflict):
    code = "extension_pending"
    default_message = gettext_lazy("This rental already has an unpaid extension: pay it or cancel it first.")


class RentalNotRunning(Conflict):
    """The order's state refuses an extension: its term has not started (or it failed), it has ended, or the order
    is itself an extension. 409 like `extension_pending` and `too_many_extensions`: the request is well formed, the
    rental's state refuses it. Not replayed: nothing was written."""

    code = "rental_not_running"
    replayable = False
    default_message = gettext_lazy("A rental can be extended only while its term runs.")


def _not_running(rental: Order, now: datetime) -> RentalNotRunning:
    """The refusal for a rental that is not running, saying what the customer can do instead."""
    if rental.is_extension:
        return RentalNotRunning(_("This order is an extension: extend the rental it belongs to instead."))
    if rental.term_ends_at is not None and rental.term_ends_at <= now:
        return RentalNotRunning(
            _("This rental's term has ended, so it can no longer be extended. To rent again, place a new order.")
        )
    return RentalNotRunning()


class TooManyExtensions(ApplicationError):
    """The rental already has `ORDERS_MAX_EXTENSIONS_PER_RENTAL` extensions: 409 like `too_many_runs` (the request
    is well formed, the rental's state refuses it; decision 0353). Not replayed: nothing was written."""

    code = "too_many_extensions"
    status = 409
    replayable = False

    def __init__(self, limit: int) -> None:
        super().__init__(
            ngettext(
                "This rental has %(limit)s extension, the most one rental can have (cancelled and lapsed ones "
                "count too). To rent on after its term, place a new order from the catalog.",
                "This rental has %(limit)s extensions, the most one rental can have (cancelled and lapsed ones "
                "count too). To rent on after its term, place a new order from the catalog.",
                limit,
            )
            % {"limit": limit}
        )


def order_extension_place(
    *, rental: Order, owner: AbstractBaseUser, term_days: int, now: datetime | None = None
) -> Order:
    """Place an extension of `rental` for `term_days` more days, at the current price of one lot × its lots.

    Raises:
        InvalidRequest: not a fixed term.
        NotFound: the rental is another customer's.
        RentalNotRunning: the rental's term is not running (not started, ended, failed), or it is itself an
            extension.
        TooManyExtensions: the rental already has `ORDERS_MAX_EXTENSIONS_PER_RENTAL` extensions (any status).
        ExtensionPending: an earlier extension of this rental is still unpaid.
    """
    now = now or timezone.now()
    if term_days not in Term.values:
        raise InvalidRequest(_("Extend by 3, 7 or 30 days."))
    with transaction.atomic():
        lock_rows((Order, [rental.pk]))  # the rental only, not its GPU's row (docs/money.md)
        locked = Order.objects.select_related("gpu").get(pk=rental.pk)
        if locked.owner_id != owner.pk:
            raise NotFound()
        if locked.is_extension or not rental_running(locked, now):
            raise _not_running(locked, now)
        # Counted under the rental's lock (up to the limit only): two placed at once count one after the other.
        limit = settings.ORDERS_MAX_EXTENSIONS_PER_RENTAL
        if locked.extensions.all()[:limit].count() >= limit:
            raise TooManyExtensions(limit)
        if locked.extensions.filter(payment_status=PaymentStatus.AWAITING_PAYMENT, reserved_until__gt=now).exists():
            raise ExtensionPending()
        lot_price = locked.gpu.lot_price(term_days)
        assert locked.term_ends_at is not None  # noqa: S101 (checked by _running)
        window_end = now + timedelta(hours=settings.ORDER_PAYMENT_WINDOW_HOURS)
        extension = _create_with_unique_ref(
            owner_id=locked.owner_id,
            gpu=locked.gpu,
            term_days=term_days,
            lots=locked.lots,
            cards=locked.cards,
            environment=locked.environment,
            environment_note=locked.environment_note,
            lot_price_cents=lot_price.cents,
            total_cents=lot_price.cents * locked.lots,
            contact_first_name=locked.contact_first_name,
            contact_last_name=locked.contact_last_name,
            contact_email=locked.contact_email,
            reserved_until=min(window_end, locked.term_ends_at),
            extends=locked,
        )
        OrderStatusChange.objects.create(
            order=extension,
            track=Track.PAYMENT,
            to_status=extension.payment_status,
            actor_id=owner.pk,
            reason=extends_note(locked.ref),
        )
        order_notify(extension, "extension_placed", new=True)
    return extension


def extension_payable(extension: Order, *, now: datetime | None = None) -> bool:
    """Whether paying `extension` now would extend its rental (the rental's term still runs)."""
    if extension.extends_id is None:
        return True
    rental = Order.objects.only("provisioning_status", "term_ends_at").get(pk=extension.extends_id)
    return rental_running(rental, now or timezone.now())

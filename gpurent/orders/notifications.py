"""Emails about an order to its contact: queued in the transaction of the change, sent once after commit."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from gpurent.core.emails import email_queue
from gpurent.core.formats import date_text, usd_text
from gpurent.core.models import OutboundEmail
from gpurent.core.money import Usd

from .files_after_term import files_after_term_text
from .models import Order

__all__ = ["email_key", "order_notify"]


def email_key(event: str, ref: str) -> str:
    """The outbox key of an order's email: one email per order and event."""
    return f"order-{event}:{ref}"


def _order_url(order: Order) -> str:
    return settings.SITE_URL.rstrip("/") + reverse("orders:rental", args=[order.ref])


def _access_corrected_texts(order: Order, changed: Sequence[str]) -> tuple[str, list[str]]:
    """A Ready rental's access details were corrected at the desk (`access_correction.access_correct`): what changed,
    by name only (the details are shown on the order page, to its owner only, decision 0026), and the term's end,
    which did not move."""
    names = {
        "host": _("the SSH host"),
        "port": _("the SSH port"),
        "user": _("the SSH user"),
        "login": _("the way to log in"),
        "jupyter": _("the Jupyter URL"),
    }
    paragraphs = [
        _("We corrected the access details of your machine: %(changed)s. The new details are on your order page.")
        % {"changed": ", ".join(str(names[name]) for name in changed if name in names)}
    ]
    if "password" in changed:
        paragraphs.append(_("A new one-time password was set: show it on your order page. It is shown once."))
    end = date_text(order.term_ends_at, time=True, zone=True)
    paragraphs.append(_("Your term is unchanged: it runs until %(end)s.") % {"end": end})
    return _("Order %(ref)s: your access details were corrected") % {"ref": order.ref}, paragraphs


def _texts(order: Order, event: str, amount: Usd | None, changed: Sequence[str] = ()) -> tuple[str, list[str]]:
    """The subject and paragraphs of `event`'s email, in the active language. Each event's texts are made only
    when asked for (one `gettext` and format per sentence of that event, not of all eight)."""
    ref = order.ref
    # Dates as the recipient's language writes them (decision 0445): "5 dic 2026, 14:00 UTC".
    end = date_text(order.term_ends_at, time=True, zone=True)
    texts: dict[str, Callable[[], tuple[str, list[str]]]] = {
        "placed": lambda: (
            _("Order %(ref)s placed: your lots are reserved") % {"ref": ref},
            [
                # The rental term and the reservation's deadline in sentences of their own: "reserved ... for 7
                # days" read as a 7-day hold, while the reservation lasts until the payment deadline (24 h).
                ngettext(
                    "You ordered %(lots)d lot of %(gpu)s for a rental term of %(days)d days. Total: %(total)s.",
                    "You ordered %(lots)d lots of %(gpu)s for a rental term of %(days)d days. Total: %(total)s.",
                    order.lots,
                )
                % {"lots": order.lots, "gpu": order.gpu.name, "days": order.term_days, "total": usd_text(order.total)},
                _(
                    "We keep the lots reserved for you until %(deadline)s UTC. Pay before then, or the reservation "
                    "lapses and the lots return to stock."
                )
                % {"deadline": date_text(order.reserved_until, time=True)},
                _("The term starts when your machine is ready, not when you order or pay."),
            ],
        ),
        "paid": lambda: (
            _("Order %(ref)s is paid") % {"ref": ref},
            [_("Thank you. We are preparing your machine; you will get an email when access is ready.")],
        ),
        "cancelled": lambda: (
            _("Order %(ref)s was cancelled") % {"ref": ref},
            [
                _("The order was cancelled and its lots were released. The order was not charged."),
                _("Any payment received for it is credited to your balance, where you can use it for another order."),
            ],
        ),
        "ready": lambda: (
            _("Order %(ref)s: your machine is ready") % {"ref": ref},
            [
                _("Access details are on your order page. Your term runs until %(end)s.") % {"end": end},
                _("Stopping the machine does not pause or extend the term."),
            ],
        ),
        "ending": lambda: (
            _("Order %(ref)s ends in 24 hours") % {"ref": ref},
            [
                _("Your term ends at %(end)s. Copy your results and checkpoints off the machine before then.")
                % {"end": end},
                _(
                    "To keep the same machine, extend the term by 3, 7 or 30 days from your order page before it "
                    "ends: %(url)s"
                )
                % {"url": _order_url(order) + "#extend"},
            ],
        ),
        "extension_placed": lambda: _extension_placed_texts(order),
        "access_corrected": lambda: _access_corrected_texts(order, changed),
        "extended": lambda: (
            _("Order %(ref)s is paid: your rental is extended") % {"ref": ref},
            [
                _("Thank you. Rental %(rental)s now runs %(days)d days longer, on the same machine.")
                % {"rental": order.extends.ref if order.extends else "", "days": order.term_days},
            ],
        ),
        "ended": lambda: (
            _("Order %(ref)s has ended") % {"ref": ref},
            [
                _("Your term is over and access is closed. Thank you for renting with us."),
                files_after_term_text(order),
            ],
        ),
        "refunded": lambda: (
            _("Order %(ref)s could not be provided: refunded") % {"ref": ref},
            [
                _(
                    "We could not prepare your machine. %(amount)s was returned to your balance; "
                    "you can use it for another order."
                )
                % {"amount": usd_text(amount or order.total)},
            ],
        ),
    }
    return texts[event]()


def _extension_placed_texts(extension: Order) -> tuple[str, list[str]]:
    """An extension waits for its payment until its deadline, the rental's term end at the latest; unpaid then, it
    lapses and the term ends as planned: the customer has that deadline in writing (QA2 #12)."""
    rental = extension.extends
    values = {
        "ref": extension.ref,
        "rental": rental.ref if rental else "",
        "days": extension.term_days,
        "total": usd_text(extension.total),
        "deadline": date_text(extension.reserved_until, time=True, zone=True),
        "end": date_text(rental.term_ends_at if rental else None, time=True, zone=True),
    }
    return (
        _("Extension %(ref)s of rental %(rental)s: pay by %(deadline)s") % values,
        [
            _("You asked to extend rental %(rental)s by %(days)d days, on the same machine. Total: %(total)s.")
            % values,
            _(
                "Pay it by %(deadline)s. Once it is paid, the term runs %(days)d days longer than its current end, "
                "%(end)s. Unpaid by then, the extension lapses and the term ends as planned."
            )
            % values,
        ],
    )


def order_notify(
    order: Order,
    event: str,
    *,
    amount: Usd | None = None,
    changed: Sequence[str] = (),
    new: bool = False,
    key: str | None = None,
    enqueue: bool = True,
) -> OutboundEmail | None:
    """Queue the email for `event` (placed, extension_placed, paid, cancelled, extended, ready, access_corrected,
    ending, ended, refunded), once per order and event (or per `key`, for an event that may recur, such as the
    reminder of a moved term end or a correction of the access), and return its row (None when queued before).
    `changed`: what a correction of the access changed (`access_details.ACCESS_CHANGES`, and "password" for a new
    one-time password). `new`: the order was created in this transaction, so no email about it can exist yet.
    `enqueue=False`: the caller hands the row to the worker (`email_queue`)."""
    language = order.owner.email_language()
    with translation.override(language):
        subject, paragraphs = _texts(order, event, amount, changed)
    url = _order_url(order)
    return email_queue(
        key=key or email_key(event, order.ref),
        to=order.contact_email,
        template="order_event",
        context={"order": order, "subject": subject, "paragraphs": paragraphs, "url": url},
        language=language,
        new=new,
        enqueue=enqueue,
    )

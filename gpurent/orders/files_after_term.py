"""What becomes of the files a customer left on the machine once the term is over: told on the ended rental's
page and in the term-ended email (QA walk: neither said, and the terms promised wiped disks at the end).

A rental on a registered GPU host (decision 0360) keeps its home directory, out of the customer's reach, until
the sweep wipes it `HOSTS_WIPE_AFTER_DAYS` after the revoke. A rental the operators prepare by hand at the
desk has no step of the shop at the term end that touches the machine: an operator removes the access by hand and
marks it at the desk (`access_removal.py`), and the page then gives the date; the shop keeps no copy and cannot
give the files back.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _

from gpurent.core.formats import date_text

from .models import Order

__all__ = ["files_after_term_text", "files_deleted_on"]


def files_deleted_on(order: Order) -> datetime | None:
    """When the host deletes the home directory of `order`'s rental (UTC): the revoke plus the retention period,
    counted from the term end until the revoke is done (the sweep revokes within minutes of it). None for a
    rental without a host account, or one already wiped."""
    # The hosts app's row, reached backwards: orders does not import hosts (hosts imports orders).
    rental = getattr(order, "host_rental", None)
    if rental is None or rental.wiped_at is not None:
        return None
    closed = rental.revoked_at or order.term_ends_at
    if closed is None:
        return None
    return closed + timedelta(days=settings.HOSTS_WIPE_AFTER_DAYS)


def files_after_term_text(order: Order) -> str:
    """One sentence, in the active language, on the files left on `order`'s machine after its term."""
    rental = getattr(order, "host_rental", None)
    if rental is None and order.access_removed_at is not None:
        # An operator marked the access removed at the provisioning desk (`access_removal.py`).
        return _(
            "We removed your access to the machine on %(date)s. We keep no copy of the files you left on it and "
            "cannot give them back."
        ) % {"date": date_text(order.access_removed_at, time=True, zone=True)}
    if rental is None:
        return _("We keep no copy of the files you left on the machine and cannot give them back.")
    if rental.wiped_at is not None:
        return _("The files you left on the machine have been deleted.")
    deleted_on = files_deleted_on(order)
    if deleted_on is None or deleted_on <= timezone.now():
        # Due, and not done yet (the host did not answer the revoke or the wipe): no date that has already passed.
        return _("The files you left on the machine are out of your reach and due for deletion.")
    return _("The files you left on the machine stay there, out of your reach, and are deleted on %(date)s.") % {
        "date": date_text(deleted_on, time=True, zone=True)
    }

"""Errors meant for operators reach the back office: customers get the plain message and the code, the log and
the operator notices get the detail (an outside service's HTTP status, a rate's age; decision 0104).

`notify_operators` is called where an `ApplicationError` becomes a response (the API's error handler, the HTML
error middleware, `form_action`, the desks): by then the action's transaction has rolled back, so the notice
is not lost with it. One row per (code, detail), counted, so a failing rate source does not flood the desk.
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from .errors import ApplicationError
from .models import OperatorNotice

__all__ = ["notify_operators", "recent_notices"]

logger = logging.getLogger(__name__)
_MAX_DETAIL = OperatorNotice._meta.get_field("detail").max_length or 500


def notify_operators(error: ApplicationError, *, now: datetime | None = None) -> None:
    """Record `error.detail` for the back office (nothing when the error has none)."""
    if not error.detail:
        return
    now = now or timezone.now()
    detail = error.detail[:_MAX_DETAIL]
    logger.warning("%s for operators: %s", error.code, detail)
    rows = OperatorNotice.objects.filter(code=error.code, detail=detail)
    if rows.update(count=F("count") + 1, last_seen=now):
        return
    try:
        with transaction.atomic():
            OperatorNotice.objects.create(code=error.code, detail=detail, first_seen=now, last_seen=now)
    except IntegrityError:  # another request created it in between
        rows.update(count=F("count") + 1, last_seen=now)


def recent_notices(*, since: datetime) -> list[OperatorNotice]:
    """The notices seen since `since`, newest first (for a desk's banner)."""
    return list(OperatorNotice.objects.filter(last_seen__gte=since)[:5])

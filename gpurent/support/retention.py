"""Retention of support requests: deleted `RETENTION_SUPPORT_DAYS` after their last message (privacy page)."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction

from .models import SupportRequest

__all__ = ["support_requests_purge"]

logger = logging.getLogger(__name__)


@transaction.atomic
def support_requests_purge(*, now: datetime) -> int:
    """Delete the support requests whose last message is older than the retention period, with their messages.

    Returns the number of requests deleted. A request answered again inside the period keeps living: the clock
    runs from its last message, as the privacy page says.
    """
    cutoff = now - timedelta(days=settings.RETENTION_SUPPORT_DAYS)
    due = SupportRequest.objects.filter(last_message_at__lt=cutoff)
    count = due.count()
    if count:
        due.delete()  # messages go with their request (on_delete=CASCADE)
        logger.info("retention: deleted %d support requests whose last message was before %s", count, cutoff)
    return count

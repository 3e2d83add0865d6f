"""Retention of log-in records: failed attempts (and axes' access logs) deleted after `RETENTION_LOGS_DAYS`."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.conf import settings

__all__ = ["login_records_purge"]

logger = logging.getLogger(__name__)


def login_records_purge(*, now: datetime) -> int:
    """Delete log-in attempts, failures and access logs (with their IP addresses) older than the period.

    Returns the number of rows deleted. A lock-out lasts `AXES_COOLOFF_TIME` hours, far inside the period, so
    throttling is unaffected.
    """
    cutoff = now - timedelta(days=settings.RETENTION_LOGS_DAYS)
    deleted = 0
    for model in (AccessAttempt, AccessFailureLog, AccessLog):
        count, _by_model = model.objects.filter(attempt_time__lt=cutoff).delete()
        deleted += count
    if deleted:
        logger.info("retention: deleted %d log-in records from before %s", deleted, cutoff)
    return deleted

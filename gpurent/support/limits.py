"""Size caps and submission rate limits of support requests, read from settings with safe defaults.

Settings (all optional):
- `SUPPORT_FIELD_MAX_BYTES`: the most UTF-8 bytes one text field may hold (default 100 000).
- `SUPPORT_REQUEST_RATE_LIMITS`: `[(seconds, count), …]` — new requests a customer may open per window
  (default 5 per hour and 20 per day).
- `SUPPORT_MESSAGE_RATE_LIMITS`: the same for the customer's messages in threads (default 30 per hour, 100 per day).

The limits are counted on the rows in the database, not in a cache, so they hold across processes and machines.
"""

from __future__ import annotations

from django.conf import settings

__all__ = ["field_max_bytes", "message_rate_limits", "request_rate_limits"]

_DEFAULT_FIELD_MAX_BYTES = 100_000
_DEFAULT_REQUEST_LIMITS = ((3600, 5), (86400, 20))
_DEFAULT_MESSAGE_LIMITS = ((3600, 30), (86400, 100))


def field_max_bytes() -> int:
    return int(getattr(settings, "SUPPORT_FIELD_MAX_BYTES", _DEFAULT_FIELD_MAX_BYTES))


def request_rate_limits() -> tuple[tuple[int, int], ...]:
    limits = getattr(settings, "SUPPORT_REQUEST_RATE_LIMITS", _DEFAULT_REQUEST_LIMITS)
    return tuple((int(seconds), int(count)) for seconds, count in limits)


def message_rate_limits() -> tuple[tuple[int, int], ...]:
    limits = getattr(settings, "SUPPORT_MESSAGE_RATE_LIMITS", _DEFAULT_MESSAGE_LIMITS)
    return tuple((int(seconds), int(count)) for seconds, count in limits)

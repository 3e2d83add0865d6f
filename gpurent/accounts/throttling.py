"""Throttles of the account endpoints.

- Login: django-axes, per (email, client address); `axes_username` is how it names the account of an attempt
  (`AXES_USERNAME_CALLABLE`).
- Registration: `registration_throttle`, per client address, on every attempt (HTML and API, accepted or
  refused), because registration answers a taken email as such (decision 0111). The attempts are counted in
  the default cache (`CACHE_URL`) in fixed windows: with Redis or the database cache all web processes share
  one count; with the default per-process `locmem` each process counts alone (docs/decisions/0111).
"""

from __future__ import annotations

import hashlib
import time
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

from .errors import RegistrationRateLimited

__all__ = ["axes_username", "registration_throttle"]


def axes_username(request: HttpRequest, credentials: dict[str, Any] | None) -> str | None:
    """The email of a login attempt in lower case, so "Ana@X.com" and "ana@x.com" share one failure count.

    Emails are case-insensitive accounts here; counting per spelling would let an attacker try five
    passwords per capitalisation of the same address.
    """
    field = settings.AXES_USERNAME_FORM_FIELD
    raw = credentials.get(field) if credentials else request.POST.get(field)
    if not isinstance(raw, str):
        return None
    return raw.strip().lower()


def registration_throttle(request: HttpRequest) -> None:
    """Count one registration attempt from the request's client address; refuse it past a limit.

    Raises:
        RegistrationRateLimited: `REGISTRATION_RATE_LIMITS` ([(seconds, count), ...]) attempts from this
            address in the current window of one of the limits (this attempt is counted too).
    """
    address = str(request.META.get("REMOTE_ADDR") or "")
    # The address is kept only as a digest in the cache key (the cache may be shared or on disk).
    digest = hashlib.sha256(f"{settings.SECRET_KEY}|{address}".encode()).hexdigest()[:32]
    now = int(time.time())
    refused = False
    for seconds, count in settings.REGISTRATION_RATE_LIMITS:
        key = f"register-attempts:{seconds}:{count}:{digest}:{now // seconds}"
        cache.add(key, 0, timeout=seconds)
        try:
            attempts = cache.incr(key)
        except ValueError:  # expired between add and incr: this attempt starts a new window
            cache.add(key, 1, timeout=seconds)
            attempts = 1
        refused = refused or attempts > count
    if refused:
        raise RegistrationRateLimited()

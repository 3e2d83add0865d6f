"""A login after the password: straight in, or, for an account with two-factor login, a code first.

`login_begin` is what every password login calls once the password is right (the login page and the
checkout's account step). Without two-factor login it logs the session in. With it, nothing is logged in
yet: the session remembers, for `TWO_FACTOR_LOGIN_SECONDS`, which account passed the password step, and the
code page (`login_code` view) finishes the login with `login_finish`. The account's password hash is kept
with it, so a password change in between voids the half-done login.
"""

from __future__ import annotations

import time
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.http import HttpRequest
from django.urls import reverse
from django.utils.crypto import constant_time_compare, salted_hmac
from django_otp import login as otp_login
from django_otp.models import Device

from .models import User
from .services import session_login
from .two_factor import two_factor_enabled

__all__ = ["login_begin", "login_finish", "login_pending_user"]

_PENDING_KEY = "two_factor_pending"
# Wrong codes one half-done login may try before the password is asked again (axes counts them too).
MAX_CODE_ATTEMPTS = 5


def _password_mark(user: User) -> str:
    return salted_hmac("gpurent.accounts.two-factor-pending", user.password).hexdigest()


def login_begin(request: HttpRequest, user: User, *, next_url: str) -> str:
    """Log `user` in, or start the code step; returns where to send the browser next."""
    request.session.pop(_PENDING_KEY, None)
    if not two_factor_enabled(user):
        session_login(request, user)
        return next_url
    request.session[_PENDING_KEY] = {
        "user": user.pk,
        "backend": getattr(user, "backend", ""),
        "password": _password_mark(user),
        "at": int(time.time()),
        "attempts": 0,
    }
    return reverse("accounts:login_code") + "?" + urlencode({"next": next_url})


def login_pending_user(request: HttpRequest) -> User | None:
    """The account whose password was given in this session and that still needs its code, if any."""
    pending: dict[str, Any] | None = request.session.get(_PENDING_KEY)
    if not isinstance(pending, dict):
        return None
    too_old = int(time.time()) - int(pending.get("at", 0)) > settings.TWO_FACTOR_LOGIN_SECONDS
    if too_old or int(pending.get("attempts", 0)) >= MAX_CODE_ATTEMPTS:
        request.session.pop(_PENDING_KEY, None)
        return None
    user = User.objects.filter(pk=int(pending.get("user") or 0), is_active=True).first()
    if user is None or not constant_time_compare(str(pending.get("password", "")), _password_mark(user)):
        request.session.pop(_PENDING_KEY, None)
        return None
    if pending.get("backend"):
        user.backend = str(pending["backend"])  # type: ignore[attr-defined]  # as `authenticate()` sets it
    return user


def login_code_failed(request: HttpRequest) -> None:
    """Count a wrong code against the half-done login (the session forgets it after `MAX_CODE_ATTEMPTS`)."""
    pending = request.session.get(_PENDING_KEY)
    if isinstance(pending, dict):
        pending["attempts"] = int(pending.get("attempts", 0)) + 1
        request.session[_PENDING_KEY] = pending


def login_finish(request: HttpRequest, user: User, device: Device) -> None:
    """The code was right: log the session in, verified with `device` (django-otp's `is_verified()`)."""
    request.session.pop(_PENDING_KEY, None)
    session_login(request, user)
    otp_login(request, device)

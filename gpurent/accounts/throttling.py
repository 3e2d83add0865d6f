"""How django-axes names the account of a login attempt (`AXES_USERNAME_CALLABLE`)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest

__all__ = ["axes_username"]


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

"""Who owns an estimate: the logged-in user, or this browser session's guest session (DESIGN §3)."""

from __future__ import annotations

from dataclasses import dataclass

from django.http import HttpRequest

from .guests import guest_session_for
from .models import GuestSession, User

__all__ = ["Owner", "owner_for"]


@dataclass(frozen=True)
class Owner:
    """Exactly one of `user` and `guest` is set, or neither for a visitor who has saved nothing yet."""

    user: User | None = None
    guest: GuestSession | None = None

    @property
    def is_empty(self) -> bool:
        return self.user is None and self.guest is None


def owner_for(request: HttpRequest, *, create: bool = False) -> Owner:
    """The owner of the estimates a request may see or make; a guest session is made only when `create`."""
    if request.user.is_authenticated:
        user = request.user
        assert isinstance(user, User)  # noqa: S101 - AUTH_USER_MODEL is accounts.User; narrows for mypy
        return Owner(user=user)
    return Owner(guest=guest_session_for(request, create=create))

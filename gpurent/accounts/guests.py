"""Guest sessions and their adoption by a new account (DESIGN §3).

A visitor without an account gets a `GuestSession` the first time something is saved for them; its id lives
in the Django session (`request.session["guest_id"]`), so it belongs to that browser session and to nothing
else — not to an email address. Rows other apps create for a guest (saved estimates, journal entries) point
at the `GuestSession`.

When an account is registered from that same session, `guest_session_adopt` links the guest session to the
new user and asks every registered *adopter* to move its rows. Apps register an adopter from their
`AppConfig.ready()`:

    register_guest_adopter(estimates_adopt)  # (guest, user) -> number of rows moved

The registry is explicit (no signals) so the adoption is one readable transaction.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable

from django.db import transaction
from django.http import HttpRequest
from django.utils import timezone

from .models import GuestSession, User

__all__ = [
    "SESSION_KEY",
    "GuestAdopter",
    "guest_session_adopt",
    "guest_session_for",
    "register_guest_adopter",
    "unregister_guest_adopter",
]

logger = logging.getLogger(__name__)

SESSION_KEY = "guest_id"

GuestAdopter = Callable[[GuestSession, User], int]
_adopters: list[GuestAdopter] = []


def register_guest_adopter(adopter: GuestAdopter) -> GuestAdopter:
    """Add `adopter` to the functions run when a guest session is adopted; returns it (usable as a decorator).

    An adopter moves the guest's rows of its app to the user and returns how many it moved. It runs inside
    the adoption's transaction: raising rolls the whole adoption back. Registering twice is harmless.
    """
    if adopter not in _adopters:
        _adopters.append(adopter)
    return adopter


def unregister_guest_adopter(adopter: GuestAdopter) -> None:
    """Remove an adopter (tests register fakes and remove them afterwards)."""
    if adopter in _adopters:
        _adopters.remove(adopter)


def _session_guest_id(request: HttpRequest) -> uuid.UUID | None:
    raw = request.session.get(SESSION_KEY)
    if not raw:
        return None
    try:
        return uuid.UUID(str(raw))
    except ValueError:
        return None


def guest_session_for(request: HttpRequest, create: bool = True) -> GuestSession | None:
    """The guest session of this browser session, made (and remembered in the session) when `create`.

    A guest session that was already adopted is not returned: it belongs to an account now, so a new one is
    made when `create` (or None). Meant for anonymous visitors; an account's own rows belong to the user.
    """
    guest_id = _session_guest_id(request)
    if guest_id is not None:
        guest = GuestSession.objects.filter(pk=guest_id, adopted_by__isnull=True).first()
        if guest is not None:
            return guest
    if not create:
        return None
    guest = GuestSession.objects.create()
    request.session[SESSION_KEY] = str(guest.pk)
    return guest


def guest_session_adopt(*, request: HttpRequest, user: User) -> int:
    """Link this session's guest data to `user`, a *new* account registered from this very session.

    Called by `user_register` only: logging in to an existing account adopts nothing, and the same email
    from another browser has no guest id in its session, so it recovers nothing. Nothing happens unless the
    session (still valid: the session backend never loads an expired one) names a guest session that was
    never adopted. The claim is a conditional UPDATE (`... WHERE adopted_by IS NULL`), so even two
    concurrent registrations adopt it at most once; the adopters run in the same transaction.

    Returns:
        The number of rows the adopters moved (0 when nothing was adopted).
    """
    guest_id = _session_guest_id(request)
    if guest_id is None:
        return 0
    with transaction.atomic():
        claimed = GuestSession.objects.filter(pk=guest_id, adopted_by__isnull=True).update(
            adopted_by=user, adopted_at=timezone.now()
        )
        if claimed != 1:
            return 0
        guest = GuestSession.objects.get(pk=guest_id)
        moved = sum(adopter(guest, user) for adopter in list(_adopters))
    # The guest session is spent: anything this browser makes from now on belongs to the account.
    request.session.pop(SESSION_KEY, None)
    logger.info("guest session %s adopted by user %s (%d rows moved)", guest_id, user.pk, moved)
    return moved

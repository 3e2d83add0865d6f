"""Signing out every other session of an account when its security changes (decision 0378).

Sessions live in the database (`django.contrib.sessions.backends.db`), which cannot list one account's sessions
without reading them all. Django already checks, on each request, a hash the session stored at login against the
account's current one (`User.get_session_auth_hash`): a new password signs out every session that did not call
`update_session_auth_hash`. `user_sessions_end` does the same for changes that leave the password as it was
(two-factor login turned on, a new e-mail) by raising `User.session_generation`, which the hash includes.
"""

from __future__ import annotations

from django.db.models import F
from django.utils.translation import gettext_lazy

from .models import User

__all__ = ["OTHER_SESSIONS_ENDED", "user_sessions_end"]

# What the page says after a change that signed out the other sessions.
OTHER_SESSIONS_ENDED = gettext_lazy("Other devices have been logged out.")


def user_sessions_end(*, user: User) -> None:
    """Make every session of `user` invalid from its next request; `user` gets the new generation. Call it in the
    transaction of the change; a view keeps its own session with `update_session_auth_hash(request, user)`."""
    User.objects.filter(pk=user.pk).update(session_generation=F("session_generation") + 1)
    user.refresh_from_db(fields=["session_generation"])

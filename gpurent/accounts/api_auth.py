"""Authentication for the JSON API: a personal token (`Authorization: Bearer ...`) or the session cookie."""

from __future__ import annotations

from django.http import HttpRequest
from ninja.security import HttpBearer, django_auth

from .models import User
from .selectors import api_token_for_secret
from .services import api_token_mark_used

__all__ = ["TokenAuth", "api_auth"]


class TokenAuth(HttpBearer):
    """`Authorization: Bearer gpr_...`: a personal API token that is not revoked, of an active user.

    No cookie is involved, so no CSRF check applies (ninja checks CSRF only for cookie authentication).
    """

    def authenticate(self, request: HttpRequest, token: str) -> User | None:
        api_token = api_token_for_secret(token)
        if api_token is None:
            return None
        api_token_mark_used(api_token)
        request.user = api_token.user
        return api_token.user


# Pass as `auth=api_auth` on an operation or router; `request.user` is the authenticated user. The token is
# tried first; without one, the session cookie (with CSRF) is.
api_auth = [TokenAuth(), django_auth]

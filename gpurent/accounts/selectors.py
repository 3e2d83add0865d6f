"""Account reads, always scoped to their owner."""

from __future__ import annotations

from django.db.models import QuerySet

from .models import TOKEN_SCHEME, ApiToken, SshKey, User

__all__ = ["api_token_for_secret", "api_token_list", "ssh_key_list"]


def api_token_list(*, user: User) -> QuerySet[ApiToken]:
    """`user`'s tokens that still work, newest first."""
    return ApiToken.objects.filter(user=user, revoked_at__isnull=True).order_by("-created_at", "-id")


def api_token_for_secret(secret: str) -> ApiToken | None:
    """The live token whose secret is `secret` (not revoked, its user active), with its user; else None."""
    if not secret.startswith(TOKEN_SCHEME):
        return None
    return (
        ApiToken.objects.select_related("user")
        .filter(digest=ApiToken.digest_of(secret), revoked_at__isnull=True, user__is_active=True)
        .first()
    )


def ssh_key_list(*, user: User) -> QuerySet[SshKey]:
    """`user`'s SSH public keys, by name."""
    return SshKey.objects.filter(user=user).order_by("name", "id")

"""Writing the audit log: one row per operator or system action, in the same transaction as the action."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db import models, transaction

from .models import AuditLogEntry

__all__ = ["audit_record", "snapshot"]


def snapshot(instance: models.Model) -> dict[str, Any]:
    """The concrete field values of a model instance, as JSON-safe values (for before/after)."""
    data: dict[str, Any] = {}
    for field in instance._meta.concrete_fields:
        value = field.value_from_object(instance)
        data[field.attname] = value if isinstance(value, (int, str, bool, type(None), list, dict)) else str(value)
    return data


def audit_record(
    *,
    actor: AbstractBaseUser | AnonymousUser | None,
    action: str,
    target: models.Model,
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
) -> AuditLogEntry:
    """Record that `actor` did `action` to `target`.

    Raises:
        RuntimeError: called outside a transaction; the row must commit or roll back with the change.
    """
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("audit_record must run inside the transaction of the change it records")
    user = actor if actor is not None and actor.is_authenticated else None
    return AuditLogEntry.objects.create(
        actor_id=user.pk if user is not None else None,
        actor_label=user.get_username() if user is not None else "system",
        action=action,
        target_type=target._meta.label_lower,
        target_id=str(target.pk),
        before=before,
        after=after,
    )

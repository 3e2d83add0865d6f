"""Password rules: Django's validators from settings (12 characters minimum, common passwords refused,
not too close to the name or email; deliberately no composition rules, ASVS 6.2.5)."""

from __future__ import annotations

from django.contrib.auth import password_validation
from django.core.exceptions import ValidationError

from .models import User

__all__ = ["password_errors"]


def password_errors(password: str, user: User) -> list[str]:
    """The message of every validator `password` fails for `user` (an unsaved one is fine); empty if none."""
    try:
        password_validation.validate_password(password, user)
    except ValidationError as error:
        return [str(message) for message in error.messages]
    return []

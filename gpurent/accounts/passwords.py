"""Password rules: Django's validators from settings (12 characters minimum, common passwords refused,
not too close to the name or email; deliberately no composition rules, ASVS 6.2.5).

The messages are the shop's own, by the validator's error code, so that every language reads them in the shop's
words from the shop's catalog: Django's Vietnamese catalog has no translation of the length rule (checkout showed
it in English) and its Spanish one reads "similar a la de correo electrónico" (docs/decisions/0443).
"""

from __future__ import annotations

from django.contrib.auth import password_validation
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .models import User

__all__ = ["password_errors"]


def _message(error: ValidationError) -> str:
    """One validator's refusal in the active language: the shop's sentence for the codes of the validators in
    settings, the validator's own message for any other."""
    params = error.params or {}
    if error.code == "password_too_short":
        length = int(params["min_length"])
        return (
            ngettext(
                "This password is too short. It must contain at least %d character.",
                "This password is too short. It must contain at least %d characters.",
                length,
            )
            % length
        )
    if error.code == "password_too_common":
        return _("This password is too common.")
    if error.code == "password_too_similar":
        return _("The password is too similar to your %(field)s.") % {"field": params["verbose_name"]}
    return str(error.message % params if params else error.message)


def password_errors(password: str, user: User) -> list[str]:
    """The message of every validator `password` fails for `user` (an unsaved one is fine); empty if none."""
    try:
        password_validation.validate_password(password, user)
    except ValidationError as error:
        return [_message(each) for each in error.error_list]
    return []

"""Account errors with stable codes (see `gpurent.core.errors` for how they become JSON or a message)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from gpurent.core.errors import ApplicationError, InvalidRequest

__all__ = [
    "EmailTaken",
    "InvalidCredentials",
    "RegistrationRateLimited",
    "TooManyApiTokens",
    "TooManySshKeys",
    "WeakPassword",
]


class InvalidCredentials(ApplicationError):
    """Wrong password, unknown email or a locked-out (email, IP) pair: deliberately one error for all three,
    so the answer never tells whether an account exists or is being throttled."""

    code = "invalid_credentials"
    status = 401
    replayable = False
    default_message = _("The email or password is incorrect.")


class EmailTaken(InvalidRequest):
    """Registration with an email that already has an account (compared without regard to case).

    A subclass of `InvalidRequest` for callers that catch that, but 409: the request is well formed and
    conflicts with an existing account (as `out_of_stock` conflicts with the stock).
    """

    code = "email_taken"
    status = 409
    default_message = _("An account with this email already exists. Log in, or reset your password if you forgot it.")


class TooManySshKeys(ApplicationError):
    """The account already keeps `ACCOUNTS_MAX_SSH_KEYS` keys: 409, like `too_many_unpaid_orders` (the request is
    well formed; the account's state refuses it until a key is removed). Not replayed: after removing a key,
    the same request may be sent again."""

    code = "too_many_ssh_keys"
    status = 409
    replayable = False

    def __init__(self, limit: int) -> None:
        super().__init__(
            _("Your account has %(limit)s SSH keys, the most it can keep. Remove one you no longer use first.")
            % {"limit": limit}
        )


class TooManyApiTokens(ApplicationError):
    """The account already has `ACCOUNTS_MAX_LIVE_API_TOKENS` tokens that work: 409 until one is revoked."""

    code = "too_many_api_tokens"
    status = 409
    replayable = False

    def __init__(self, limit: int) -> None:
        super().__init__(
            _("Your account has %(limit)s API tokens, the most it can have. Revoke one you no longer use first.")
            % {"limit": limit}
        )


class RegistrationRateLimited(ApplicationError):
    """Too many registration attempts from one client address (`REGISTRATION_RATE_LIMITS`): 429, whatever the
    email, so that "email taken" cannot be used to test addresses without end (decision 0111)."""

    code = "rate_limited"
    status = 429
    replayable = False
    default_message = _("Too many registration attempts from your network. Try again in an hour.")


class WeakPassword(InvalidRequest):
    """The password fails a validator (too short, too common, too close to the name or email).

    `messages` holds each validator's message; `message` joins them for the API.
    """

    code = "weak_password"
    default_message = _("Choose a stronger password.")

    def __init__(self, messages: list[str]) -> None:
        self.messages = messages
        super().__init__(" ".join(messages) if messages else None)

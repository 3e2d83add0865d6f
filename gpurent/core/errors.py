"""Domain errors with stable codes, and their JSON form.

Services raise an `ApplicationError` subclass; API views turn it into `{"error": {"code", "message"}}` with
its HTTP status, and HTML views show its message. Codes are part of the public API (DESIGN §11.1): never
rename one.
"""

from __future__ import annotations

from typing import Any, ClassVar

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

__all__ = [
    "ApplicationError",
    "Conflict",
    "IdempotencyKeyInUse",
    "IdempotencyKeyReused",
    "InvalidRequest",
    "NotFound",
    "error_body",
]


def error_body(code: str, message: str | Promise) -> dict[str, Any]:
    """The JSON error format of the whole API."""
    return {"error": {"code": code, "message": str(message)}}


class ApplicationError(Exception):
    """A failure the caller can understand and act on.

    Subclasses set `code`, `status` and a default `message`; a raise site may pass a more precise message.
    `replayable` says whether an idempotent request that failed this way stores the failure and replays it
    (a business outcome such as "insufficient balance") or forgets the key so the client can correct the
    request and retry (validation, not found, idempotency conflicts). False unless a class says otherwise,
    so that a new error is never stored and replayed by accident; `OutOfStock` and `InsufficientBalance`
    opt in.
    """

    code: ClassVar[str] = "invalid_request"
    status: ClassVar[int] = 400
    replayable: ClassVar[bool] = False
    default_message: ClassVar[str | Promise] = _("The request could not be processed.")

    def __init__(self, message: str | Promise | None = None, *, detail: str = "") -> None:
        self.message = str(message if message is not None else self.default_message)
        # For operators only (an outside service's HTTP status, a rate's age): logged, never shown to customers.
        self.detail = detail
        super().__init__(self.message)

    def as_body(self) -> dict[str, Any]:
        return error_body(self.code, self.message)


class InvalidRequest(ApplicationError):
    code = "invalid_request"
    status = 422
    replayable = False
    default_message = _("Some fields are missing or invalid.")


class NotFound(ApplicationError):
    code = "not_found"
    status = 404
    replayable = False
    default_message = _("Not found.")


class Conflict(ApplicationError):
    code = "conflict"
    status = 409
    default_message = _("The request conflicts with the current state.")


class IdempotencyKeyReused(ApplicationError):
    code = "idempotency_key_reused"
    status = 422
    replayable = False
    default_message = _("This idempotency key was already used for a different request.")


class IdempotencyKeyInUse(ApplicationError):
    code = "idempotency_key_in_use"
    status = 409
    replayable = False
    default_message = _("A request with this idempotency key is still being processed. Retry shortly.")

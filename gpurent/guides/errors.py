"""Errors of quote requests, with stable codes (see `gpurent.core.errors`)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from gpurent.core.errors import ApplicationError

__all__ = ["QuoteRateLimited"]


class QuoteRateLimited(ApplicationError):
    """Too many quote requests from one address or one owner within the window (429 `rate_limited`).

    Not replayable: once the window has passed, the same idempotency key may be retried.
    """

    code = "rate_limited"
    status = 429
    replayable = False
    default_message = _("You have sent several quote requests in a short time. Please try again in an hour.")

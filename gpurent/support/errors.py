"""Errors of support requests, with stable codes."""

from django.utils.translation import gettext_lazy as _

from gpurent.core.errors import ApplicationError


class RateLimited(ApplicationError):
    """Too many submissions in a window. Not replayed: the same form may be sent again once the window passes."""

    code = "rate_limited"
    status = 429
    replayable = False
    default_message = _("You have sent too many support messages. Please wait before sending another.")

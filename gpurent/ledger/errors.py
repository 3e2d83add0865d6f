from django.utils.translation import gettext_lazy as _

from gpurent.core.errors import ApplicationError


class InsufficientBalance(ApplicationError):
    code = "insufficient_balance"
    status = 422
    replayable = True  # a business outcome: the same key answers "insufficient balance" again
    default_message = _("Your balance does not cover this amount. Top it up or pay with crypto.")


class DuplicateTransfer(ApplicationError):
    """A transfer with this reference exists: the money already moved (a deposit credited, an order debited)."""

    code = "duplicate_transfer"
    status = 409
    replayable = False
    default_message = _("This movement was already recorded.")

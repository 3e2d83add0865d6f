"""Errors of ordering, with the stable codes of DESIGN §11.1."""

from django.utils.translation import gettext_lazy as _

from gpurent.core.errors import ApplicationError


class OutOfStock(ApplicationError):
    code = "out_of_stock"
    status = 409
    replayable = True  # a business outcome: the same key answers "out of stock" again
    default_message = _("Sorry, there are not enough lots of this GPU in stock for your order.")


class TransitionNotAllowed(ApplicationError):
    code = "transition_not_allowed"
    status = 409
    replayable = False
    default_message = _("The order is not in a state that allows this change.")


class TooManyUnpaidOrders(ApplicationError):
    """The account already has `ORDERS_MAX_UNPAID_PER_ACCOUNT` orders awaiting payment (each holds stock)."""

    code = "too_many_unpaid_orders"
    status = 409
    replayable = False
    default_message = _("You have too many unpaid orders. Pay or cancel one before placing another.")


class CancelNeedsConfirmation(ApplicationError):
    """A payment was reported or received for the order: cancelling needs the customer's explicit confirmation."""

    code = "cancel_needs_confirmation"
    status = 409
    replayable = False
    default_message = _("A payment was reported for this order. Confirm that you want to cancel it.")

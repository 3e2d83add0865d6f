"""Errors of payment intents and verification (codes are public: never rename one)."""

from django.utils.translation import gettext_lazy as _

from gpurent.core.errors import ApplicationError

from .errors_crypto import InvalidAddress, NoReceivingAddress, RateUnavailable, UnsupportedPair

__all__ = [
    "IntentAlreadySettled",
    "IntentClosed",
    "IntentLimitReached",
    "InvalidAddress",
    "NoReceivingAddress",
    "NothingToPay",
    "PaymentAlreadyCredited",
    "PayoutBelowMinimum",
    "PayoutNotPending",
    "RateUnavailable",
    "TooManyOpenIntents",
    "TooManyPendingTopUps",
    "UnsupportedPair",
    "WebhookMalformed",
    "WebhookRefused",
]


class NothingToPay(ApplicationError):
    code = "nothing_to_pay"
    status = 409
    replayable = False
    default_message = _("There is nothing to pay here.")


class TooManyOpenIntents(ApplicationError):
    """The order or top-up already has `PAYMENTS_MAX_OPEN_INTENTS` instructions open (awaiting payment, before
    expiry). Not stored with the idempotency key: once one expires, the same request may succeed."""

    code = "too_many_open_intents"
    status = 409
    replayable = False
    default_message = _(
        "The payment instructions shown here are still open. Use one of them, or wait until one expires and "
        "ask for new ones."
    )


class IntentLimitReached(ApplicationError):
    """The order or top-up already has `PAYMENTS_MAX_INTENTS` instructions in all (open or not; those the payment
    processor never prepared not counted), or `PAYMENTS_MAX_INTENT_ROWS` intents of any kind (decision 0336)."""

    code = "intent_limit_reached"
    status = 409
    replayable = False


class TooManyPendingTopUps(ApplicationError):
    """The account already has `PAYMENTS_MAX_PENDING_TOP_UPS` top-ups waiting for a payment that still take
    payment instructions (made in the last `PAYMENTS_TOP_UP_HOURS`, decision 0320). Not stored with the
    idempotency key: once one is paid or old enough, the same request may succeed."""

    code = "too_many_pending_top_ups"
    status = 409
    replayable = False
    default_message = _("You already have as many unpaid top-ups as an account may have at once.")


class IntentClosed(ApplicationError):
    code = "intent_closed"
    status = 409
    replayable = False
    default_message = _("This payment was already verified.")


class IntentAlreadySettled(ApplicationError):
    """An operator recorded a transaction on an intent already confirmed or closed without saying it is an
    additional one (the payments desk's "Another transaction to this payment", `confirm_payment --additional`):
    a second credit is never made by a default. For operators only (the back office is English)."""

    code = "intent_already_settled"
    status = 409
    replayable = False
    default_message = (
        "This payment is already confirmed or closed. Record another transaction on it only as an additional one."
    )


class PaymentAlreadyCredited(ApplicationError):
    """This (network, transaction, output/log index) was already recorded: for another intent, or with
    another amount. The same payment is never credited twice, whoever reports it."""

    code = "payment_already_credited"
    status = 409
    replayable = False
    default_message = _("This transaction was already recorded as a payment.")


class WebhookRefused(ApplicationError):
    """The delivery is not authenticated: the signature is missing or does not match the body."""

    code = "invalid_signature"
    status = 401
    replayable = False
    default_message = _("The webhook signature is missing or wrong.")


class WebhookMalformed(ApplicationError):
    """A correctly signed body that is not a webhook event."""

    code = "invalid_request"
    status = 400
    replayable = False
    default_message = _("The body is not a webhook event.")


class PayoutBelowMinimum(ApplicationError):
    """A withdrawal below `PAYOUTS_MIN_CENTS` (or not more than the fee)."""

    code = "payout_below_minimum"
    status = 422
    replayable = False
    default_message = _("This amount is below the smallest withdrawal.")


class PayoutNotPending(ApplicationError):
    """An operator acted on a withdrawal that was already sent or rejected."""

    code = "payout_not_pending"
    status = 409
    replayable = False
    default_message = _("This withdrawal was already sent or rejected.")

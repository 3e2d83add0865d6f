"""The status vocabularies of an order (DESIGN §4). Each track moves on its own; see `transitions.py`."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class PaymentStatus(models.TextChoices):
    """Where the order's payment stands.

    - `awaiting_payment`: placed; its lots are reserved until the payment deadline (`reserved_until`).
    - `paid`: the total was debited from the customer's balance, once. Final.
    - `expired`: the deadline passed unpaid; the lots went back to stock. Final.
    - `cancelled`: the customer cancelled before paying; the lots went back to stock. Final.

    "Payment reported" is not a payment status: it is shown while one of the order's payment intents
    carries a customer report and no confirmation yet.
    """

    AWAITING_PAYMENT = "awaiting_payment", _("Awaiting payment")
    PAID = "paid", _("Paid")
    EXPIRED = "expired", _("Expired")
    CANCELLED = "cancelled", _("Cancelled")


class ProvisioningStatus(models.TextChoices):
    """Where the machine behind the order stands.

    - `not_started`: nothing done yet (always so until the order is paid).
    - `preparing`: paid; an operator is preparing the machine.
    - `ready`: access information was given; the term runs from this moment.
    - `ended`: the term is over; access is closed and the lots are back in stock. Final.
    - `failed`: the machine could not be provided (before or while it was prepared); the order is refunded to the
      balance. Final.
    """

    NOT_STARTED = "not_started", _("Not started")
    PREPARING = "preparing", _("Preparing")
    READY = "ready", _("Ready")
    ENDED = "ended", _("Ended")
    FAILED = "failed", _("Failed")


class Track(models.TextChoices):
    """The two status tracks a status change can belong to."""

    PAYMENT = "payment", _("Payment")
    PROVISIONING = "provisioning", _("Provisioning")


class Environment(models.TextChoices):
    """The software image the customer asks for at checkout."""

    UBUNTU = "ubuntu", _("Ubuntu")
    PYTORCH = "pytorch", _("PyTorch")
    BLENDER = "blender", _("Blender")
    OTHER = "other", _("Other (describe it)")

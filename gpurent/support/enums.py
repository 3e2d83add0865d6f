"""The status of a support request and who wrote a message in its thread."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class RequestStatus(models.TextChoices):
    """Where a support request stands.

    - `open`: waiting for an operator: just submitted, or the customer wrote again after an answer.
    - `answered`: an operator replied last; waiting for the customer (who is emailed on each reply).
    - `closed`: resolved, closed by the customer or an operator. Writing to it again reopens it.
    """

    OPEN = "open", _("Open")
    ANSWERED = "answered", _("Answered")
    CLOSED = "closed", _("Closed")


class Author(models.TextChoices):
    """Who wrote a message of a thread: the customer who owns the request, or an operator (staff)."""

    CUSTOMER = "customer", _("Customer")
    OPERATOR = "operator", _("Operator")

"""The states of a GPU host and of a rental account on one (decision 0360)."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class HostHealth(models.TextChoices):
    """Whether the shop can work on a host. Only a `healthy` host that is not drained gives stock.

    - `healthy`: its last agent call answered.
    - `unreachable`: its last call could not connect or timed out; its free GPUs left stock at once.
    - `key_changed`: it answered with another SSH host key than the one pinned at registration: all work on
      it stops until an operator pins the new key (`manage.py hosts repin`).
    """

    HEALTHY = "healthy", _("Healthy")
    UNREACHABLE = "unreachable", _("Unreachable")
    KEY_CHANGED = "key_changed", _("Host key changed")


class RentalState(models.TextChoices):
    """Where a rental's account on its host stands; the order's own tracks say what the customer sees.

    - `pending`: paid; its GPUs may be allocated; the account is not made yet (attempts count the tries).
    - `active`: the account exists with the customer's keys and GPUs.
    - `revoking`: the term is over or provisioning failed: keys, processes and GPU grants must go.
    - `revoked`: done; the GPUs are back in stock; the home directory waits for the retention period.
    - `wiped`: the account and its home directory are deleted. Final.
    """

    PENDING = "pending", _("Pending")
    ACTIVE = "active", _("Active")
    REVOKING = "revoking", _("Revoking")
    REVOKED = "revoked", _("Revoked")
    WIPED = "wiped", _("Wiped")

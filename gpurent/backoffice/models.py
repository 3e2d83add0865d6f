"""The desks of the back office: proxy models over payments, orders and payouts, with the permissions of each role."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from gpurent.orders.models import Order
from gpurent.payments.models import PaymentIntent, Payout


class PaymentsDesk(PaymentIntent):
    """Payment intents as the payments desk works them: reported first, then in review, open; then partly paid
    (waiting for the customer to send the rest), expired, done."""

    # Desk ranks below this (reported, review, open) still need an operator; partly paid, expired and done do not.
    DESK_RANK_NEEDS_ACTION_BELOW = 3
    DESK_RANK_PARTLY_PAID = 3

    class Meta:
        proxy = True
        verbose_name = _("payment to verify")
        verbose_name_plural = _("payments desk")
        permissions = [("verify_payment", _("Can confirm, reject and resolve payments"))]


class ProvisioningDesk(Order):
    """Paid orders as the provisioning desk works them: waiting for a machine, being prepared, ended with access
    to remove from a machine without a GPU host, running."""

    # Desk ranks below this (paid and not started, preparing, access to remove) still need an operator; running and
    # done do not.
    DESK_RANK_ACCESS_TO_REMOVE = 2
    DESK_RANK_NEEDS_ACTION_BELOW = 3

    class Meta:
        proxy = True
        verbose_name = _("order to provision")
        verbose_name_plural = _("provisioning desk")
        permissions = [("provision_order", _("Can prepare, deliver and fail orders"))]


class PayoutsDesk(Payout):
    """Withdrawals as the payouts desk works them: requested first (oldest first), then the history."""

    # Desk rank 0 (requested) needs an operator; sent and rejected do not.
    DESK_RANK_NEEDS_ACTION_BELOW = 1

    class Meta:
        proxy = True
        verbose_name = _("withdrawal to send")
        verbose_name_plural = _("payouts desk")
        permissions = [("send_payout", _("Can mark withdrawals sent and reject them"))]


class Dashboard(Order):
    """The operator's dashboard (`dashboard/`): revenue, money received, GPU occupancy, the order funnel and the
    open queues, from the ledger and the order history. Not a list of rows: the proxy gives the page its place in
    the back office and its one permission, `view_dashboard` (role `reports`; decision 0415)."""

    class Meta:
        proxy = True
        verbose_name = _("Business dashboard")
        verbose_name_plural = _("Business dashboard")
        default_permissions = ("view",)

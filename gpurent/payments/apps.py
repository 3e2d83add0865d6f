from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PaymentsConfig(AppConfig):
    name = "gpurent.payments"
    label = "payments"
    verbose_name = _("Payments")

    def ready(self) -> None:
        from gpurent.orders.api import register_order_extender

        from .presenters import order_payment_fields

        register_order_extender(order_payment_fields)

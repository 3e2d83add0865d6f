from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PaymentsConfig(AppConfig):
    name = "gpurent.payments"
    label = "payments"
    verbose_name = _("Payments")

    def ready(self) -> None:
        from django.core import checks

        from gpurent.orders.api import register_order_extender
        from gpurent.orders.export import register_reference_source
        from gpurent.orders.services import register_cancel_warning, register_payment_closer

        from .networks import check_segwit_hrps
        from .presenters import order_payment_fields
        from .selectors import order_ledger_references
        from .services import order_cancel_warning_for_payments, order_intents_close

        register_order_extender(order_payment_fields)
        register_payment_closer(order_intents_close)
        register_cancel_warning(order_cancel_warning_for_payments)
        register_reference_source(order_ledger_references)
        checks.register(check_segwit_hrps)

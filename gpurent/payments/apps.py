from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PaymentsConfig(AppConfig):
    name = "gpurent.payments"
    label = "payments"
    verbose_name = _("Payments")

    def ready(self) -> None:
        from django.core import checks

        from gpurent.orders.payments_port import PaymentsPort, payments_provide

        from .intents.lifecycle import order_cancel_warning_for_payments, order_intents_close
        from .networks import check_segwit_hrps
        from .presenters import order_payment_fields
        from .selectors import order_ledger_references

        # What orders asks of payments, by name (gpurent/orders/payments_port.py, decision 0487).
        payments_provide(
            PaymentsPort(
                order_intents_close=order_intents_close,
                order_cancel_warning=order_cancel_warning_for_payments,
                order_payment_fields=order_payment_fields,
                order_ledger_references=order_ledger_references,
            )
        )
        checks.register(check_segwit_hrps)

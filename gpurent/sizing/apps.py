from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SizingConfig(AppConfig):
    name = "gpurent.sizing"
    label = "sizing"
    verbose_name = _("Sizing")

    def ready(self) -> None:
        # Estimates saved as a guest move to the account registered from that session (DESIGN §3).
        from gpurent.accounts.guests import register_guest_adopter

        from .services import estimates_adopt

        register_guest_adopter(estimates_adopt)

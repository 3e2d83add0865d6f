from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class JournalConfig(AppConfig):
    name = "gpurent.journal"
    label = "journal"
    verbose_name = _("Journal")

    def ready(self) -> None:
        # Entries written as a guest move to the account registered from that session (DESIGN §3).
        from gpurent.accounts.guests import register_guest_adopter

        from .services import entries_adopt

        register_guest_adopter(entries_adopt)

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class JournalConfig(AppConfig):
    name = "gpurent.journal"
    label = "journal"
    verbose_name = _("Journal")

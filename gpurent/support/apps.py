from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SupportConfig(AppConfig):
    name = "gpurent.support"
    label = "support"
    verbose_name = _("Support")

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class BackofficeConfig(AppConfig):
    """Operator tools that span the other apps. It may import every app; no app imports it."""

    name = "gpurent.backoffice"
    label = "backoffice"
    verbose_name = _("Back office")

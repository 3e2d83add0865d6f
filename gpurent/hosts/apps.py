from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class HostsConfig(AppConfig):
    name = "gpurent.hosts"
    label = "hosts"
    verbose_name = _("GPU hosts")

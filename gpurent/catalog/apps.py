from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CatalogConfig(AppConfig):
    name = "gpurent.catalog"
    label = "catalog"
    verbose_name = _("Catalog")

from django.apps import AppConfig


class ChainsConfig(AppConfig):
    """Chain watchers: read nodes, record what reaches the shop's addresses, hand payments at depth to payments."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "gpurent.chains"
    verbose_name = "Chain watchers"

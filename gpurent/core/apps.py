from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CoreConfig(AppConfig):
    name = "gpurent.core"
    label = "core"
    verbose_name = _("Core")

    def ready(self) -> None:
        from django.core import checks

        from .checks import check_shared_cache

        # Deployment checks only (`check --deploy`): the suite and `make run` use one process's memory on purpose.
        checks.register(check_shared_cache, checks.Tags.caches, deploy=True)

"""The prepared downloads' own error."""

from django.utils.translation import gettext_lazy as _

from gpurent.core.errors import ApplicationError


class ExportNotReady(ApplicationError):
    code = "export_not_ready"
    status = 409
    default_message = _("This file is not ready yet. Download it once its state is ready.")

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SupportConfig(AppConfig):
    """Private support requests with secrets redacted before saving (DESIGN §8).

    No guest adopter is registered: support needs an account (decision 0063), so there is no guest data.
    """

    name = "gpurent.support"
    label = "support"
    verbose_name = _("Support")

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GuidesConfig(AppConfig):
    """Workload guides (computed pages per GPU × workload × scope) and the quote requests sent from them.

    No guest adopter is registered: a guest's quote requests stay on their guest session, and an account
    sees them through `GuestSession.adopted_by` (see `selectors.quote_request_list_for`).
    """

    name = "gpurent.guides"
    label = "guides"
    verbose_name = _("Guides")

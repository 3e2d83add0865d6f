from django.conf import settings
from django.contrib import admin
from django.urls import include, path, re_path

from gpurent.accounts import views as account_views
from gpurent.backoffice.site import BackOfficeSite, TwoFactorBackOfficeSite
from gpurent.core import views as core_views
from gpurent.monitoring import views as monitoring_views

from .api import api

# The back office's home page and login (gpurent/backoffice/site.py). With STAFF_REQUIRE_2FA every back-office page
# needs a user verified with a TOTP device (django-otp's admin site, which TwoFactorBackOfficeSite is).
admin.site.__class__ = TwoFactorBackOfficeSite if settings.STAFF_REQUIRE_2FA else BackOfficeSite
admin.site.site_header = admin.site.site_title = f"{settings.BRAND_NAME} back office"
# No app list down the left of every page: at 1280 px it left the desks' tables (ten columns beside their
# filters) about 630 px, cutting the address, the dates and the state off behind a scroll bar. The home
# page and the breadcrumbs lead everywhere it did.
admin.site.enable_nav_sidebar = False

urlpatterns = [
    path("", include("gpurent.catalog.urls")),
    path("glossary/", include("gpurent.glossary.urls")),
    path("account/", include("gpurent.accounts.urls")),
    path("estimate/", include("gpurent.sizing.urls")),
    path("", include("gpurent.orders.urls")),
    path("", include("gpurent.payments.urls")),
    path("journal/", include("gpurent.journal.urls")),
    path("downloads/", include("gpurent.exports.urls")),
    path("support/", include("gpurent.support.urls")),
    path("guides/", include("gpurent.guides.urls")),
    path("", include("gpurent.pages.urls")),
    path("language/", account_views.language_set, name="set_language"),
    path("csrf-token/", core_views.csrf_token, name="csrf_token"),
    path("healthz", core_views.healthz, name="healthz"),
    path("metrics", monitoring_views.metrics, name="metrics"),
    path("api/v1/", api.urls),
    # Any other path under /api/ is the API's JSON 404, under DEBUG too (where Django would show its debug page).
    re_path(r"^api/", core_views.api_not_found, name="api_not_found"),
    path("backoffice/", admin.site.urls),
    path("favicon.ico", core_views.favicon),
]

handler400 = "gpurent.core.views.bad_request"
handler404 = "gpurent.core.views.page_not_found"
handler500 = "gpurent.core.views.server_error"

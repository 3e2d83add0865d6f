from django.conf import settings
from django.contrib import admin
from django.urls import include, path

from gpurent.core import views as core_views

from .api import api

admin.site.site_header = admin.site.site_title = f"{settings.BRAND_NAME} back office"

urlpatterns = [
    path("", include("gpurent.catalog.urls")),
    path("glossary/", include("gpurent.glossary.urls")),
    path("account/", include("gpurent.accounts.urls")),
    path("estimate/", include("gpurent.sizing.urls")),
    path("", include("gpurent.orders.urls")),
    path("", include("gpurent.payments.urls")),
    path("healthz", core_views.healthz, name="healthz"),
    path("api/v1/", api.urls),
    path("backoffice/", admin.site.urls),
    path("favicon.ico", core_views.favicon),
]

handler404 = "gpurent.core.views.page_not_found"
handler500 = "gpurent.core.views.server_error"

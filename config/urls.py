from django.conf import settings
from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView

from gpurent.core import views as core_views

from .api import api

admin.site.site_header = admin.site.site_title = f"{settings.BRAND_NAME} back office"

urlpatterns = [
    path("", include("gpurent.catalog.urls")),
    path("glossary/", include("gpurent.glossary.urls")),
    path("healthz", core_views.healthz, name="healthz"),
    path("api/v1/", api.urls),
    path("backoffice/", admin.site.urls),
    # Browsers ask for /favicon.ico on pages that name no icon (the back office).
    path("favicon.ico", RedirectView.as_view(url=static("img/favicon.svg"), permanent=True)),
]

handler404 = "gpurent.core.views.page_not_found"
handler500 = "gpurent.core.views.server_error"

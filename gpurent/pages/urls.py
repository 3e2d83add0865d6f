from django.urls import path

from . import views

app_name = "pages"

urlpatterns = [
    path("help/", views.help_index, name="help"),
    path("privacy/", views.privacy, name="privacy"),
    path("terms/", views.terms, name="terms"),
]

from django.urls import path

from . import views

app_name = "glossary"

urlpatterns = [path("", views.glossary_index, name="index")]

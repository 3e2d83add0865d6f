from django.urls import path

from . import views

app_name = "catalog"

urlpatterns = [
    path("", views.catalog_index, name="index"),
    path("gpus/<slug:slug>/", views.gpu_detail, name="detail"),
    path("gpus/<slug:slug>/quote/", views.gpu_quote, name="quote"),
]

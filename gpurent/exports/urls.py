from django.urls import path

from . import views

app_name = "exports"

urlpatterns = [
    path("new/<str:kind>/", views.export_new, name="new"),
    path("<uuid:export_id>/", views.export_detail, name="detail"),
    path("<uuid:export_id>/file", views.export_file, name="file"),
]

from django.urls import path

from . import views

app_name = "journal"

urlpatterns = [
    path("", views.journal_index, name="index"),
    path("export.md", views.journal_export_md, name="export_md"),
    path("export.json", views.journal_export_json, name="export_json"),
    path("client/gpurent_journal.py", views.client_download, name="client"),
    path("new/", views.entry_create_view, name="entry_create"),
    path("<uuid:entry_id>/", views.entry_detail, name="entry"),
    path("<uuid:entry_id>/export.md", views.entry_export_md, name="entry_export_md"),
    path("<uuid:entry_id>/export.json", views.entry_export_json, name="entry_export_json"),
    path("<uuid:entry_id>/runs/new/", views.run_create_view, name="run_create"),
    path("<uuid:entry_id>/runs/<uuid:run_id>/", views.run_detail, name="run"),
    path("<uuid:entry_id>/compare/", views.runs_compare_view, name="compare"),
]

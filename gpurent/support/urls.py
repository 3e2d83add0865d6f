from django.urls import path

from . import views

app_name = "support"

urlpatterns = [
    path("", views.request_list, name="list"),
    path("new/", views.request_create, name="create"),
    path("<str:ref>/", views.request_detail, name="detail"),
    path("<str:ref>/messages/", views.message_create, name="message_create"),
    path("<str:ref>/messages/<int:message_id>.txt", views.message_text, name="message_text"),
    path("<str:ref>/fields/<str:name>.txt", views.field_text, name="field_text"),
    path("<str:ref>/close/", views.request_close, name="close"),
]

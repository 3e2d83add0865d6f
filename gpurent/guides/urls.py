from django.urls import path

from . import views

app_name = "guides"

urlpatterns = [
    path("", views.guide_index, name="index"),
    path("quotes/", views.quote_list, name="quote_list"),
    path("quotes/<uuid:public_id>/", views.quote_detail, name="quote_detail"),
    path("<slug:gpu>/<slug:workload>/<slug:scope>/", views.guide_detail, name="detail"),
    path("<slug:gpu>/<slug:workload>/<slug:scope>/quote/", views.quote_create, name="quote_create"),
]

from django.urls import path

from . import views

app_name = "sizing"

urlpatterns = [
    path("", views.estimate_page, name="estimate"),
    path("result/", views.estimate_result, name="result"),
    path("save/", views.estimate_save_view, name="save"),
    path("saved/", views.saved_list, name="saved"),
    path("<uuid:public_id>/", views.estimate_detail, name="detail"),
    path("<uuid:public_id>/measure/", views.estimate_measure, name="measure"),
]

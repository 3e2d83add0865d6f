from django.urls import path

from . import views

app_name = "orders"

urlpatterns = [
    path("checkout/", views.checkout_start, name="checkout_start"),
    path("checkout/quote/", views.checkout_quote, name="checkout_quote"),
    path("checkout/account/", views.checkout_account, name="checkout_account"),
    path("checkout/summary/", views.checkout_summary, name="checkout_summary"),
    path("checkout/place/", views.checkout_place, name="checkout_place"),
    path("rentals/", views.rentals, name="rentals"),
    path("rentals/summary.csv", views.rentals_csv, name="rentals_csv"),
    path("rentals/summary/", views.rentals_printable, name="rentals_printable"),
    path("rentals/<str:ref>/", views.rental_detail, name="rental"),
    path("rentals/<str:ref>/extend/", views.rental_extend, name="rental_extend"),
    path("rentals/<str:ref>/cancel/", views.rental_cancel, name="rental_cancel"),
    path("rentals/<str:ref>/access/reveal/", views.rental_reveal_secret, name="rental_reveal_secret"),
    path("rentals/<str:ref>/machine-request/", views.rental_machine_request, name="rental_machine_request"),
]

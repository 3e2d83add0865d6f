from django.urls import path

from . import views
from .receipts import views as receipt_views

app_name = "payments"

urlpatterns = [
    path("balance/", views.balance, name="balance"),
    path("balance/top-up/", views.top_up, name="top_up"),
    path("balance/withdraw/", views.withdraw, name="withdraw"),
    path("balance/summary.csv", views.balance_csv_download, name="balance_csv"),
    path("balance/deposits/<str:ref>/", views.deposit_detail, name="deposit"),
    path("balance/deposits/<str:ref>/intents/", views.deposit_intent_create, name="deposit_intent"),
    path("payments/orders/<str:ref>/intents/", views.order_intent_create, name="order_intent"),
    path("payments/orders/<str:ref>/pay/", views.order_pay, name="order_pay"),
    path("rentals/<str:ref>/receipt/", receipt_views.order_receipt, name="receipt"),
    path("rentals/<str:ref>/receipt.pdf", receipt_views.order_receipt_pdf, name="receipt_pdf"),
    path("payments/intents/<uuid:intent_id>/report/", views.intent_report_view, name="intent_report"),
    path("payments/intents/<uuid:intent_id>/chain/", views.intent_chain_status, name="intent_chain"),
]

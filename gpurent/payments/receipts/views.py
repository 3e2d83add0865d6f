"""The receipt of one order: an HTML page and its PDF, for the order's owner only."""

from __future__ import annotations

from typing import cast

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from gpurent.accounts.models import User
from gpurent.orders.selectors import order_get_for

from .receipt import receipt_for, receipt_pdf


def receipt_pdf_response(order_ref: str, content: bytes) -> HttpResponse:
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="receipt-{order_ref}.pdf"'
    return response


@login_required
@require_GET
def order_receipt(request: HttpRequest, ref: str) -> HttpResponse:
    order = order_get_for(cast(User, request.user), ref)
    return render(request, "payments/receipt.html", {"receipt": receipt_for(order)})


@login_required
@require_GET
def order_receipt_pdf(request: HttpRequest, ref: str) -> HttpResponse:
    order = order_get_for(cast(User, request.user), ref)
    return receipt_pdf_response(order.ref, receipt_pdf(receipt_for(order)))

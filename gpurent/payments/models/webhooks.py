"""Deliveries of payment-processor webhooks, kept to process each event once."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

__all__ = ["WebhookDelivery"]


class WebhookDelivery(models.Model):
    """One webhook event, keyed by its original delivery id (a redelivery carries the same original id)."""

    source = models.CharField(max_length=20, default="btcpay")
    delivery_key = models.CharField(max_length=100)
    event_type = models.CharField(max_length=60)
    invoice_id = models.CharField(max_length=100, blank=True)
    outcome = models.CharField(max_length=200)
    received_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("webhook delivery")
        verbose_name_plural = _("webhook deliveries")
        constraints = [models.UniqueConstraint(fields=["source", "delivery_key"], name="webhook_delivery_once")]

    def __str__(self) -> str:
        return f"{self.source}:{self.delivery_key} {self.event_type}"

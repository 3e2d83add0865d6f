"""Orders, GPUs and payment intents for `/metrics` (a fixed number of GROUP BY queries; docs/operations.md)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from django.db.models import BooleanField, Count, ExpressionWrapper, Q, Sum
from prometheus_client.core import GaugeMetricFamily, Metric

from gpurent.catalog.models import GpuModel
from gpurent.orders.enums import PaymentStatus, ProvisioningStatus
from gpurent.orders.models import Order
from gpurent.payments.models import IntentStatus, PaymentIntent

from .families import duration, histogram_counts, histogram_family

__all__ = ["CONFIRMATION_BUCKETS", "orders_metrics", "payment_intents_metrics"]

# Seconds from an intent's creation to its confirmation: minutes on a fast network, hours for a reviewed one.
CONFIRMATION_BUCKETS = (60, 300, 600, 1200, 1800, 3600, 7200, 21600, 86400, 259200)

# An order's lots are rented from payment until its term ends or provisioning fails.
_RENTED = Q(
    payment_status=PaymentStatus.PAID, provisioning_status__in=[ProvisioningStatus.PREPARING, ProvisioningStatus.READY]
)


def orders_metrics() -> Iterator[Metric]:
    """`gpurent_orders` by both tracks and kind, and `gpurent_gpus` free and rented per GPU model (two queries)."""
    rows = (
        Order.objects.values(
            "payment_status",
            "provisioning_status",
            "gpu_id",
            extension=ExpressionWrapper(Q(extends__isnull=False), output_field=BooleanField()),
        )
        .annotate(orders=Count("pk"), rented_cards=Sum("cards", filter=_RENTED & Q(extends__isnull=True)))
        .order_by()
    )
    orders: dict[tuple[str, str, str], int] = defaultdict(int)
    rented: dict[int, int] = defaultdict(int)
    for row in rows:
        kind = "extension" if row["extension"] else "rental"
        orders[(row["payment_status"], row["provisioning_status"], kind)] += row["orders"]
        rented[row["gpu_id"]] += row["rented_cards"] or 0
    family = GaugeMetricFamily(
        "gpurent_orders",
        "Orders by payment status, provisioning status and kind (rental, or extension of one).",
        labels=["payment_status", "provisioning_status", "kind"],
    )
    for labels, count in sorted(orders.items()):
        family.add_metric(list(labels), count)
    yield family

    gpus = GaugeMetricFamily(
        "gpurent_gpus",
        "GPUs per model: free (the lots in stock, in cards) and rented (cards of paid rentals preparing or ready).",
        labels=["gpu_model", "state"],
    )
    for model in GpuModel.objects.values("id", "slug", "stock_lots", "cards_per_lot").order_by("slug"):
        gpus.add_metric([model["slug"], "free"], model["stock_lots"] * model["cards_per_lot"])
        gpus.add_metric([model["slug"], "rented"], rented.get(model["id"], 0))
    yield gpus


def payment_intents_metrics() -> Iterator[Metric]:
    """`gpurent_payment_intents` by status and pair, and the histogram of the time from an intent's creation to
    its confirmation per pair, in one query."""
    confirmed = Q(status=IntentStatus.CONFIRMED, verified_at__isnull=False)
    rows = histogram_counts(
        PaymentIntent.objects.all(),
        group=["status", "asset", "network"],
        value=duration("verified_at", "created_at"),
        buckets=CONFIRMATION_BUCKETS,
        finished=confirmed,
    )
    family = GaugeMetricFamily(
        "gpurent_payment_intents",
        "Payment intents by status and pair (asset, network).",
        labels=["status", "asset", "network"],
    )
    for row in rows:
        family.add_metric([row["status"], row["asset"], row["network"]], row["n"])
    yield family
    yield histogram_family(
        "gpurent_payment_intent_confirmation_seconds",
        "Time from an intent's creation to its confirmation (every confirmed intent), per pair.",
        ["asset", "network"],
        CONFIRMATION_BUCKETS,
        [row for row in rows if row["status"] == IntentStatus.CONFIRMED],
    )

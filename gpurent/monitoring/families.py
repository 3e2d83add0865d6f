"""Building blocks of the business metrics: histograms counted by the database, and small conversions."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from typing import Any

from django.db.models import (
    Case,
    Count,
    DurationField,
    ExpressionWrapper,
    F,
    IntegerField,
    Q,
    QuerySet,
    Sum,
    Value,
    When,
)
from prometheus_client.core import HistogramMetricFamily
from prometheus_client.utils import floatToGoString

__all__ = ["bucket_label", "duration", "histogram_counts", "histogram_family", "seconds_since"]


def duration(end: str, start: str) -> ExpressionWrapper:
    """`end - start` of two datetime columns, as a duration the database compares and adds up."""
    return ExpressionWrapper(F(end) - F(start), output_field=DurationField())


def histogram_counts(
    queryset: QuerySet[Any],
    *,
    group: Sequence[str],
    value: Any,
    buckets: Sequence[float],
    finished: Q,
    **more: Any,
) -> list[dict[str, Any]]:
    """One query: per `group` row, `n` (all rows), `count` (the `finished` ones), `sum` of `value` over those,
    and `le_0`, `le_1`, … the finished rows whose `value` is at most each bucket (cumulative, as Prometheus's),
    plus the aggregates `more` (counted per bucket, added up here). No `group`: one row for the whole queryset.

    The database puts each row in its bucket with one CASE (the first bound it does not pass), so the value is
    computed once per row, and the buckets are added up here. `value` is a duration expression (buckets in
    seconds) or an integer column in milliseconds (buckets in seconds too: compared with bucket × 1000); rows
    come back with `sum` in seconds.
    """
    is_duration = isinstance(value, ExpressionWrapper)
    limits = [timedelta(seconds=bound) if is_duration else bound * 1000 for bound in buckets]
    bucket = Case(
        When(~finished, then=Value(-1)),
        *(When(metric_value__lte=limit, then=Value(index)) for index, limit in enumerate(limits)),
        default=Value(len(limits)),
        output_field=IntegerField(),
    )
    rows = (
        queryset.alias(metric_value=value)
        .values(*group, bucket=bucket)
        .annotate(rows=Count("pk"), total=Sum("metric_value"), **more)
        .order_by()
    )
    grouped: dict[tuple[Any, ...], dict[str, Any]] = {}
    if not group:
        grouped[()] = _empty_row({}, len(limits), more)
    for row in rows:
        key = tuple(row[name] for name in group)
        into = grouped.setdefault(key, _empty_row({name: row[name] for name in group}, len(limits), more))
        into["n"] += row["rows"]
        for name in more:
            into[name] += row[name] or 0
        if row["bucket"] < 0:
            continue
        into["count"] += row["rows"]
        into["sum"] += _seconds(row["total"])
        for index in range(row["bucket"], len(limits)):
            into[f"le_{index}"] += row["rows"]
    return [grouped[key] for key in sorted(grouped, key=lambda key: tuple(str(part) for part in key))]


def _empty_row(labels: dict[str, Any], buckets: int, more: dict[str, Any]) -> dict[str, Any]:
    return {
        **labels,
        "n": 0,
        "count": 0,
        "sum": 0.0,
        **{f"le_{index}": 0 for index in range(buckets)},
        **dict.fromkeys(more, 0),
    }


def _seconds(total: Any) -> float:
    if total is None:
        return 0.0
    if isinstance(total, timedelta):
        return total.total_seconds()
    return float(total) / 1000


def histogram_family(
    name: str, documentation: str, labels: Sequence[str], buckets: Sequence[float], rows: Iterable[dict[str, Any]]
) -> HistogramMetricFamily:
    """A histogram family from `histogram_counts` rows, one series per row (keyed by `labels`)."""
    family = HistogramMetricFamily(name, documentation, labels=list(labels))
    for row in rows:
        counts = [(bucket_label(bound), row[f"le_{index}"]) for index, bound in enumerate(buckets)]
        family.add_metric(
            [str(row[label]) for label in labels], [*counts, ("+Inf", row["count"])], sum_value=row["sum"]
        )
    return family


def bucket_label(bound: float) -> str:
    """A bucket's upper bound as prometheus-client writes its own: `60.0`, `0.25`."""
    return floatToGoString(bound)


def seconds_since(moment: datetime | None, now: datetime) -> float:
    """Seconds from `moment` to `now` (0 for no moment or one in the future)."""
    return max(0.0, (now - moment).total_seconds()) if moment is not None else 0.0

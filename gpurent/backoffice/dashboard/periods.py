"""The periods the dashboard shows and how each is cut into buckets (a bar of a chart, a row of a table)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any, Literal

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

__all__ = ["DEFAULT_DAYS", "PERIOD_DAYS", "Period", "PeriodForm", "period_of"]

PERIOD_DAYS = (30, 90, 365)
DEFAULT_DAYS = 30
# Past this many days a bar is a week: 53 bars fit a phone's width, 365 would be a third of a pixel each.
DAILY_UP_TO = 90

Bucket = Literal["day", "week"]


@dataclass(frozen=True, slots=True)
class Period:
    """The days an operator looks at: from `start` (a midnight in the shop's time zone, included) to `end` (now,
    excluded), cut into `buckets` (each bucket's first day, oldest first) of one day or one week (Monday first;
    the first week then starts up to six days before the period asked for, so that every bucket is whole)."""

    days: int
    bucket: Bucket
    start: datetime
    end: datetime
    buckets: tuple[date, ...]

    @property
    def step(self) -> timedelta:
        return timedelta(days=7 if self.bucket == "week" else 1)

    def bucket_start(self, index: int) -> datetime:
        return timezone.make_aware(datetime.combine(self.buckets[index], time.min))

    def bucket_seconds(self, index: int) -> int:
        """How long bucket `index` is, in seconds, within the period: the last one ends now."""
        start = self.bucket_start(index)
        return int((min(start + self.step, self.end) - start).total_seconds())


def period_of(days: int, now: datetime) -> Period:
    """The last `days` days up to `now`, today included, in buckets of a day (a week past `DAILY_UP_TO` days)."""
    today = timezone.localdate(now)
    first = today - timedelta(days=days - 1)
    bucket: Bucket = "week" if days > DAILY_UP_TO else "day"
    step = 1
    if bucket == "week":
        first -= timedelta(days=first.weekday())
        step = 7
    count = (today - first).days // step + 1
    buckets = tuple(first + timedelta(days=step * n) for n in range(count))
    start = timezone.make_aware(datetime.combine(first, time.min))
    return Period(days=days, bucket=bucket, start=start, end=now, buckets=buckets)


class PeriodForm(forms.Form):
    """The period selector (a GET form): 30, 90 or 365 days; none given (None) is `DEFAULT_DAYS`."""

    days = forms.TypedChoiceField(
        label=_("Period"),
        choices=[(days, days) for days in PERIOD_DAYS],
        coerce=int,
        required=False,
        initial=DEFAULT_DAYS,
        error_messages={"invalid_choice": _("Choose a period of 30, 90 or 365 days.")},
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Labelled when the form is made, in the request's language.
        self.fields["days"].choices = [  # type: ignore[attr-defined]
            (days, ngettext("Last %(count)s day", "Last %(count)s days", days) % {"count": days})
            for days in PERIOD_DAYS
        ]

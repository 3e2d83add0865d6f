"""The dashboard's charts (SVG geometry) and its numbers in each language, without a database."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import translation

from gpurent.backoffice.dashboard import charts
from gpurent.backoffice.dashboard.numbers import count_text, duration_text, percent_text


@pytest.mark.parametrize(
    ("language", "count", "percent"),
    [
        ("en", "1,234.5", "12.5%"),
        ("es", "1.234,5", "12,5\xa0%"),
        ("vi", "1.234,5", "12,5%"),
        ("tr", "1.234,5", "%12,5"),
    ],
)
def test_counts_and_percentages_follow_the_language(language, count, percent):
    with translation.override(language):
        assert count_text(Decimal("1234.5")) == count
        assert percent_text(Decimal("12.5")) == percent


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (None, "—"),
        (timedelta(seconds=59), "0 min"),
        (timedelta(minutes=52, seconds=30), "52 min"),
        (timedelta(hours=1, minutes=5), "1 h 05 min"),
        (timedelta(hours=47, minutes=59), "47 h 59 min"),
        (timedelta(days=3, hours=4, minutes=30), "3 d 4 h"),
    ],
)
def test_durations_to_the_minute_then_to_the_hour(value, text):
    with translation.override("en"):
        assert duration_text(value) == text


def test_nice_steps_are_round():
    assert [charts.nice_step(span) for span in (0, 4, 10, 37, 1000, 123_456)] == [1.0, 1, 2.5, 10, 250, 50_000]


def test_stacked_bars_go_up_from_zero_and_refunds_down():
    chart = charts.stacked_bars(
        [("3 days", [100, 0, -50]), ("7 days", [300, 200, 0])],
        buckets=["1 Dec", "2 Dec", "3 Dec"],
        axis_labels=["1 Dec", "2 Dec", "3 Dec"],
        fmt=str,
        value_fmt=lambda cents: f"${cents / 100:.2f}",
    )
    frame = chart.frame
    assert [tick.label for tick in frame.y_ticks] == ["-200", "0", "200", "400"]  # from -50 to 300 in round steps
    assert [bar.title for bar in chart.bars] == [
        "1 Dec · 3 days: $1.00",
        "1 Dec · 7 days: $3.00",
        "2 Dec · 7 days: $2.00",
        "3 Dec · 3 days: $-0.50",
    ]
    first, second = chart.bars[0], chart.bars[1]
    assert first.y + first.height == pytest.approx(frame.zero, abs=0.02)  # the first series sits on the zero line
    assert second.y + second.height == pytest.approx(first.y, abs=0.02)  # the second on the first
    refund = chart.bars[3]
    assert refund.y == frame.zero  # below the line
    assert refund.height > 0
    assert all(frame.left <= bar.x and bar.x + bar.width <= frame.right for bar in chart.bars)
    assert [key.figure for key in frame.legend] == ["$0.50", "$5.00"]


def test_an_empty_period_draws_an_axis_and_no_bar():
    chart = charts.stacked_bars(
        [("3 days", [0, 0])], buckets=["a", "b"], axis_labels=["a", "b"], fmt=str, value_fmt=str
    )
    assert chart.bars == ()
    assert [tick.label for tick in chart.frame.y_ticks] == ["0", "1"]


def test_lines_have_one_point_per_bucket_within_the_plot():
    chart = charts.line_chart(
        [("A100", [Decimal("0"), Decimal("4"), Decimal("8")], "4")], axis_labels=["a", "b", "c"], fmt=str
    )
    (line,) = chart.lines
    points = [tuple(map(float, point.split(","))) for point in line.points.split()]
    assert len(points) == 3
    assert points[0][1] == chart.frame.zero
    assert points[2][1] == min(tick.position for tick in chart.frame.y_ticks)  # 8 is the top tick
    assert [tick.label for tick in chart.frame.y_ticks] == ["0", "2", "4", "6", "8"]
    assert line.title == "A100: 4"


def test_values_known_to_a_tenth_get_no_value_line_between_tenths():
    """An average of 0.1 card drew lines at 0.025, 0.05 and 0.075: no average reads so (QA walk, decision 0563)."""
    series = [("L40S", [Decimal("0"), Decimal("0.1")], "< 0.1")]
    drawn = charts.line_chart(series, axis_labels=["a", "b"], fmt=str, precision=Decimal("0.1"))
    assert [Decimal(tick.label) for tick in drawn.frame.y_ticks] == [0, Decimal("0.1")]
    fine = charts.line_chart(series, axis_labels=["a", "b"], fmt=str)
    assert [Decimal(tick.label) for tick in fine.frame.y_ticks] == [
        0,
        *(Decimal(v) for v in ("0.025", "0.05", "0.075", "0.1")),
    ]


def test_the_funnel_bars_are_as_long_as_their_share_of_the_first_stage():
    chart = charts.funnel_chart([("Placed: 4", ""), ("Paid: 3", "−25%"), ("Ready: 0", "−100%")], [4, 3, 0])
    assert [stage.width for stage in chart.stages] == [480, 360, 0]
    assert chart.height == 8 + 56 * 3

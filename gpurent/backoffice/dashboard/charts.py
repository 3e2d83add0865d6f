"""The charts' geometry, in the units of an SVG `viewBox` (the templates draw it; no JavaScript, no library).

A chart is `WIDTH` × `HEIGHT` units drawn at the width of its column (`width="100%"`), so it fits a 390 px phone
and grows on a desktop (to 640 px, `dashboard.css`, which also sets a larger text size below 600 px). The plot
takes the whole width: each value line's label sits above the line at its left end, not in a margin that long
labels ("250 mil US$") would overflow, and the first and last dates under the axis are aligned to the plot's
ends. Labels are already written for the reader (the caller formats values and dates). Colours are the
Okabe–Ito set, told apart by readers with the common colour-vision deficiencies; every series is also named in a
legend (HTML, under the chart) and every bar carries a `<title>` with its figure.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal

__all__ = ["COLOURS", "BarChart", "FunnelChart", "LineChart", "funnel_chart", "line_chart", "stacked_bars"]

WIDTH, HEIGHT = 480, 220
LEFT, RIGHT, TOP, BOTTOM = 2, 2, 16, 22
PLOT_WIDTH, PLOT_HEIGHT = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
COLOURS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#7F7F7F", "#000000")
X_LABELS = 5

Number = int | Decimal


@dataclass(frozen=True, slots=True)
class Tick:
    position: float
    label: str
    anchor: str = "middle"  # SVG text-anchor of a date under the axis: the first starts, the last ends there

    @property
    def above(self) -> float:
        """Where a value line's label sits: just above the line."""
        return round(self.position - 3, 2)


@dataclass(frozen=True, slots=True)
class Bar:
    x: float
    y: float
    width: float
    height: float
    colour: str
    title: str


@dataclass(frozen=True, slots=True)
class Key:
    """A legend entry: the series' colour, name and its figure over the period."""

    colour: str
    label: str
    figure: str


@dataclass(frozen=True, slots=True)
class Frame:
    """What every chart with axes has: the y ticks (value lines), a few x labels, the legend."""

    y_ticks: tuple[Tick, ...]
    x_ticks: tuple[Tick, ...]
    legend: tuple[Key, ...]
    zero: float  # the y of the value 0

    width = WIDTH
    height = HEIGHT
    left = LEFT
    top = TOP
    right = WIDTH - RIGHT
    bottom = HEIGHT - BOTTOM
    text_y = HEIGHT - 6
    label_x = LEFT + 2  # a value line's label, above the line


@dataclass(frozen=True, slots=True)
class BarChart:
    frame: Frame
    bars: tuple[Bar, ...]


@dataclass(frozen=True, slots=True)
class Line:
    colour: str
    points: str  # "x,y x,y …" for a <polyline>
    title: str


@dataclass(frozen=True, slots=True)
class LineChart:
    frame: Frame
    lines: tuple[Line, ...]


def nice_step(span: float, ticks: int = 4) -> float:
    """A round step (1, 2, 2.5 or 5 × 10^k) that cuts `span` into about `ticks` parts."""
    if span <= 0:
        return 1.0
    raw = span / ticks
    power = 10 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)


def _scale(
    low: float, high: float, fmt: Callable[[Number], str], integer: bool, least: float = 0.0
) -> tuple[float, float, list[Tick]]:
    """The value range the plot shows (round numbers around `low` ≤ 0 ≤ `high`) and its labelled ticks, no closer
    than `least` (values known to a tenth get no 0.025 line)."""
    step = max(nice_step(high - low), least)
    if integer:
        step = max(1.0, math.ceil(step))
    bottom, top = math.floor(low / step) * step, max(math.ceil(high / step) * step, step)
    ticks = []
    value = bottom
    while value <= top + step / 2:
        shown: Number = round(value) if integer else Decimal(str(round(value, 6)))
        ticks.append(Tick(_y(value, bottom, top), fmt(shown)))
        value += step
    return bottom, top, ticks


def _y(value: float, bottom: float, top: float) -> float:
    return round(TOP + PLOT_HEIGHT * (top - value) / (top - bottom), 2)


def _x_ticks(labels: Sequence[str], centre: Callable[[int], float]) -> tuple[Tick, ...]:
    """`X_LABELS` dates spread under the axis, the first at the plot's left end and the last at its right end."""
    count = len(labels)
    if count == 0:
        return ()
    if count == 1:
        return (Tick(round(centre(0), 2), labels[0]),)
    picks = sorted({round(n * (count - 1) / (X_LABELS - 1)) for n in range(X_LABELS)})
    ticks = [Tick(round(centre(i), 2), labels[i]) for i in picks[1:-1]]
    first, last = Tick(LEFT, labels[picks[0]], "start"), Tick(WIDTH - RIGHT, labels[picks[-1]], "end")
    return (first, *ticks, last)


def stacked_bars(
    series: Sequence[tuple[str, Sequence[int]]],
    *,
    buckets: Sequence[str],
    axis_labels: Sequence[str],
    fmt: Callable[[Number], str],
    value_fmt: Callable[[Number], str],
) -> BarChart:
    """One bar per bucket, the series stacked (positive values up from 0, negative ones down from it).

    Args:
        series: (name, value per bucket) in the order of the legend; values in the unit `fmt` writes (cents).
        buckets: each bucket's name for a bar's title ("5 Dec").
        axis_labels: each bucket's short name under the axis (a few are shown).
        fmt: writes a value of the axis for the reader ("$1,234").
        value_fmt: writes a bar's value and a series' total ("$1,234.50").
    """
    count = len(buckets)
    ups = [sum(max(values[i], 0) for _, values in series) for i in range(count)]
    downs = [sum(min(values[i], 0) for _, values in series) for i in range(count)]
    bottom, top, y_ticks = _scale(min(downs, default=0), max(ups, default=0), fmt, integer=True)
    slot = PLOT_WIDTH / max(count, 1)
    width = max(slot * 0.8, 0.5)
    bars = []
    for i in range(count):
        up, down = 0, 0
        for number, (name, values) in enumerate(series):
            value = values[i]
            if value == 0:
                continue
            base = up if value > 0 else down
            end = base + value
            y_top, y_bottom = _y(max(base, end), bottom, top), _y(min(base, end), bottom, top)
            x = round(LEFT + slot * i + (slot - width) / 2, 2)
            title = f"{buckets[i]} · {name}: {value_fmt(value)}"
            bars.append(
                Bar(x, y_top, round(width, 2), round(y_bottom - y_top, 2), COLOURS[number % len(COLOURS)], title)
            )
            if value > 0:
                up = end
            else:
                down = end
    legend = tuple(
        Key(COLOURS[n % len(COLOURS)], name, value_fmt(sum(values))) for n, (name, values) in enumerate(series)
    )
    frame = Frame(
        y_ticks=tuple(y_ticks),
        x_ticks=_x_ticks(axis_labels, lambda i: LEFT + slot * (i + 0.5)),
        legend=legend,
        zero=_y(0, bottom, top),
    )
    return BarChart(frame=frame, bars=tuple(bars))


def line_chart(
    series: Sequence[tuple[str, Sequence[Decimal], str]],
    *,
    axis_labels: Sequence[str],
    fmt: Callable[[Number], str],
    precision: Decimal | None = None,
) -> LineChart:
    """One line per series over the buckets, from 0 up.

    Args:
        series: (name, value per bucket, the series' figure for the legend).
        axis_labels: each bucket's short name under the axis (a few are shown).
        fmt: writes a value of the axis for the reader.
        precision: what the values are rounded to (Decimal("0.1")): the value lines are no closer.
    """
    count = max((len(values) for _, values, _ in series), default=0)
    high = max((float(v) for _, values, _ in series for v in values), default=0.0)
    bottom, top, y_ticks = _scale(0, high, fmt, integer=False, least=float(precision or 0))
    slot = PLOT_WIDTH / max(count, 1)
    lines = []
    for number, (name, values, figure) in enumerate(series):
        points = " ".join(
            f"{round(LEFT + slot * (i + 0.5), 2)},{_y(float(v), bottom, top)}" for i, v in enumerate(values)
        )
        lines.append(Line(COLOURS[number % len(COLOURS)], points, f"{name}: {figure}"))
    legend = tuple(Key(COLOURS[n % len(COLOURS)], name, figure) for n, (name, _, figure) in enumerate(series))
    frame = Frame(
        y_ticks=tuple(y_ticks),
        x_ticks=_x_ticks(axis_labels, lambda i: LEFT + slot * (i + 0.5)),
        legend=legend,
        zero=_y(0, bottom, top),
    )
    return LineChart(frame=frame, lines=tuple(lines))


@dataclass(frozen=True, slots=True)
class Stage:
    label: str  # "Paid: 1,234"
    y: float
    width: float  # the bar's length, relative to the first stage
    note: str  # the drop-off from the stage before ("150 fewer than placed (−12.5%)"), empty for the first


@dataclass(frozen=True, slots=True)
class FunnelChart:
    stages: tuple[Stage, ...]
    width = WIDTH
    height: float = 0
    bar_height = 22
    left = 0


def funnel_chart(stages: Sequence[tuple[str, str]], counts: Sequence[int]) -> FunnelChart:
    """Horizontal bars, one per stage, as long as its count relative to the first stage's.

    Args:
        stages: (the stage's label with its count, the drop-off note) per stage, first to last.
        counts: the stages' counts.
    """
    widest = max(counts[0], 1) if counts else 1
    rows = tuple(
        Stage(label, y=8 + 56 * n, width=round(WIDTH * count / widest, 2), note=note)
        for n, ((label, note), count) in enumerate(zip(stages, counts, strict=True))
    )
    return FunnelChart(stages=rows, height=8 + 56 * len(rows))

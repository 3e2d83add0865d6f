"""Which rows of the catalog table an estimate shows (decision 0350): all up to 12, else the 12 that fit best, in
catalog order; the table's answer is always among them; a stored table picks the same rows."""

import random
from typing import Any, cast

from gpurent.catalog.models import GpuModel
from gpurent.core.money import Usd
from gpurent.sizing.calculation import Sizing
from gpurent.sizing.fit.rows_shown import FIT_ROWS_SHOWN, fit_rank, rows_shown, stored_rows_shown
from gpurent.sizing.fit.table import FITS, NO_FIT, TIGHT, GpuFit

GIB = 2**30


def row(slug: str, status: str, week_cents: int | None = None, headroom_gib: int = 0) -> GpuFit:
    gpu = GpuModel(slug=slug, name=slug.upper(), memory_mib_per_card=81_920, cards_per_lot=1, stock_lots=4)
    priced = status != NO_FIT
    prices = {3: Usd(1), 7: Usd(week_cents or 0), 30: Usd(3)} if priced else None
    lots = 1 if priced else None
    return GpuFit(gpu, status, lots, lots, GIB, GIB, headroom_gib * GIB, 72 * GIB, prices)


def shown(rows: list[GpuFit]) -> list[str]:
    return [fit.gpu.slug for fit in rows_shown(rows, fit_rank)]


def sizing_of(rows: list[GpuFit]) -> Sizing:
    return Sizing(inputs=cast(Any, None), result=cast(Any, None), fit=rows, usable_pct=90)


def test_twelve_rows_or_fewer_are_all_shown_in_catalog_order():
    rows = [row(f"g{n:02d}", [FITS, TIGHT, NO_FIT][n % 3], 1000 - n, -n) for n in range(FIT_ROWS_SHOWN)]
    assert rows_shown(rows, fit_rank) == rows
    assert rows_shown(rows[:1], fit_rank) == rows[:1]
    assert rows_shown([], fit_rank) == []
    sizing = sizing_of(rows)
    assert sizing.fit_shown == rows
    assert sizing.fit_left_out == 0


def test_more_than_twelve_shows_fits_cheapest_first_then_tight_then_closest_to_fitting_in_catalog_order():
    rows = [
        row("nofit-far", NO_FIT, headroom_gib=-40),
        row("fit-900", FITS, 900),
        row("tight-300", TIGHT, 300),
        row("nofit-near", NO_FIT, headroom_gib=-2),
        row("fit-100", FITS, 100),
        row("tight-200", TIGHT, 200),
        row("fit-500", FITS, 500),
        row("nofit-mid", NO_FIT, headroom_gib=-10),
        row("fit-700", FITS, 700),
        row("tight-100", TIGHT, 100),
        row("fit-300", FITS, 300),
        row("nofit-nearer", NO_FIT, headroom_gib=-1),
        row("fit-1100", FITS, 1100),
        row("tight-900", TIGHT, 900),
        row("nofit-farther", NO_FIT, headroom_gib=-60),
        row("fit-200", FITS, 200),
    ]
    # 7 fit and 4 are tight: all 11 of them, then the row that does not fit by the least.
    assert shown(rows) == [
        "fit-900", "tight-300", "fit-100", "tight-200", "fit-500", "fit-700", "tight-100", "fit-300",
        "nofit-nearer", "fit-1100", "tight-900", "fit-200",
    ]  # fmt: skip
    # A cheap tight row does not push out a dearer one that fits.
    more_fits = [*rows, *(row(f"fit-extra-{n}", FITS, 5000 + n) for n in range(3))]
    assert [slug for slug in shown(more_fits) if slug.startswith("tight")] == ["tight-200", "tight-100"]
    assert len(shown(more_fits)) == FIT_ROWS_SHOWN


def test_ties_are_broken_by_catalog_order():
    rows = [row(f"same-{n:02d}", FITS, 500) for n in range(20)]
    assert shown(rows) == [f"same-{n:02d}" for n in range(FIT_ROWS_SHOWN)]
    nothing_fits = [row(f"short-{n:02d}", NO_FIT, headroom_gib=-5) for n in range(15)]
    assert shown(nothing_fits) == [f"short-{n:02d}" for n in range(FIT_ROWS_SHOWN)]


def test_the_answer_is_always_shown_and_nothing_left_out_ranks_better():
    """Random tables of 13 to 60 rows: 12 shown, in catalog order, `cheapest` among them, and no row left out
    is better (status first, then price for a priced row, the shortfall for one that does not fit)."""
    chance = random.Random(350)  # noqa: S311 (test tables, the same in every run)
    order = {FITS: 0, TIGHT: 1, NO_FIT: 2}
    for _ in range(300):
        rows = [
            row(f"g{n:02d}", chance.choice([FITS, TIGHT, NO_FIT]), chance.randint(1, 40) * 100, -chance.randint(1, 9))
            for n in range(chance.randint(FIT_ROWS_SHOWN + 1, 60))
        ]
        sizing = sizing_of(rows)
        picked = sizing.fit_shown
        assert len(picked) == FIT_ROWS_SHOWN
        assert sizing.fit_left_out == len(rows) - FIT_ROWS_SHOWN
        assert [rows.index(fit) for fit in picked] == sorted(rows.index(fit) for fit in picked)
        assert sizing.cheapest is None or sizing.cheapest in picked

        def key(fit: GpuFit) -> tuple[int, int]:
            if fit.status == NO_FIT:
                return order[NO_FIT], -fit.headroom_bytes
            return order[fit.status], cast(Usd, fit.week_price).cents

        worst_shown = max(key(fit) for fit in picked)
        assert all(key(fit) >= worst_shown for fit in rows if fit not in picked)


def test_a_stored_table_shows_the_same_rows_as_the_live_one():
    chance = random.Random(16)  # noqa: S311 (test tables, the same in every run)
    for _ in range(100):
        rows = [
            row(f"g{n:02d}", chance.choice([FITS, TIGHT, NO_FIT]), chance.randint(1, 9) * 100, -chance.randint(1, 4))
            for n in range(chance.randint(1, 40))
        ]
        stored = [fit.to_api() for fit in rows]
        assert [r["gpu"] for r in stored_rows_shown(stored)] == shown(rows)


def test_a_row_stored_before_tight_existed_ranks_by_fits_and_price():
    stored = [row(f"g{n:02d}", FITS if n % 2 else NO_FIT, 100 + n, -n).to_api() for n in range(20)]
    for fit in stored:
        del fit["status"]
    picked = [r["gpu"] for r in stored_rows_shown(stored)]
    # 10 rows fit (the odd ones); then the two that do not fit by the least (g00: 0 GiB short, g02: 2 GiB).
    assert picked == ["g00", "g01", "g02", *(f"g{n:02d}" for n in range(3, 20, 2))]

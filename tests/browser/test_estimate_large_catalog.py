"""The estimator in a real browser with more GPUs on sale than it shows (decision 0350): the live table and the
chart hold the 12 that fit best and say so; the saved estimate lists the whole table."""

import re

import pytest
from playwright.sync_api import expect

from conftest import make_gpu
from gpurent.sizing.fit.rows_shown import FIT_ROWS_SHOWN

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

EXTRA = 24


def test_a_large_catalog_shows_the_best_twelve_live_and_the_whole_table_once_saved(
    live_server, page, demo_catalog, screenshot, console_errors
):
    for n in range(EXTRA):
        make_gpu(
            slug=f"a100-{n:02d}",
            name=f"A100 80GB · pool {n:02d}",
            position=100 + n,
            price_7d_cents=21_000 + n * 500,
        )
    page.set_viewport_size({"width": 1360, "height": 900})
    page.goto(live_server.url + "/estimate/")
    page.get_by_label("Model preset").select_option("llama-3.1-70b")
    page.get_by_label("Sequence length (tokens)").fill("8192")
    page.get_by_label("Concurrent requests").fill("16")
    expect(page.get_by_test_id("peak")).to_have_text(re.compile(r"^17\d\.\d\d GiB$"))  # the last field's update
    note = page.get_by_test_id("fit-shown")
    expect(note).to_contain_text(f"Showing the {FIT_ROWS_SHOWN} GPUs that fit best of {7 + EXTRA} on sale")
    expect(page.get_by_test_id("fit-table").locator("tbody tr")).to_have_count(FIT_ROWS_SHOWN)
    expect(page.locator(".memory-chart .chart-row")).to_have_count(FIT_ROWS_SHOWN)
    # The answer above the table is one of the rows shown.
    answer = page.get_by_test_id("answer")
    expect(answer).to_contain_text("Lowest price that fits, 7 days")
    screenshot("estimate-large-catalog")

    page.get_by_test_id("save-estimate").click()
    expect(page).to_have_url(re.compile(r"/estimate/[0-9a-f-]{36}/$"))
    expect(page.get_by_test_id("saved-fit-table").locator("tbody tr")).to_have_count(7 + EXTRA)
    screenshot("estimate-large-catalog-saved")
    aborted = ("htmx:sendAbort,", "htmx:afterRequest,")
    assert [error for error in console_errors if not error.startswith(aborted)] == []

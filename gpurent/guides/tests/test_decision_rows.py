"""A large catalog's decision table shows `DECISION_ROWS_SHOWN` rows: the guide's GPU, every column's cheapest,
then the lowest prices, in catalog order; a small catalog's shows every GPU (decision 0351)."""

import re

import pytest

from conftest import make_gpu
from gpurent.catalog.enums import Term
from gpurent.catalog.models import GpuModel
from gpurent.catalog.selectors import gpu_list
from gpurent.core.money import Usd
from gpurent.guides.decision import DECISION_ROWS_SHOWN, DecisionRow, decision_rows, rows_shown
from gpurent.guides.enums import GuideWorkload, Scope
from gpurent.guides.guide import Guide
from gpurent.guides.models import QuoteRequest
from gpurent.guides.report import guide_report
from gpurent.guides.scenarios import SCENARIOS
from gpurent.sizing.fit.table import FITS, NO_FIT, GpuFit

from .conftest import quote_form

GPUS = 30


def cell(gpu: GpuModel, week_cents: int | None) -> GpuFit:
    prices = None if week_cents is None else {Term.WEEK: Usd(week_cents)}
    return GpuFit(gpu, FITS if prices else NO_FIT, 1, 1, 1, 1, 1, 2, prices)  # type: ignore[arg-type]


def row(number: int, prices: list[int | None], best: list[bool], current: bool = False) -> DecisionRow:
    gpu = GpuModel(pk=number, slug=f"gpu-{number:03d}")
    return DecisionRow(gpu, [(cell(gpu, p), b) for p, b in zip(prices, best, strict=True)], current)


def test_every_workload_has_room_for_its_cheapest_cells_next_to_the_guides_own():
    for spec in SCENARIOS.values():
        assert len(spec.conditions) + 1 <= DECISION_ROWS_SHOWN


def test_up_to_the_limit_every_row_is_shown_as_it_is():
    rows = [row(n, [900 - n], [n == 3], current=n == 5) for n in range(DECISION_ROWS_SHOWN)]
    assert rows_shown(rows) == rows


def test_past_the_limit_the_guides_row_the_cheapest_cells_then_the_lowest_prices_in_catalog_order():
    rows = [row(n, [10_000 + n, None], [False, False]) for n in range(40)]
    rows[39] = row(39, [None, None], [False, False], current=True)  # nothing fits on the guide's own GPU
    rows[30] = row(30, [20_000, 5], [False, True])  # the cheapest cell of the second column
    rows[20] = row(20, [1, None], [True, False])  # the cheapest of the first
    rows[25] = row(25, [None, None], [False, False])  # nothing fits: ranked last
    rows[35] = row(35, [None, 10_005], [False, False])  # its lowest fitting price, in either column
    shown = [line.gpu.pk for line in rows_shown(rows)]
    assert shown == [0, 1, 2, 3, 4, 5, 6, 7, 20, 30, 35, 39]


def test_ties_go_to_catalog_order_and_rows_where_nothing_fits_come_last():
    rows = [row(n, [None], [False]) for n in range(10)] + [row(n, [700], [False]) for n in range(10, 20)]
    assert [line.gpu.pk for line in rows_shown(rows, limit=4)] == [10, 11, 12, 13]
    nothing = [row(n, [None], [False]) for n in range(20)]
    assert [line.gpu.pk for line in rows_shown(nothing, limit=3)] == [0, 1, 2]


def test_the_bound_holds_even_with_more_cheapest_cells_than_rows():
    rows = [row(n, [100 - n] * 6, [n == column for column in range(6)]) for n in range(8)]
    shown = rows_shown([*rows, row(8, [1] * 6, [False] * 6, current=True)], limit=4)
    assert [line.gpu.pk for line in shown] == [3, 4, 5, 8]


@pytest.fixture
def thirty_gpus(demo_catalog) -> None:
    """The demo's 7 GPUs and 23 A100 copies priced from $900 up: some undercut the demo, most do not."""
    for number in range(GPUS - 7):
        make_gpu(
            slug=f"a100-copy-{number:02d}",
            name=f"A100 copy {number:02d}",
            price_7d_cents=90_000 + 1_000 * number,
            position=100 + number,
        )


@pytest.mark.django_db
@pytest.mark.parametrize("workload", list(GuideWorkload))
def test_a_report_of_thirty_gpus_keeps_the_guides_gpu_and_every_cheapest_cell(thirty_gpus, workload):
    gpus = list(gpu_list())
    page = Guide(gpus[-1], workload, Scope.PILOT)
    report = guide_report(page, gpus)
    every = decision_rows(page, gpus, report.columns)
    slugs = [line.gpu.slug for line in report.rows]
    assert len(slugs) == DECISION_ROWS_SHOWN
    assert report.gpus_on_sale == GPUS
    assert report.rows_left_out == GPUS - DECISION_ROWS_SHOWN
    assert page.gpu.slug in slugs
    assert {line.gpu.slug for line in every if line.is_best} <= set(slugs)
    assert slugs == [line.gpu.slug for line in every if line.gpu.slug in slugs]  # catalog order


@pytest.mark.django_db
def test_a_report_of_the_demo_catalog_shows_every_gpu_in_catalog_order(demo_catalog):
    gpus = list(gpu_list())
    report = guide_report(Guide(gpus[0], GuideWorkload.LLM_SERVING, Scope.PILOT), gpus)
    assert [line.gpu.slug for line in report.rows] == [gpu.slug for gpu in gpus]
    assert report.rows_left_out == 0


def table_rows(html: str) -> list[str]:
    table = html.split('data-testid="decision-table"', 1)[1].split("</table>", 1)[0]
    return re.findall(r'<tr class="[^"]*" data-gpu="([^"]+)"', table)


@pytest.mark.django_db
def test_a_guide_page_of_thirty_gpus_shows_twelve_rows_and_says_so(client, thirty_gpus):
    response = client.get("/guides/a100-copy-22/llm-serving/pilot/")
    html = response.content.decode()
    shown = table_rows(html)
    assert len(shown) == DECISION_ROWS_SHOWN
    assert "a100-copy-22" in shown  # the guide's own GPU, the dearest of all
    assert "a100-copy-21" not in shown
    assert (
        f"Shown: {DECISION_ROWS_SHOWN} of the {GPUS} GPUs on sale: this guide's GPU, the cheapest option of each "
        "column and the GPUs with the lowest prices."
    ) in html
    assert '<a href="/">Compare every GPU in the catalog</a>' in html
    spanish = client.get("/guides/a100-copy-22/llm-serving/pilot/", headers={"accept-language": "es"})
    assert f"{DECISION_ROWS_SHOWN} de las {GPUS} GPU" in spanish.content.decode()


@pytest.mark.django_db
def test_a_small_catalogs_guide_page_shows_every_gpu_and_no_note(client, demo_catalog):
    html = client.get("/guides/a100-80gb/llm-serving/pilot/").content.decode()
    assert table_rows(html) == [gpu.slug for gpu in gpu_list()]
    assert "decision-rows-note" not in html


@pytest.mark.django_db
def test_a_gpu_left_out_comes_in_once_its_price_drops(client, thirty_gpus):
    url = "/guides/a100-copy-22/llm-serving/pilot/"
    assert "a100-copy-21" not in table_rows(client.get(url).content.decode())
    GpuModel.objects.get(slug="a100-copy-21").save()  # a new catalog version, same prices: same table
    assert "a100-copy-21" not in table_rows(client.get(url).content.decode())
    cheaper = GpuModel.objects.get(slug="a100-copy-21")
    cheaper.price_7d_cents = 100
    cheaper.save()
    assert "a100-copy-21" in table_rows(client.get(url).content.decode())


def quote_options(html: str) -> list[str]:
    select = html.split('name="gpu"', 1)[1].split("</select>", 1)[0]
    return re.findall(r'<option value="([^"]+)"', select)


@pytest.mark.django_db
def test_the_quote_form_offers_the_gpus_of_the_table_and_takes_any_gpu_on_sale(client, thirty_gpus):
    url = "/guides/a100-copy-22/llm-serving/pilot/"
    html = client.get(url).content.decode()
    assert quote_options(html) == table_rows(html)
    assert '<option value="a100-copy-22" selected>' in html
    assert "a100-copy-21" not in quote_options(html)
    response = client.post(url + "quote/", quote_form(gpu="a100-copy-21"))
    assert response.status_code == 302
    assert QuoteRequest.objects.get().gpu.slug == "a100-copy-21"
    refused = client.post(url + "quote/", quote_form("key-2", gpu="tpu-v5", contact_email="nope"))
    assert refused.status_code == 422
    assert '<option value="tpu-v5" selected>' in refused.content.decode()  # the customer's choice stays
    off_sale = client.post(url + "quote/", quote_form("key-3", gpu="tpu-v5"))
    assert off_sale.status_code == 422
    assert "This GPU model is not on sale." in off_sale.content.decode()
    assert QuoteRequest.objects.count() == 1

"""Guide figures: every number comes from the estimator, the live catalog and prices; the link reproduces it."""

from urllib.parse import parse_qsl, urlsplit

import pytest

from gpurent.catalog.models import GpuModel
from gpurent.catalog.selectors import gpu_list
from gpurent.core.formats import bytes_text
from gpurent.guides.decision import inputs_for
from gpurent.guides.enums import GuideWorkload, Scope
from gpurent.guides.guide import Guide
from gpurent.guides.report import guide_report
from gpurent.guides.scenarios import SCENARIOS
from gpurent.sizing.calculation import size_workload
from gpurent.sizing.fit.table import card_bytes, plan_with_cards
from gpurent.sizing.forms.estimate import EstimateForm
from vramcalc.capacity import kv_token_capacity

from .conftest import make_tight

pytestmark = pytest.mark.django_db


def guide(slug: str, workload: GuideWorkload, scope: Scope) -> Guide:
    return Guide(GpuModel.objects.get(slug=slug), workload, scope)


@pytest.mark.parametrize("workload", list(GuideWorkload))
def test_scenarios_every_scope_and_condition_is_a_valid_estimate(workload):
    spec = SCENARIOS[workload]
    assert set(spec.scopes) == set(Scope)
    for scope in Scope:
        inputs_for(spec.fields_for(scope))
        for condition in spec.conditions:
            inputs_for(spec.fields_for(scope, condition))


def test_guide_report_every_guide_of_the_demo_catalog_computes(demo_catalog):
    gpus = list(gpu_list())
    for gpu in gpus:
        for workload in GuideWorkload:
            for scope in Scope:
                report = guide_report(Guide(gpu, workload, scope), gpus)
                assert report.findings
                assert len(report.rows) == len(gpus)
                assert all(column.sizing is not None for column in report.columns)


def test_guide_report_fit_row_is_the_estimators_own_row(demo_catalog):
    page = guide("a100-80gb", GuideWorkload.VISION_FINETUNING, Scope.PROOF_OF_CONCEPT)
    report = guide_report(page, list(gpu_list()))
    direct = size_workload(inputs_for(page.fields))
    row = next(r for r in direct.fit if r.gpu.slug == "a100-80gb")
    assert (report.row.fits, report.row.lots, report.row.peak_bytes, report.row.headroom_bytes) == (
        row.fits,
        row.lots,
        row.peak_bytes,
        row.headroom_bytes,
    )
    assert report.row.fits
    assert report.row.lots == 1


def test_guide_report_serving_concurrency_is_the_kv_capacity_of_the_fitted_plan(demo_catalog):
    page = guide("h100-80gb", GuideWorkload.LLM_SERVING, Scope.PRODUCTION)
    report = guide_report(page, list(gpu_list()))
    assert report.row.fits
    assert report.row.cards is not None
    assert report.concurrency is not None
    fitted = plan_with_cards(inputs_for(page.fields), report.row.cards)
    assert fitted is not None
    capacity = kv_token_capacity(fitted, card_bytes(page.gpu))
    assert (report.concurrency.kind, report.concurrency.value, report.concurrency.tokens) == (
        "kv",
        capacity.sequences,
        capacity.tokens,
    )
    assert report.concurrency.context == 8192


def test_guide_report_follows_live_prices(demo_catalog):
    GpuModel.objects.filter(slug="a100-80gb").update(price_3d_cents=12_345, price_7d_cents=23_456)
    report = guide_report(guide("a100-80gb", GuideWorkload.FULL_FINETUNING, Scope.PILOT), list(gpu_list()))
    assert report.term is not None
    assert report.term_price is not None
    lots = report.row.lots or 0
    assert report.term_price.cents == {3: 12_345, 7: 23_456, 30: 79_000}[report.term.value] * lots
    a100 = next(line for line in report.rows if line.gpu.slug == "a100-80gb")
    fitting = [cell for cell, _best in a100.cells if cell is not None and cell.fits]
    assert fitting
    assert all(cell.week_price is not None and cell.week_price.cents == 23_456 * (cell.lots or 0) for cell in fitting)


def test_decision_table_marks_the_cheapest_fitting_option_of_each_column(demo_catalog):
    report = guide_report(guide("l40s-48gb", GuideWorkload.LLM_SERVING, Scope.PILOT), list(gpu_list()))
    for index, column in enumerate(report.columns):
        best = [line.gpu.slug for line in report.rows if line.cells[index][1]]
        cheapest = column.cheapest
        assert best == ([cheapest.gpu.slug] if cheapest else [])


def test_guide_report_without_a_throughput_assumption_has_no_duration(demo_catalog):
    unknown = GpuModel.objects.get(slug="a100-80gb")
    unknown.slug = "a100-80gb-pcie"
    unknown.save()
    # The proof of concept (an 8B LoRA) fits one 80 GB card by far, so the row fits whatever the range's width.
    report = guide_report(Guide(unknown, GuideWorkload.LORA_FINETUNING, Scope.PROOF_OF_CONCEPT), list(gpu_list()))
    assert report.row.fits
    assert report.duration is None
    assert report.term is None


def test_guide_report_too_big_for_a_card_says_so_and_names_what_fits(demo_catalog):
    report = guide_report(guide("rtx-4090-24gb", GuideWorkload.LLM_SERVING, Scope.PRODUCTION), list(gpu_list()))
    assert not report.row.fits
    assert report.concurrency is None
    assert report.duration is None
    assert report.findings[0].startswith("RTX 4090 24GB does not fit this workload within 10 lots")
    assert any("Another option is cheaper" in finding for finding in report.findings)


def test_guide_daily_load_beyond_one_configuration_plans_replicas(demo_catalog):
    report = guide_report(guide("a100-80gb", GuideWorkload.LLM_SERVING, Scope.PRODUCTION), list(gpu_list()))
    assert report.duration is not None
    assert report.duration.per_day
    assert report.duration.replicas == -int(-report.duration.hours // 24)
    if report.duration.replicas > 1:
        assert report.replica_lots == report.duration.replicas * (report.row.lots or 0)
        assert any("configurations" in finding for finding in report.findings)


@pytest.mark.parametrize("workload", list(GuideWorkload))
def test_estimator_link_reopens_the_same_inputs(demo_catalog, workload):
    page = guide("h100-80gb", workload, Scope.PILOT)
    query = dict(parse_qsl(urlsplit(page.estimator_url).query))
    assert urlsplit(page.estimator_url).path == "/estimate/"
    form = EstimateForm.from_query(query)
    assert form.is_valid(), form.errors
    assert form.cleaned_data["inputs"] == inputs_for(page.fields)


def test_a_cheaper_option_is_priced_on_the_term_the_guide_prices_the_run_at(demo_catalog):
    """The duration prices a training run on its shortest term (often 3 days): another option is compared on that
    same term, never its 7-day price against this card's 3-day one."""
    gpus = list(gpu_list())
    checked = 0
    for gpu in gpus:
        for workload in GuideWorkload:
            report = guide_report(guide(gpu.slug, workload, Scope.PILOT), gpus)
            if report.term is None or report.term == 7:
                continue
            for finding in report.findings:
                if finding.startswith("Another option is cheaper"):
                    assert finding.endswith(f"for {report.term.label}."), finding
                    checked += 1
    assert checked, "no guide priced on a term other than 7 days names a cheaper option in the demo catalog"


def test_a_sold_out_guide_gpu_says_so_and_offers_the_closest_option_in_stock(demo_catalog):
    GpuModel.objects.filter(slug="h100-80gb").update(stock_lots=0)
    gpus = list(gpu_list())
    report = guide_report(guide("h100-80gb", GuideWorkload.LORA_FINETUNING, Scope.PROOF_OF_CONCEPT), gpus)
    assert report.row.fits
    assert "H100 80GB is sold out right now." in report.findings
    assert not any("Only 0 lots" in finding for finding in report.findings)
    instead = [finding for finding in report.findings if finding.startswith("In stock instead: ")]
    assert len(instead) == 1
    assert report.row.week_price is not None
    own = report.row.week_price.cents
    prices = {row.gpu.name: row.week_price.cents for row in report.sizing.fitting if row.in_stock and row.week_price}
    closest = min(prices, key=lambda name: abs(prices[name] - own))
    assert closest in instead[0]
    assert "H100" not in instead[0]


def test_a_tight_guide_names_the_expected_peak_the_high_end_and_times_the_offered_configuration(demo_catalog):
    """Only the expected peak fits: the page says tight (never "does not fit" beside a peak that fits), with the high
    end it misses by, and still times and prices the configuration the estimator offers."""
    make_tight("h100-80gb", GuideWorkload.LORA_FINETUNING, Scope.PILOT)
    report = guide_report(guide("h100-80gb", GuideWorkload.LORA_FINETUNING, Scope.PILOT), list(gpu_list()))
    row = report.row
    assert row.tight
    assert (row.cards, row.lots) == (1, 1)
    assert row.peak_bytes <= row.usable_bytes < row.peak_high_bytes
    assert report.fixed_cards == 1  # a one-card fine-tune
    assert report.duration is not None
    assert report.term is not None
    first = report.findings[0]
    assert first.startswith("It is tight on 1 lot of H100 80GB: the expected peak, ")
    assert bytes_text(row.peak_bytes) in first
    assert bytes_text(row.peak_high_bytes) in first
    assert bytes_text(-row.headroom_bytes) in first
    assert not any("does not fit" in finding for finding in report.findings)
    # Where the whole range fits instead: a cheaper option, else the cheapest that holds the whole range.
    whole = [f for f in report.findings if f.startswith(("Another option is cheaper", "The whole range fits on "))]
    assert len(whole) == 1
    assert "H100" not in whole[0]


def test_a_one_card_recipe_that_does_not_fit_says_so_without_lots(demo_catalog):
    report = guide_report(guide("rtx-4090-24gb", GuideWorkload.LORA_FINETUNING, Scope.PILOT), list(gpu_list()))
    assert report.row.cards is None
    assert report.fixed_cards == 1
    assert report.concurrency is None
    assert report.duration is None
    assert report.findings[0].startswith("RTX 4090 24GB does not fit this workload: it runs on 1 card and more cards ")
    assert not any("10 lots" in finding for finding in report.findings)

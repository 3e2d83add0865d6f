"""Every guide's prose numbers agree with its own decision table, for every GPU, workload and scope.

The figures ("Batch of 256 per card", "98 requests at 8,192 tokens") and the findings ("With “224 px, batch 256” it no
longer fits") are computed apart from the table; where the table has a column that asks the same question (the
scope's inputs with only the batch or the number of requests at once changed), both must give the same answer.
"""

import pytest

from gpurent.catalog.selectors import gpu_list
from gpurent.guides.enums import GuideWorkload, Scope
from gpurent.guides.guide import Guide
from gpurent.guides.report import MAX_BATCH, GuideReport, guide_report

pytestmark = pytest.mark.django_db

# The field a column changes that the "How concurrent?" figure answers for, per kind of figure.
CONCURRENCY_FIELD = {"batch": "batch_size", "kv": "concurrent"}


def every_report() -> list[GuideReport]:
    gpus = list(gpu_list())
    return [
        guide_report(Guide(gpu, workload, scope), gpus) for gpu in gpus for workload in GuideWorkload for scope in Scope
    ]


def same_question_columns(report: GuideReport, field: str):
    """The columns whose inputs are the scope's own with at most `field` changed, with that field's value."""
    spec, scope = report.guide.spec, report.guide.scope
    base = spec.fields_for(scope)
    for column in report.columns:
        changed = {key for key, value in spec.fields_for(scope, column.condition).items() if base.get(key) != value}
        if changed <= {field}:
            yield column, int(spec.fields_for(scope, column.condition)[field])


def table_fits_on_the_same_cards(report: GuideReport, column) -> bool:
    cell = column.row_for(report.guide.gpu)
    return cell is not None and cell.fits and cell.cards is not None and cell.cards <= (report.row.cards or 0)


def test_the_concurrency_figure_agrees_with_the_table(demo_catalog):
    disagreements, compared = [], 0
    for report in every_report():
        figure = report.concurrency
        if figure is None:
            continue
        for column, asked in same_question_columns(report, CONCURRENCY_FIELD[figure.kind]):
            if figure.capped and asked > MAX_BATCH:
                continue
            compared += 1
            prose = asked <= figure.value
            if prose != table_fits_on_the_same_cards(report, column):
                disagreements.append(f"{report.guide.url}: figure {figure.value}, column {column.condition.label}")
    assert compared > 20  # the comparison runs on many guides, not on none
    assert not disagreements, disagreements


def test_the_findings_name_exactly_the_columns_where_the_gpu_does_not_fit(demo_catalog):
    for report in every_report():
        if not report.row.fits:
            continue
        for column in report.columns:
            cell = column.row_for(report.guide.gpu)
            named = any(finding.startswith(f"With “{column.condition.label}” ") for finding in report.findings)
            assert named == (cell is None or not cell.fits), (report.guide.url, column.condition.label)

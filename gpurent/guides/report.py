"""A guide's numbers, computed with the estimator against the live catalog and prices (DESIGN §8).

Nothing here is written by hand: the fit, the lots, the headroom and the prices come from
`gpurent.sizing.calculation.size_workload` (the estimator's own catalog table), the KV-cache capacity from
`vramcalc.capacity.kv_token_capacity`, and the duration from `assumptions.py` (labelled as an assumption).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from gpurent.catalog.enums import Term
from gpurent.catalog.models import GpuModel
from gpurent.catalog.pricing import quote_for
from gpurent.core.caching.fragments import cached, fragment_key, rows_version
from gpurent.core.money import Usd
from gpurent.sizing.calculation import Sizing, size_workload
from gpurent.sizing.fit.table import GpuFit, card_bytes, fits_on_card, plan_with_cards, usable_pct
from vramcalc import EstimateInput, InvalidInput, estimate
from vramcalc.capacity import fixed_card_count, kv_token_capacity

from .assumptions import Duration, duration_for, work_flops
from .decision import ConditionColumn, DecisionRow, decision_columns, decision_rows, inputs_for, rows_shown
from .findings import findings_for
from .guide import Guide

__all__ = ["SCHEDULE_MARGIN_PCT", "Concurrency", "GuideReport", "guide_report", "guide_report_cached"]

# Extra time planned on top of the computed run for setup, evaluation and restarts (an assumption).
SCHEDULE_MARGIN_PCT = 25
# The largest batch the "how concurrent" search tries (powers of two up to it).
MAX_BATCH = 1024


@dataclass(frozen=True)
class Concurrency:
    """How much work one configuration holds at once.

    Serving (`kind == "kv"`): `value` full-context requests fit in the KV cache (`tokens` tokens of it).
    Otherwise (`kind == "batch"`): `value` is the largest power-of-two batch per card that still fits by the
    decision table's rule (`gpurent.sizing.fit.table.fits_on_card`);
    `capped` when the search stopped at `MAX_BATCH` rather than at the memory limit.
    """

    kind: str
    value: int
    tokens: int = 0
    context: int = 0
    capped: bool = False


@dataclass(frozen=True)
class GuideReport:
    """Everything a guide page shows that is a number.

    Attributes:
        guide: the page.
        sizing: the estimate of the scope's workload and its catalog table.
        row: this GPU's row of that table.
        concurrency: how much it holds at once on the offered configuration (None when nothing is offered, or
            when a tight configuration holds not even a batch of one at the high end).
        duration: the assumed run time on the offered configuration, fitting or tight (None when nothing is
            offered or the GPU has no throughput assumption).
        job: the scope's job size as numbers (see `scenarios.Job`).
        term: for a training run, the shortest term that covers it with the margin; None otherwise.
        term_price: the price of the fitted lots for `term`.
        columns: the decision table's conditions; rows: the GPUs it shows (`decision.rows_shown`: all of them
            up to `DECISION_ROWS_SHOWN`, else that many, the guide's own and every column's cheapest included).
        findings: when it fits and when another option is better, as sentences.
        gpus_on_sale: how many GPUs the table was computed against (`rows` may show fewer).
    """

    guide: Guide
    sizing: Sizing
    row: GpuFit
    concurrency: Concurrency | None
    duration: Duration | None
    job: dict[str, int]
    term: Term | None
    term_price: Usd | None
    columns: list[ConditionColumn]
    rows: list[DecisionRow]
    findings: list[str]
    gpus_on_sale: int

    @property
    def rows_left_out(self) -> int:
        """GPUs on sale the decision table does not show."""
        return self.gpus_on_sale - len(self.rows)

    @property
    def margin_pct(self) -> int:
        return SCHEDULE_MARGIN_PCT

    @property
    def usable_pct(self) -> int:
        return self.sizing.usable_pct

    @property
    def fixed_cards(self) -> int | None:
        """The card count the recipe keeps (`vramcalc.capacity.fixed_card_count`: a one-card fine-tune, DDP
        replicas), None when more cards can hold it: "not within 10 lots" means nothing to a one-card recipe."""
        return _fixed_cards(self.sizing.inputs)

    @property
    def job_kind(self) -> str:
        return self.guide.spec.job_kind

    @property
    def response_seconds(self) -> float | None:
        """For a daily load (serving, images): the assumed compute time of one request or image on the fitted
        configuration, before any queueing; derived from the same throughput assumption as the duration."""
        if self.duration is None or not self.duration.per_day:
            return None
        count = self.job["requests"] if self.job_kind == "serving" else self.job["images"]
        return self.duration.hours * 3600 / count if count else None

    @property
    def replica_lots(self) -> int | None:
        """For a daily load: the lots of all the configurations it needs."""
        if self.duration is None or not self.duration.per_day or self.row.lots is None:
            return None
        return self.duration.replicas * self.row.lots


def _fixed_cards(inp: EstimateInput) -> int | None:
    return inp.parallel.cards if fixed_card_count(inp) else None


def _concurrency(inp: EstimateInput, gpu: GpuModel, row: GpuFit, job_kind: str) -> Concurrency | None:
    if row.cards is None:
        return None
    fitted = plan_with_cards(inp, row.cards)
    if fitted is None:
        return None
    size = card_bytes(gpu)
    if job_kind == "serving":
        capacity = kv_token_capacity(fitted, size)
        return Concurrency("kv", capacity.sequences, capacity.tokens, fitted.context_tokens)
    # The decision table's rule (the high end of the peak), so that "batch of N" never contradicts a column.
    best, batch = 0, 1
    while batch <= MAX_BATCH:
        try:
            result = estimate(dataclasses.replace(fitted, batch_size=batch))
        except InvalidInput:
            break
        if not fits_on_card(result, size, usable_pct(fitted)):
            break
        best, batch = batch, batch * 2
    if best == 0:  # a tight configuration: even one sample fits only at the expected peak
        return None
    return Concurrency("batch", best, capped=best == MAX_BATCH)


def _job_numbers(guide: Guide) -> dict[str, int]:
    job = guide.spec.scopes[guide.scope].job
    return {
        "requests": job.requests_per_day,
        "input_tokens": job.input_tokens,
        "output_tokens": job.output_tokens,
        "tokens": job.tokens or (job.input_tokens + job.output_tokens),
        "images": job.images,
        "epochs": job.epochs,
        "steps": job.steps,
    }


def _duration(guide: Guide, inp: EstimateInput, row: GpuFit, job: dict[str, Any]) -> Duration | None:
    if row.cards is None:
        return None
    kind = guide.spec.job_kind
    flops = work_flops(
        inp,
        kind,
        requests=job["requests"],
        tokens=job["tokens"],
        images=job["images"],
        epochs=job["epochs"],
        steps=job["steps"],
    )
    return duration_for(guide.gpu.slug, row.cards, flops, kind)


def _term(duration: Duration | None, row: GpuFit) -> tuple[Term | None, Usd | None]:
    if duration is None or duration.per_day or row.lots is None:
        return None, None
    planned_hours = duration.hours * (100 + SCHEDULE_MARGIN_PCT) / 100
    for term in sorted(Term, key=lambda t: t.value):
        if term.value * 24 >= planned_hours:
            return term, quote_for(row.gpu, term_days=term.value, lots=row.lots).total
    return None, None


def guide_report(guide: Guide, gpus: list[GpuModel]) -> GuideReport:
    """Compute the guide's figures against `gpus` (the catalog on sale, which includes `guide.gpu`).

    Raises:
        EstimateInputInvalid: the scope's own fields cannot be estimated (a data error; tests prevent it).
    """
    inp = inputs_for(guide.fields)
    sizing = size_workload(inp, gpus)
    row = next(r for r in sizing.fit if r.gpu.pk == guide.gpu.pk)
    job = _job_numbers(guide)
    duration = _duration(guide, inp, row, job)
    term, term_price = _term(duration, row)
    columns = decision_columns(guide, gpus)
    concurrency = _concurrency(inp, guide.gpu, row, guide.spec.job_kind)
    return GuideReport(
        guide=guide,
        sizing=sizing,
        row=row,
        concurrency=concurrency,
        duration=duration,
        job=job,
        term=term,
        term_price=term_price,
        columns=columns,
        rows=rows_shown(decision_rows(guide, gpus, columns)),
        findings=findings_for(
            guide=guide,
            sizing=sizing,
            row=row,
            columns=columns,
            duration=duration,
            term=term,
            fixed_cards=_fixed_cards(inp),
        ),
        gpus_on_sale=len(gpus),
    )


def guide_report_cached(guide: Guide, gpus: list[GpuModel]) -> GuideReport:
    """`guide_report`, computed once per catalog version: the key holds every GPU's id, `updated_at` and stock
    (any edit, price change, stock move, GPU added or taken off sale makes a new key), the language of the
    findings and the code version (gpurent/core/caching/fragments.py)."""
    key = fragment_key("guide-report", guide.gpu.pk, guide.workload.value, guide.scope.value, rows_version(gpus))
    return cached(key, lambda: guide_report(guide, gpus))

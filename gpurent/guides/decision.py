"""The decision table: the guide's workload under several conditions, fitted against the whole catalog.

Each column is one condition (e.g. "32k context, 16 at once") sized with the estimator; each row is a GPU on
sale; each cell is that GPU's smallest fitting configuration and its price, or nothing when none fits. A large
catalog shows `DECISION_ROWS_SHOWN` rows of it (`rows_shown`, decision 0351).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise

from gpurent.catalog.models import GpuModel
from gpurent.sizing.calculation import Sizing, size_workload
from gpurent.sizing.errors import EstimateInputInvalid
from gpurent.sizing.fit.table import GpuFit
from gpurent.sizing.forms.estimate import EstimateForm
from vramcalc import EstimateInput

from .guide import Guide
from .scenarios import Condition

__all__ = [
    "DECISION_ROWS_SHOWN",
    "ConditionColumn",
    "DecisionRow",
    "decision_columns",
    "decision_rows",
    "inputs_for",
    "rows_shown",
]

# The most GPUs a decision table shows (issue 16: a guide page stays under 150 KB whatever the catalog's size).
# Every column's cheapest row always fits in it: a workload has at most 4 conditions (a test holds it under 12).
DECISION_ROWS_SHOWN = 12


def inputs_for(fields: dict[str, str]) -> EstimateInput:
    """Engine inputs from estimator fields, through the estimator's own form (so the link reproduces them).

    Raises:
        EstimateInputInvalid: the fields do not make a valid estimate (the first error is in the message).
    """
    form = EstimateForm.from_query(fields)
    if not form.is_valid():
        name, errors = next(iter(form.errors.items()))
        raise EstimateInputInvalid(name, str(errors[0]))
    inputs: EstimateInput = form.cleaned_data["inputs"]
    return inputs


@dataclass(frozen=True)
class ConditionColumn:
    """One condition of the decision table and its catalog fit (None with `error` when it cannot be sized)."""

    condition: Condition
    sizing: Sizing | None
    error: str = ""

    def row_for(self, gpu: GpuModel) -> GpuFit | None:
        if self.sizing is None:
            return None
        return next((row for row in self.sizing.fit if row.gpu.pk == gpu.pk), None)

    @property
    def cheapest(self) -> GpuFit | None:
        return None if self.sizing is None else self.sizing.cheapest


@dataclass(frozen=True)
class DecisionRow:
    """One GPU across every condition: each cell is its fit (or None), `best` marks the cheapest per column.
    `labels` are the columns' conditions, in order (a phone shows each cell under its condition's name)."""

    gpu: GpuModel
    cells: list[tuple[GpuFit | None, bool]]
    is_current: bool
    labels: tuple[Promise, ...] = ()

    @property
    def labelled_cells(self) -> list[tuple[Promise, GpuFit | None, bool]]:
        """(condition, fit, best) for each column."""
        return [(label, cell, best) for label, (cell, best) in zip(self.labels, self.cells, strict=True)]

    @property
    def is_best(self) -> bool:
        """Whether it holds the cheapest cell of some column."""
        return any(best for _cell, best in self.cells)

    @property
    def lowest_price_cents(self) -> int | None:
        """The lowest 7-day price among its fitting cells (None when nothing fits)."""
        prices = [cell.week_price.cents for cell, _best in self.cells if cell and cell.fits and cell.week_price]
        return min(prices, default=None)


def decision_columns(guide: Guide, gpus: list[GpuModel]) -> list[ConditionColumn]:
    """Size the guide's workload under each of its conditions; a condition the engine refuses keeps its error."""
    columns = []
    for condition in guide.spec.conditions:
        try:
            sizing = size_workload(inputs_for(guide.spec.fields_for(guide.scope, condition)), gpus)
        except EstimateInputInvalid as error:
            columns.append(ConditionColumn(condition, None, error.message))
        else:
            columns.append(ConditionColumn(condition, sizing))
    return columns


def decision_rows(guide: Guide, gpus: list[GpuModel], columns: list[ConditionColumn]) -> list[DecisionRow]:
    """One row per GPU, in the order of `gpus`; in each column the cheapest fitting cell (7-day price) is marked as
    the best. Each column's fit is indexed once, so the table is linear in the GPUs."""
    fits = [{row.gpu.pk: row for row in column.sizing.fit} if column.sizing else {} for column in columns]
    cheapest = [column.cheapest.gpu.pk if column.cheapest else None for column in columns]
    labels = tuple(column.condition.label for column in columns)
    rows = []
    for gpu in gpus:
        cells = [(fit.get(gpu.pk), best == gpu.pk and gpu.pk in fit) for fit, best in zip(fits, cheapest, strict=True)]
        rows.append(DecisionRow(gpu, cells, gpu.pk == guide.gpu.pk, labels))
    return rows


def rows_shown(rows: list[DecisionRow], limit: int = DECISION_ROWS_SHOWN) -> list[DecisionRow]:
    """`rows` as they are when they are at most `limit`; otherwise `limit` of them, in their own (catalog) order:
    the guide's own GPU, every row holding a column's cheapest cell, then the rows whose lowest fitting 7-day price
    is lowest (rows where nothing fits last, ties in catalog order). Taken in that order of priority, so the bound
    holds even if there were more columns than rows shown."""
    if len(rows) <= limit:
        return rows
    never = 2**63

    def priority(index: int) -> tuple[int, int, int]:
        row = rows[index]
        price = row.lowest_price_cents
        return (0 if row.is_current else 1 if row.is_best else 2, never if price is None else price, index)

    kept = sorted(range(len(rows)), key=priority)[:limit]
    return [rows[index] for index in sorted(kept)]

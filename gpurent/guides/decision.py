"""The decision table: the guide's workload under several conditions, fitted against the whole catalog.

Each column is one condition (e.g. "32k context, 16 at once") sized with the estimator; each row is a GPU on
sale; each cell is that GPU's smallest fitting configuration and its price, or nothing when none fits.
"""

from __future__ import annotations

from dataclasses import dataclass

from gpurent.catalog.models import GpuModel
from gpurent.sizing.calculation import Sizing, size_workload
from gpurent.sizing.catalog_fit import GpuFit
from gpurent.sizing.errors import EstimateInputInvalid
from gpurent.sizing.forms import EstimateForm
from vramcalc import EstimateInput

from .guide import Guide
from .scenarios import Condition

__all__ = ["ConditionColumn", "DecisionRow", "decision_columns", "decision_rows", "inputs_for"]


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
    """One GPU across every condition: each cell is its fit (or None), `best` marks the cheapest per column."""

    gpu: GpuModel
    cells: list[tuple[GpuFit | None, bool]]
    is_current: bool


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
    """One row per GPU; in each column the cheapest fitting cell (7-day price) is marked as the best."""
    rows = []
    for gpu in gpus:
        cells = []
        for column in columns:
            cell, cheapest = column.row_for(gpu), column.cheapest
            cells.append((cell, cell is not None and cheapest is not None and cheapest.gpu.pk == gpu.pk))
        rows.append(DecisionRow(gpu, cells, gpu.pk == guide.gpu.pk))
    return rows

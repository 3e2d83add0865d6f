"""Comparing two runs of an entry: what changed between them, and whether a difference can be attributed.

The *variables* of a run are what someone chose before running it: code version, environment, each library
version, each parameter, each seed, each determinism setting and the reproducibility definition. The
*results* (measurements, outcome, checkpoint) are what the comparison explains. When more than one variable
changed, any difference in the results cannot be attributed to a single factor, and the comparison says so.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

from gpurent.core.formats import bytes_text

from .enums import Phase
from .models import Measurement, Run
from .observations import measured_text

__all__ = ["Change", "RunComparison", "runs_compare"]

_MISSING = "—"

# (attribute, label of the group) of the key/value variables; each key is one variable.
_KEYED = [
    ("versions", _("Library version")),
    ("parameters", _("Parameter")),
    ("seeds", _("Seed")),
    ("determinism", _("Determinism")),
]


@dataclass(frozen=True, slots=True)
class Change:
    """One variable or result that differs: `label` ("Parameter batch"), the value in run A and in run B."""

    label: str
    before: str
    after: str


@dataclass(frozen=True, slots=True)
class RunComparison:
    """Run `a` against run `b`: the changed variables, the differing results, and the attribution verdict."""

    a: Run
    b: Run
    variables: tuple[Change, ...]
    results: tuple[Change, ...]

    @property
    def attributable(self) -> bool:
        """True when exactly one variable changed: a difference in the results can be put down to it."""
        return len(self.variables) == 1


def _as_text(value: object) -> str:
    if value is None or value == "":
        return _MISSING
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def _variables(a: Run, b: Run) -> list[Change]:
    changes: list[Change] = []
    for attribute, label in [("code_version", _("Code version")), ("environment", _("Environment"))]:
        if getattr(a, attribute) != getattr(b, attribute):
            changes.append(Change(str(label), _as_text(getattr(a, attribute)), _as_text(getattr(b, attribute))))
    for attribute, group in _KEYED:
        left, right = getattr(a, attribute), getattr(b, attribute)
        for key in sorted(set(left) | set(right)):
            if left.get(key) != right.get(key):
                changes.append(Change(f"{group} {key}", _as_text(left.get(key)), _as_text(right.get(key))))
    definition_a = (a.get_reproducibility_display(), a.tolerance)
    definition_b = (b.get_reproducibility_display(), b.tolerance)
    if definition_a != definition_b:
        changes.append(Change(str(_("Reproducibility")), _definition(a), _definition(b)))
    return changes


def _definition(run: Run) -> str:
    label = str(run.get_reproducibility_display())
    return f"{label} ({run.tolerance})" if run.tolerance else label


def _measurement(run: Run, phase: str) -> Measurement | None:
    return next((m for m in run.measurements.all() if m.phase == phase), None)


def _results(a: Run, b: Run) -> list[Change]:
    """What differs in the runs' results, compared as the run page writes them (value and unit or metric): two
    measurements that read the same there (12.344 and 12.341 ms both "12,34") are not listed as a change."""
    changes: list[Change] = []
    if a.outcome != b.outcome:
        changes.append(Change(str(_("Outcome")), str(a.get_outcome_display()), str(b.get_outcome_display())))
    if a.checkpoint != b.checkpoint:
        changes.append(Change(str(_("Checkpoint")), str(a.get_checkpoint_display()), str(b.get_checkpoint_display())))
    for phase in Phase:
        ma, mb = _measurement(a, phase), _measurement(b, phase)
        for label, show in [
            (_("peak memory (highest GPU)"), _peak),
            (_("throughput"), _throughput),
            (_("latency (ms)"), _latency),
            (_("quality"), _quality),
        ]:
            left, right = show(ma), show(mb)
            if left != right:
                changes.append(Change(f"{phase.label}: {label}", left, right))
    return changes


# A measurement as the run page writes it (run_detail.html): numbers in the reader's language, with the unit or
# metric the run was recorded with (QA walk 2: "1830.5" without "tokens/s" on a Turkish page).
def _peak(measurement: Measurement | None) -> str:
    value = measurement.peak_bytes if measurement else None
    return bytes_text(value) if isinstance(value, int) else _MISSING


def _throughput(measurement: Measurement | None) -> str:
    if measurement is None or measurement.throughput is None:
        return _MISSING
    return f"{measured_text(measurement.throughput)} {measurement.throughput_unit}".strip()


def _latency(measurement: Measurement | None) -> str:
    return measured_text(measurement.latency_ms) if measurement else _MISSING


def _quality(measurement: Measurement | None) -> str:
    if measurement is None or measurement.quality_value is None:
        return _MISSING
    value = measured_text(measurement.quality_value)
    return f"{measurement.quality_metric} = {value}" if measurement.quality_metric else value


def runs_compare(a: Run, b: Run) -> RunComparison:
    """What differs between two runs of the same entry (their measurements prefetched)."""
    return RunComparison(a=a, b=b, variables=tuple(_variables(a, b)), results=tuple(_results(a, b)))

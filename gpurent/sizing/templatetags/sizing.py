"""Template helpers of the estimator: byte formatting and the memory chart."""

from __future__ import annotations

import re
from typing import Any

from django import template
from django.utils.translation import gettext

from gpurent.core.formats import bytes_text, usd_text
from gpurent.core.money import Usd

from ..calculation import Sizing
from ..fit.chart import WIDTH, chart_rows, component_css
from ..texts.caveats import caveat_text, likely_size, short_name, sized
from ..texts.components import component_assumption, component_label, estimate_notes
from ..texts.engine import render
from ..texts.formulas import formula_text as _formula_text

register = template.Library()


@register.filter
def human_bytes(value: int | None) -> str:
    """Bytes in binary units for people: "14.96 GiB" (negative values keep their sign)."""
    if value is None:
        return ""
    return bytes_text(int(value))


@register.filter
def caveat(note: Any) -> str:
    """An engine caveat in the customer's language."""
    return caveat_text(note)


@register.filter
def sized_not_modelled(result: Any) -> list[dict[str, Any]]:
    """The effects not modelled whose likely size the estimate states."""
    return sized(result.get("not_modelled") if isinstance(result, dict) else None)


@register.filter
def effect_name(note: Any) -> str:
    """A sized effect's short name in the customer's language."""
    return short_name(note)


@register.filter
def effect_size(note: Any) -> str:
    """A sized effect's likely size and direction in the customer's language ("likely up to 1.2 GiB more")."""
    return likely_size(note) if isinstance(note, dict) and note.get("high_bytes") else ""


@register.filter
def range_meaning(result: Any) -> str:
    """What the estimate's range means, in the customer's language (empty for an estimate saved before 0.3.0)."""
    found = result.get("range") if isinstance(result, dict) else None
    if not isinstance(found, dict) or not found.get("meaning"):
        return ""
    return render(found.get("meaning_text")) or str(found["meaning"])


@register.filter
def label_text(component: Any) -> str:
    """A breakdown component's label in the customer's language."""
    return component_label(component)


@register.filter
def assumption_text(component: Any) -> str:
    """A breakdown component's assumption in the customer's language."""
    return component_assumption(component)


@register.filter
def formula_text(formula: Any) -> str:
    """A breakdown component's formula with its words in the customer's language (numbers stay notation)."""
    return _formula_text(str(formula or ""))


@register.filter
def notes_text(result: Any) -> list[str]:
    """The notes on a whole estimate in the customer's language."""
    return estimate_notes(result)


@register.filter
def usd_from_api(value: str | None) -> str:
    """A stored API amount ("1480.00") as the shop shows money ("$1,480")."""
    if not value:
        return ""
    return usd_text(Usd.parse(str(value)), short=True)


@register.filter
def segment_class(index: int) -> str:
    """The colour class of the `index`-th component (0-based), shared by the chart and its legend."""
    return component_css(int(index))


@register.filter
def signed_pct(value: float | None) -> str:
    """ "+4.2 %" / "−3.0 %" for an estimate's error against a measurement."""
    if value is None:
        return ""
    sign = "+" if value >= 0 else "−"
    return f"{sign}{abs(value):.1f} %"


# The engine's version as stored with each estimate (vramcalc/version.py): "vramcalc 0.2.3 (formulas 2026-12d, ranges)".
_ENGINE = re.compile(r"vramcalc (?P<version>[\w.+-]+) \(formulas (?P<revision>[\w.-]+)(?P<ranges>, ranges)?\)")


@register.filter
def engine_text(engine_version: str) -> str:
    """The engine that made an estimate, in the reader's language: "vramcalc 0.2.3, fórmulas 2026-12d (con
    rangos)". The stored string stays as the engine wrote it (the API and CSV give it whole); one this version
    cannot read is shown as stored."""
    found = _ENGINE.fullmatch(str(engine_version))
    if found is None:
        return str(engine_version)
    values = {"version": found["version"], "revision": found["revision"]}
    if found["ranges"]:
        # Translators: the estimator's engine and the revision of its formulas; "ranges": each number has a range.
        return gettext("vramcalc %(version)s, formulas %(revision)s (with ranges)") % values
    return gettext("vramcalc %(version)s, formulas %(revision)s") % values


@register.inclusion_tag("sizing/partials/chart.html")
def memory_chart(sizing: Sizing) -> dict[str, Any]:
    """Stacked bars of the per-card peak against each catalog card (inline SVG, no inline style)."""
    return {"bars": chart_rows(sizing), "width": WIDTH, "sizing": sizing}

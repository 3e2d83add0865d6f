"""Template helpers of the estimator: byte formatting and the memory chart."""

from __future__ import annotations

import re
from typing import Any

from django import template
from django.utils.translation import gettext

from gpurent.core.formats import bytes_range_text, bytes_text, usd_text
from gpurent.core.money import Usd

from ..calculation import Sizing
from ..fit.chart import WIDTH, chart_rows, segment_class
from ..texts.caveats import caveat_text, effect_name, effect_size, sized_not_modelled
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
def range_low(low: int | None, high: int | None) -> str:
    """The low end of a range written beside its high end: in the high end's unit ("0.50 GiB" before "1.46 GiB")
    where it reads at least 0.10 in it (`bytes_range_text`)."""
    if low is None:
        return ""
    if high is None:
        return bytes_text(int(low))
    return bytes_range_text(int(low), int(high))[0]


@register.filter
def unbroken(text: str) -> str:
    """The text with no-break spaces: a figure inside a hint that wraps ("up to 30.35 GiB") keeps its unit."""
    return text.replace(" ", "\u00a0")


# The engine's caveats, the breakdown's labels, assumptions and notes, and the chart's colours, under the names
# their modules give them (`texts.caveats`, `texts.components`, `fit.chart`).
register.filter(caveat_text)
register.filter(sized_not_modelled)
register.filter(effect_name)
register.filter(effect_size)
register.filter(component_label)
register.filter(component_assumption)
register.filter(estimate_notes)
register.filter(segment_class)


@register.filter
def range_meaning(result: Any) -> str:
    """What the estimate's range means, in the customer's language (empty for an estimate saved before 0.3.0)."""
    found = result.get("range") if isinstance(result, dict) else None
    if not isinstance(found, dict) or not found.get("meaning"):
        return ""
    return render(found.get("meaning_text")) or str(found["meaning"])


@register.filter
def formula_text(formula: Any) -> str:
    """A breakdown component's formula with its words in the customer's language (numbers stay notation)."""
    return _formula_text(str(formula or ""))


@register.filter
def usd_from_api(value: str | None) -> str:
    """A stored API amount ("1480.00") as the shop shows money ("$1,480")."""
    if not value:
        return ""
    return usd_text(Usd.parse(str(value)), short=True)


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
def engine_label(engine_version: str) -> str:
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

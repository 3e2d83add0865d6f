"""When the guide's GPU fits and when another option is better: sentences computed from the estimator's table.

Each finding compares numbers the page computed (fit, lots, headroom, prices on one term, stock, the decision
table, the assumed duration); none is written by hand for a particular GPU.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from gpurent.catalog.enums import Term
from gpurent.core.formats import bytes_text, usd_text
from gpurent.sizing.calculation import Sizing
from gpurent.sizing.fit.table import GpuFit

from .assumptions import Duration
from .decision import ConditionColumn
from .guide import Guide

__all__ = ["TIGHT_HEADROOM_PCT", "findings_for"]

# Headroom below this share of the usable memory is called tight: a longer prompt or a library update can eat it.
TIGHT_HEADROOM_PCT = 10


def _lots(row: GpuFit) -> str:
    lots = row.lots or 0
    return ngettext("%(lots)d lot of %(gpu)s", "%(lots)d lots of %(gpu)s", lots) % {"lots": lots, "gpu": row.gpu.name}


def _fit_findings(row: GpuFit, fixed_cards: int | None) -> list[str]:
    values = {
        "gpu": row.gpu.name,
        "peak": bytes_text(row.peak_bytes),
        "high": bytes_text(row.peak_high_bytes),
        "short": bytes_text(-row.headroom_bytes),
    }
    if row.cards is None and fixed_cards is not None:
        return [
            ngettext(
                "%(gpu)s does not fit this workload: it runs on %(cards)d card and more cards do not lower its peak; "
                "the high end of the estimated peak is %(high)s, %(short)s more than a card can use.",
                "%(gpu)s does not fit this workload: it runs on %(cards)d cards and more cards do not lower its peak; "
                "the high end of the estimated peak is %(high)s per card, %(short)s more than a card can use.",
                fixed_cards,
            )
            % {**values, "cards": fixed_cards}
        ]
    if row.cards is None:
        return [
            _(
                "%(gpu)s does not fit this workload within 10 lots: the high end of the estimated peak is %(high)s "
                "per card, %(short)s more than a card can use."
            )
            % values
        ]
    if row.tight:
        found = [
            _(
                "It is tight on %(lots)s: the expected peak, %(peak)s per card, fits, but the high end of its range, "
                "%(high)s, is %(short)s more than a card can use. Measure a short run before you rent for a whole "
                "term."
            )
            % {**values, "lots": _lots(row)}
        ]
    else:
        found = [
            _("It fits on %(lots)s with %(free)s of headroom per card.")
            % {"lots": _lots(row), "free": bytes_text(row.headroom_bytes)}
        ]
        if row.headroom_bytes * 100 < row.usable_bytes * TIGHT_HEADROOM_PCT:
            found.append(
                _("The headroom is under %(pct)d %% of the card: longer inputs or a library update can push it over.")
                % {"pct": TIGHT_HEADROOM_PCT}
            )
    if not row.in_stock and row.gpu.stock_lots == 0:
        found.append(_("%(gpu)s is sold out right now.") % {"gpu": row.gpu.name})
    elif not row.in_stock:
        found.append(
            ngettext(
                "Only %(stock)d lot is in stock right now; this configuration needs %(lots)d.",
                "Only %(stock)d lots are in stock right now; this configuration needs %(lots)d.",
                row.gpu.stock_lots,
            )
            % {"stock": row.gpu.stock_lots, "lots": row.lots}
        )
    return found


def _in_stock_instead(row: GpuFit, sizing: Sizing) -> list[str]:
    """When this configuration cannot be rented now, the option in stock that fits and is closest in 7-day
    price (the page offers something to rent instead of a dead end)."""
    if row.in_stock or row.week_price is None:
        return []
    own = row.week_price.cents
    available = [other for other in sizing.fitting if other.in_stock and other.week_price is not None]
    if not available:
        return [_("Nothing else in stock fits this workload right now.")]
    closest = min(available, key=lambda other: abs(other.week_price.cents - own))  # type: ignore[union-attr]
    return [
        _("In stock instead: %(lots)s, %(price)s for 7 days.")
        % {"lots": _lots(closest), "price": usd_text(closest.week_price, short=True)}  # type: ignore[arg-type]
    ]


def _other_options(row: GpuFit, sizing: Sizing, term: Term | None) -> list[str]:
    """Another option that costs less, compared on the term the page prices this run at (the duration's term,
    else 7 days), so a 3-day price is never set against a 7-day one."""
    found = []
    days = int(term or Term.WEEK)
    own = row.prices[days].cents if row.prices else None
    fitting = [other for other in sizing.fitting if other.gpu.pk != row.gpu.pk and other.prices]
    cheaper = [other for other in fitting if own is None or other.prices[days].cents < own]  # type: ignore[index]
    if cheaper or (row.tight and fitting):
        cheapest = min(cheaper or fitting, key=lambda other: other.prices[days].cents)  # type: ignore[index]
        values = {
            "lots": _lots(cheapest),
            "price": usd_text(cheapest.prices[days], short=True),  # type: ignore[index]
            "term": Term(days).label,
        }
        if cheaper:
            found.append(_("Another option is cheaper for this scope: %(lots)s costs %(price)s for %(term)s.") % values)
        else:  # tight here, and every configuration that holds the whole range costs more
            found.append(_("The whole range fits on %(lots)s: %(price)s for %(term)s.") % values)
    if row.fits and (row.cards or 0) > 1:
        single = [other for other in sizing.fitting if other.cards == 1]
        if single:
            found.append(
                _("%(gpu)s holds it on a single card, which avoids splitting the model across cards.")
                % {"gpu": single[0].gpu.name}
            )
    if row.fits and row.cards == 1 and row.gpu.cards_per_lot == 1:
        smaller = [
            other
            for other in sizing.fitting
            if other.cards == 1 and other.gpu.memory_mib_per_card < row.gpu.memory_mib_per_card
        ]
        if smaller:
            found.append(
                _("A card with less memory is enough as well: %(gpu)s fits it on one card.")
                % {"gpu": min(smaller, key=lambda r: r.gpu.memory_mib_per_card).gpu.name}
            )
    return found


def _condition_findings(row: GpuFit, columns: list[ConditionColumn], fixed_cards: int | None) -> list[str]:
    found = []
    for column in columns:
        cell = column.row_for(row.gpu)
        if cell is None or cell.fits:
            continue
        cheapest = column.cheapest
        if cheapest is not None:
            found.append(
                _("With “%(condition)s” it no longer fits; %(lots)s does.")
                % {"condition": column.condition.label, "lots": _lots(cheapest)}
            )
        elif fixed_cards is not None:
            found.append(
                _("With “%(condition)s” nothing in the catalog fits it, and more cards do not help.")
                % {"condition": column.condition.label}
            )
        else:
            found.append(
                _("With “%(condition)s” nothing in the catalog fits within 10 lots.")
                % {"condition": column.condition.label}
            )
    return found


def _duration_findings(guide: Guide, duration: Duration | None, term: Term | None) -> list[str]:
    if duration is None:
        return []
    if duration.per_day and duration.replicas > 1:
        return [
            _(
                "At the assumed load one configuration would be busy %(pct)d %% of the day: plan %(n)d "
                "configurations, or measure your real throughput first."
            )
            % {"pct": duration.busy_share_pct, "n": duration.replicas}
        ]
    if not duration.per_day and term is None:
        return [
            _(
                "The assumed run takes longer than the longest term (30 days) on this configuration: add lots, "
                "shorten the run, or split it into stages with checkpoints."
            )
        ]
    return []


def findings_for(
    *,
    guide: Guide,
    sizing: Sizing,
    row: GpuFit,
    columns: list[ConditionColumn],
    duration: Duration | None,
    term: Term | None,
    fixed_cards: int | None,
) -> list[str]:
    """The page's "when it fits, and when another option is better" sentences, most important first.
    `fixed_cards`: the card count a recipe that cannot use more cards keeps (`GuideReport.fixed_cards`)."""
    found = _fit_findings(row, fixed_cards) + _in_stock_instead(row, sizing) + _other_options(row, sizing, term)
    found += _condition_findings(row, columns, fixed_cards)
    found += _duration_findings(guide, duration, term)
    if guide.gpu.stack == "ROCm":
        found.append(
            _("This card runs ROCm, not CUDA: check that every library of your stack has a ROCm build before you rent.")
        )
    return found

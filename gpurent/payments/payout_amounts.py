"""What a withdrawal should send in its asset, and how far an amount recorded as sent may be from it.

The customer is owed the withdrawal's net amount (`Payout.net_cents`, the amount minus the fee) in the asset, at
the rate of the moment it is sent (decision 0120). The payouts desk shows that amount at the shop's current rate
(`payout_quote`) and, when the operator records what was sent, compares the two (`SentCheck`): an amount more than
`SENT_TOLERANCE_PERCENT` away from the quote, or one that cannot be compared because the shop has no rate for the
asset, is recorded only when the operator confirms that very amount (outside QA walk, defect 3: 0.3 BTC was
recorded for $299 owed, 97 times too much, with no warning).

Why 10 %: an amount honestly sent differs from the shop's quote by the move of the price since the shop's rate
(at most `PAYMENTS_RATE_MAX_AGE_SECONDS`, 15 minutes, plus the minutes between sending and recording), the spread
of the exchange or wallet it was sent from, and the network fee when it is taken from the amount: a few percent,
rarely more. The slips that lose money are far larger: a decimal point one place off is +900 % or −90 %, a digit
dropped or doubled about the same, two digits swapped (0.00308 for 0.00380) 20 % or more. Stablecoins stay
within a percent of their quote. A volatile day can still push an honest amount past 10 %; the confirmation,
which names the difference, is then one more tick, not a refusal.

Pure reads: a rate from the configured source (which may be an HTTP call, so never under a lock) and integer
arithmetic on quote units; nothing is written here.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from gpurent.core.money import Usd

from .assets import Pair, format_units, quote_units, usd_value
from .errors_crypto import RateUnavailable
from .models import Payout
from .rates import Rate, current_rate, rate_source_from_settings

__all__ = ["SENT_TOLERANCE_PERCENT", "PayoutQuote", "SentCheck", "payout_quote"]

# How far (in percent of the quote, either way) an amount recorded as sent may be from the quote without the
# operator confirming it; the module's docstring says why 10.
SENT_TOLERANCE_PERCENT = 10


@dataclass(frozen=True, slots=True)
class PayoutQuote:
    """`units` quote units of the pair's asset pay `usd` at `rate` (rounded up to the quote unit, as every quote).

    `stale` is empty when the rate is fresh enough for the shop to quote with (`current_rate`); else it says why
    it is not (its age), and the quote is only the latest known price, which the operator is told.
    """

    usd: Usd
    units: int
    rate: Rate
    stale: str = ""


@dataclass(frozen=True, slots=True)
class _ReadRate:
    """A rate source answering the one rate already read, so that `current_rate` applies its freshness rule to it
    without reading the configured source (an HTTP call, perhaps) a second time."""

    rate: Rate

    def rate_for(self, asset: str) -> Rate | None:
        return self.rate


def payout_quote(payout: Payout, pair: Pair, *, now: datetime | None = None) -> PayoutQuote | None:
    """The withdrawal's net amount in its asset at the latest rate the configured source knows, or None when it
    knows none (or cannot be read).

    The source is read once; a rate older than `PAYMENTS_RATE_MAX_AGE_SECONDS` (or dated in the future) still
    gives a quote, with `stale` saying why the shop would not quote a customer with it.
    """
    try:
        rate = rate_source_from_settings().rate_for(pair.asset)
    except RateUnavailable:
        return None
    if rate is None:
        return None
    stale = ""
    try:
        current_rate(pair.asset, now=now, source=_ReadRate(rate))
    except RateUnavailable as error:
        stale = error.detail or str(error.message)
    usd = Usd(payout.net_cents)
    return PayoutQuote(usd=usd, units=quote_units(usd, rate.usd_per_unit, pair), rate=rate, stale=stale)


@dataclass(frozen=True, slots=True)
class SentCheck:
    """An amount recorded as sent (`sent_units`) against the quote (None: the shop has no rate to compare)."""

    pair: Pair
    sent_units: int
    quote: PayoutQuote | None

    @property
    def percent_off(self) -> Decimal | None:
        """(sent − expected) / expected in percent, to one decimal (+9632.4, −90.3); None without a quote."""
        if self.quote is None or self.quote.units == 0:
            return None
        exact = Decimal(self.sent_units - self.quote.units) * 100 / Decimal(self.quote.units)
        return exact.quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)

    @property
    def within_tolerance(self) -> bool:
        """At most `SENT_TOLERANCE_PERCENT` away from the quote, either way, compared exactly on integers."""
        if self.quote is None:
            return False
        return abs(self.sent_units - self.quote.units) * 100 <= SENT_TOLERANCE_PERCENT * self.quote.units

    @property
    def sent_usd(self) -> Usd | None:
        """What was sent is worth at the quote's rate (rounded down to the cent), or None without a quote."""
        if self.quote is None:
            return None
        return usd_value(self.sent_units, self.quote.rate.usd_per_unit, self.pair)

    def record(self, *, confirmed: bool) -> dict[str, Any]:
        """The check as the audit row keeps it beside the payout (JSON: strings for exact decimals)."""
        quote = self.quote
        return {
            "sent": format_units(self.sent_units, self.pair),
            "expected": format_units(quote.units, self.pair) if quote else None,
            "usd_per_unit": str(quote.rate.usd_per_unit) if quote else None,
            "rate_as_of": quote.rate.as_of.isoformat() if quote else None,
            "rate_stale": quote.stale if quote else None,
            "percent_off": str(self.percent_off) if self.percent_off is not None else None,
            "tolerance_percent": SENT_TOLERANCE_PERCENT,
            "difference_confirmed": confirmed,
        }

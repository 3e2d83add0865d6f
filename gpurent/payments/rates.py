"""Exchange rates behind one interface, chosen in settings (DESIGN §5 "Rates", STYLE: Warehouse-style services).

`current_rate(asset)` is what quoting calls. It asks the source named by `PAYMENTS_RATE_SOURCE`:

- `"table"` (default): `TableRateSource`, the latest `ExchangeRate` row per asset, entered by operators;
- `"http"`: `HttpJsonRateSource` reading `PAYMENTS_RATE_URL`, a JSON document of decimal strings:
  `{"BTC": {"usd": "97000.12", "as_of": "2026-12-02T10:00:00Z"}, …}`.

The choice goes through the explicit `RATE_SOURCES` dict, never an import string. A rate older than
`PAYMENTS_RATE_MAX_AGE_SECONDS` (default 900) is refused with `RateUnavailable`, as is a missing one: quoting
from a stale price would charge the wrong amount, and refusing writes nothing. Rates are per asset: USDT on
Ethereum and on Tron share one rate.
"""

from __future__ import annotations

import json
import logging
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal, InvalidOperation
from typing import Any, Protocol
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.utils import timezone

from .assets import ASSETS
from .errors_crypto import RateUnavailable, UnsupportedPair
from .models.rates import ExchangeRate

__all__ = [
    "RATE_SOURCES",
    "HttpJsonRateSource",
    "Rate",
    "RateSource",
    "TableRateSource",
    "current_rate",
    "rate_source_from_settings",
]

logger = logging.getLogger(__name__)

# A rate document is a few hundred bytes; anything much larger is not one, and is not read into memory.
MAX_DOCUMENT_BYTES = 1024 * 1024
# A rate dated this far in the future comes from a broken clock or feed, not from the market.
MAX_CLOCK_SKEW = timedelta(minutes=5)


@dataclass(frozen=True, slots=True)
class Rate:
    """A price of one whole coin of `asset` in USD (`usd_per_unit`, exact), observed at `as_of` (aware)."""

    asset: str
    usd_per_unit: Decimal
    as_of: datetime
    source: str

    def __post_init__(self) -> None:
        if not isinstance(self.usd_per_unit, Decimal):
            raise TypeError(f"usd_per_unit is a Decimal, got {type(self.usd_per_unit).__name__}")
        if not self.usd_per_unit.is_finite() or self.usd_per_unit <= 0:
            raise ValueError(f"a rate must be positive and finite, got {self.usd_per_unit}")
        if timezone.is_naive(self.as_of):
            raise ValueError("as_of must be timezone-aware")


class RateSource(Protocol):
    """Where prices come from.

    `rate_for` returns the latest known rate for an upper-case asset symbol, or None when the source has none
    for it. A source that cannot be read at all (network error, malformed document) raises `RateUnavailable`
    with the reason. Freshness is not the source's business: `current_rate` checks the age.
    """

    def rate_for(self, asset: str) -> Rate | None: ...


class TableRateSource:
    """The embedded default: the `ExchangeRate` row with the latest `as_of` for the asset."""

    def rate_for(self, asset: str) -> Rate | None:
        row = ExchangeRate.objects.filter(asset=asset).order_by("-as_of", "-id").first()
        if row is None:
            return None
        return Rate(asset=row.asset, usd_per_unit=row.usd_per_unit, as_of=row.as_of, source=row.source)


class HttpJsonRateSource:
    """Rates from a JSON document over HTTP(S): `{"BTC": {"usd": "97000.12", "as_of": "2026-…Z"}, …}`.

    Prices should be decimal strings; JSON numbers are accepted too, and are parsed as `Decimal`
    (`parse_float=Decimal`), so no float ever holds a price. `as_of` is ISO 8601 with a timezone. The whole
    document is fetched on each call (one asset is quoted per intent).
    """

    def __init__(self, url: str, timeout: float = 5.0) -> None:
        parts = urlsplit(url)
        if parts.scheme not in {"http", "https"} or not parts.hostname:
            raise ImproperlyConfigured("PAYMENTS_RATE_URL must be an http:// or https:// URL")
        self.url = url
        self.timeout = timeout
        # The source recorded on each quote names the host only: a URL may carry an API key in its query.
        self.source = f"http:{parts.hostname}"

    def rate_for(self, asset: str) -> Rate | None:
        document = self._fetch()
        entry = document.get(asset)
        if entry is None:
            return None
        if not isinstance(entry, dict):
            raise RateUnavailable(detail=f"The rate service's entry for {asset} is not an object.")
        try:
            price = _decimal(entry["usd"])
            as_of = datetime.fromisoformat(str(entry["as_of"]))
        except (KeyError, ValueError, TypeError, InvalidOperation):
            raise RateUnavailable(detail=f"The rate service's entry for {asset} is malformed.") from None
        if timezone.is_naive(as_of):
            raise RateUnavailable(detail=f"The rate service's time for {asset} has no timezone.")
        if not price.is_finite() or price <= 0:
            raise RateUnavailable(detail=f"The rate service's price for {asset} is not a positive number.")
        return Rate(asset=asset, usd_per_unit=price, as_of=as_of, source=self.source)

    def _fetch(self) -> dict[str, Any]:
        request = urllib.request.Request(self.url, headers={"Accept": "application/json"})  # noqa: S310 (scheme checked in __init__)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:  # noqa: S310 (scheme checked)
                body = response.read(MAX_DOCUMENT_BYTES + 1)
        except urllib.error.HTTPError as error:
            raise RateUnavailable(detail=f"The rate service answered HTTP {error.code}.") from None
        except (urllib.error.URLError, OSError, ValueError) as error:
            # The reason may echo the URL (and a key in its query), so only the class name goes in the message.
            raise RateUnavailable(detail=f"The rate service could not be reached ({type(error).__name__}).") from None
        if len(body) > MAX_DOCUMENT_BYTES:
            raise RateUnavailable(detail="The rate service's answer is too large.")
        try:
            document = json.loads(body, parse_float=Decimal, parse_int=Decimal)
        except (ValueError, UnicodeDecodeError):
            raise RateUnavailable(detail="The rate service's answer is not JSON.") from None
        if not isinstance(document, dict):
            raise RateUnavailable(detail="The rate service's answer is not a JSON object.")
        return document


def _decimal(value: object) -> Decimal:
    if isinstance(value, Decimal):
        return value
    if isinstance(value, str):
        return Decimal(value.strip())
    raise TypeError("a price is a decimal string")


def _http_from_settings() -> RateSource:
    url = getattr(settings, "PAYMENTS_RATE_URL", "")
    if not url:
        raise ImproperlyConfigured('PAYMENTS_RATE_SOURCE = "http" needs PAYMENTS_RATE_URL')
    return HttpJsonRateSource(url, timeout=float(getattr(settings, "PAYMENTS_RATE_TIMEOUT_SECONDS", 5)))


# The sources a setting may name. A new source is one more entry here, on purpose: no dotted-path loading.
RATE_SOURCES: dict[str, Callable[[], RateSource]] = {
    "table": TableRateSource,
    "http": _http_from_settings,
}


def rate_source_from_settings() -> RateSource:
    """The source named by `PAYMENTS_RATE_SOURCE` ("table" when unset).

    Raises:
        ImproperlyConfigured: an unknown name, or "http" without `PAYMENTS_RATE_URL`.
    """
    name = getattr(settings, "PAYMENTS_RATE_SOURCE", "table")
    factory = RATE_SOURCES.get(name)
    if factory is None:
        raise ImproperlyConfigured(f"PAYMENTS_RATE_SOURCE must be one of {sorted(RATE_SOURCES)}, not {name!r}")
    return factory()


def current_rate(asset: str, *, now: datetime | None = None, source: RateSource | None = None) -> Rate:
    """The rate to quote `asset` with now: from `source` (default: the configured one), if fresh enough.

    Args:
        asset: an accepted asset symbol, any case ("usdt"); one rate serves every network of the asset.
        now: the moment of the quote (default: `timezone.now()`).
        source: a source to use instead of the configured one (tests, back-office previews).

    Raises:
        UnsupportedPair: the symbol is not an accepted asset.
        RateUnavailable: no rate, a rate older than `PAYMENTS_RATE_MAX_AGE_SECONDS`, one dated in the future,
            or a source that cannot be read. Its message is the same plain one for each; `detail` says which,
            and is logged for operators.
    """
    symbol = asset.strip().upper()
    if symbol not in ASSETS:
        raise UnsupportedPair(f"{symbol or 'This asset'} is not accepted.")
    try:
        return _fresh_rate(symbol, now or timezone.now(), source or rate_source_from_settings())
    except RateUnavailable as error:
        # Customers get the plain message and the code; the reason (HTTP status, age) is for operators.
        logger.warning("no usable %s rate: %s", symbol, error.detail)
        raise


def _fresh_rate(symbol: str, now: datetime, source: RateSource) -> Rate:
    rate = source.rate_for(symbol)
    if rate is None:
        raise RateUnavailable(detail=f"No {symbol} exchange rate is available yet. Try again later.")
    max_age = timedelta(seconds=int(getattr(settings, "PAYMENTS_RATE_MAX_AGE_SECONDS", 900)))
    age = now - rate.as_of
    if age > max_age:
        raise RateUnavailable(
            detail=f"The latest {symbol} exchange rate is {_minutes(age)} old (the limit is {_minutes(max_age)}), "
            "so no amount can be quoted. Try again later."
        )
    if -age > MAX_CLOCK_SKEW:
        raise RateUnavailable(detail=f"The latest {symbol} exchange rate is dated in the future; it is not used.")
    return rate


def _minutes(delta: timedelta) -> str:
    seconds = int(delta.total_seconds())
    if seconds < 120:
        return f"{seconds} seconds"
    return f"{seconds // 60} minutes"

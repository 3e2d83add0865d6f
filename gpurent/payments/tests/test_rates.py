import json
import re
import threading
import time
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db import IntegrityError, transaction

from gpurent.payments.errors_crypto import RateUnavailable, UnsupportedPair
from gpurent.payments.models import ExchangeRate
from gpurent.payments.rates import (
    RATE_SOURCES,
    HttpJsonRateSource,
    Rate,
    TableRateSource,
    current_rate,
    rate_source_from_settings,
)

NOW = datetime(2026, 12, 2, 10, 5, tzinfo=UTC)


def add_rate(asset, usd, *, as_of=NOW - timedelta(minutes=1), source="operator"):
    return ExchangeRate.objects.create(asset=asset, usd_per_unit=Decimal(usd), source=source, as_of=as_of)


# --- the table source -------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_exchange_rate_str_names_asset_price_source_and_time():
    rate = add_rate("BTC", "97000.12", as_of=datetime(2026, 12, 2, 10, 0, tzinfo=UTC), source="Kraken")
    assert str(rate) == "BTC = 97000.12 USD (Kraken, 2026-12-02 10:00 UTC)"


@pytest.mark.django_db
@pytest.mark.parametrize("usd", ["0", "-1"])
def test_exchange_rate_must_be_positive(usd):
    with pytest.raises(IntegrityError), transaction.atomic():
        add_rate("BTC", usd)


@pytest.mark.django_db
def test_exchange_rate_asset_must_be_an_accepted_asset():
    with pytest.raises(IntegrityError), transaction.atomic():
        add_rate("DOGE", "0.1")


@pytest.mark.django_db
def test_table_source_latest_as_of_wins_not_the_latest_insert():
    add_rate("BTC", "97000", as_of=NOW - timedelta(minutes=2))
    add_rate("BTC", "96000", as_of=NOW - timedelta(minutes=5))  # entered later, observed earlier
    add_rate("ETH", "3000")
    rate = TableRateSource().rate_for("BTC")
    assert rate == Rate("BTC", Decimal("97000"), NOW - timedelta(minutes=2), "operator")
    assert TableRateSource().rate_for("LTC") is None


@pytest.mark.django_db
def test_table_source_keeps_twelve_decimals_exactly():
    add_rate("TRX", "0.123456789012")
    rate = current_rate("TRX", now=NOW)
    assert rate.usd_per_unit == Decimal("0.123456789012")
    assert isinstance(rate.usd_per_unit, Decimal)


# --- current_rate -----------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_current_rate_uses_the_table_by_default_and_one_rate_per_asset():
    add_rate("USDT", "1.0002")
    # USDT on Ethereum and on Tron share the rate: rates are per asset, and any case is accepted.
    assert current_rate("usdt", now=NOW).usd_per_unit == Decimal("1.0002")


@pytest.mark.django_db
def test_current_rate_missing_is_a_503_with_a_clear_message():
    with pytest.raises(RateUnavailable) as caught:
        current_rate("SOL", now=NOW)
    error = caught.value
    assert (error.code, error.status, error.replayable) == ("rate_unavailable", 503, False)
    assert error.message == "No current exchange rate is available for this asset. Try again later."
    assert error.detail == "No SOL exchange rate is available yet. Try again later."


@pytest.mark.django_db
def test_current_rate_older_than_the_maximum_age_is_refused(settings):
    settings.PAYMENTS_RATE_MAX_AGE_SECONDS = 900
    add_rate("BTC", "97000", as_of=NOW - timedelta(seconds=900))
    assert current_rate("BTC", now=NOW).usd_per_unit == Decimal("97000")  # exactly the limit is still fresh
    with pytest.raises(RateUnavailable) as caught:
        current_rate("BTC", now=NOW + timedelta(minutes=5))
    assert caught.value.message == "No current exchange rate is available for this asset. Try again later."
    assert caught.value.detail == (
        "The latest BTC exchange rate is 20 minutes old (the limit is 15 minutes), so no amount can be quoted. "
        "Try again later."
    )


@pytest.mark.django_db
def test_current_rate_dated_in_the_future_is_refused():
    add_rate("BTC", "97000", as_of=NOW + timedelta(minutes=10))
    with pytest.raises(RateUnavailable) as caught:
        current_rate("BTC", now=NOW)
    assert re.search("dated in the future", caught.value.detail)
    add_rate("ETH", "3000", as_of=NOW + timedelta(seconds=30))  # ordinary clock skew is fine
    assert current_rate("ETH", now=NOW).usd_per_unit == Decimal("3000")


def test_current_rate_unknown_asset_is_an_unsupported_pair():
    with pytest.raises(UnsupportedPair):
        current_rate("DOGE", now=NOW)


def test_rate_refuses_floats_non_positive_and_naive_times():
    with pytest.raises(TypeError):
        Rate("BTC", 97000.5, NOW, "x")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="positive"):
        Rate("BTC", Decimal(0), NOW, "x")
    with pytest.raises(ValueError, match="timezone"):
        Rate("BTC", Decimal(1), datetime(2026, 1, 1), "x")


def test_rate_sources_are_an_explicit_dict(settings):
    assert set(RATE_SOURCES) == {"table", "http"}
    settings.PAYMENTS_RATE_SOURCE = "table"
    assert isinstance(rate_source_from_settings(), TableRateSource)
    settings.PAYMENTS_RATE_SOURCE = "gpurent.payments.rates.TableRateSource"
    with pytest.raises(ImproperlyConfigured, match="must be one of"):
        rate_source_from_settings()
    settings.PAYMENTS_RATE_SOURCE = "http"
    settings.PAYMENTS_RATE_URL = ""
    with pytest.raises(ImproperlyConfigured, match="PAYMENTS_RATE_URL"):
        rate_source_from_settings()


@pytest.mark.parametrize("url", ["file:///etc/passwd", "ftp://example.com/rates", "http://", "rates.json"])
def test_http_source_refuses_urls_that_are_not_http(url):
    with pytest.raises(ImproperlyConfigured):
        HttpJsonRateSource(url)


# --- the HTTP source against a local server ---------------------------------------------------------------------


class RateServer:
    """A local HTTP server on 127.0.0.1 whose answer a test sets; stopped by the fixture."""

    def __init__(self):
        self.status = 200
        self.body = b"{}"
        self.delay = 0.0
        self.requests = 0
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                server.requests += 1
                if server.delay:
                    time.sleep(server.delay)
                self.send_response(server.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(server.body)))
                self.end_headers()
                self.wfile.write(server.body)

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_port}/rates.json?key=secret-api-key"
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    def answer(self, document, status=200):
        self.body = document if isinstance(document, bytes) else json.dumps(document).encode()
        self.status = status


@pytest.fixture
def rate_server():
    server = RateServer()
    server.thread.start()
    try:
        yield server
    finally:
        server.httpd.shutdown()
        server.httpd.server_close()
        server.thread.join(timeout=5)


def test_http_source_reads_decimal_strings_exactly(rate_server):
    rate_server.answer({"BTC": {"usd": "97000.12", "as_of": "2026-12-02T10:00:00Z"}})
    rate = HttpJsonRateSource(rate_server.url, timeout=2).rate_for("BTC")
    assert rate == Rate("BTC", Decimal("97000.12"), datetime(2026, 12, 2, 10, 0, tzinfo=UTC), "http:127.0.0.1")
    # The source names the host only: the URL's query may hold an API key.
    assert "secret" not in rate.source


def test_http_source_parses_json_numbers_as_decimal_never_float(rate_server):
    rate_server.answer(b'{"ETH": {"usd": 3000.123456789012345, "as_of": "2026-12-02T10:00:00+00:00"}}')
    rate = HttpJsonRateSource(rate_server.url).rate_for("ETH")
    assert rate is not None
    assert rate.usd_per_unit == Decimal("3000.123456789012345")
    assert type(rate.usd_per_unit) is Decimal


def test_http_source_asset_missing_from_the_document_is_none(rate_server):
    rate_server.answer({"BTC": {"usd": "97000.12", "as_of": "2026-12-02T10:00:00Z"}})
    assert HttpJsonRateSource(rate_server.url).rate_for("LTC") is None


@pytest.mark.parametrize(
    ("document", "status", "message"),
    [
        ({"BTC": {"usd": "97000.12", "as_of": "2026-12-02T10:00:00Z"}}, 500, "answered HTTP 500"),
        (b"<html>rate limited</html>", 200, "is not JSON"),
        (b"[1, 2]", 200, "not a JSON object"),
        ({"BTC": "97000.12"}, 200, "entry for BTC is not an object"),
        ({"BTC": {"usd": "lots", "as_of": "2026-12-02T10:00:00Z"}}, 200, "entry for BTC is malformed"),
        ({"BTC": {"usd": "97000.12"}}, 200, "entry for BTC is malformed"),
        ({"BTC": {"usd": True, "as_of": "2026-12-02T10:00:00Z"}}, 200, "entry for BTC is malformed"),
        ({"BTC": {"usd": "97000.12", "as_of": "yesterday"}}, 200, "entry for BTC is malformed"),
        ({"BTC": {"usd": "97000.12", "as_of": "2026-12-02T10:00:00"}}, 200, "has no timezone"),
        ({"BTC": {"usd": "-1", "as_of": "2026-12-02T10:00:00Z"}}, 200, "not a positive number"),
        ({"BTC": {"usd": "NaN", "as_of": "2026-12-02T10:00:00Z"}}, 200, "not a positive number"),
        (b" " * (1024 * 1024 + 1), 200, "too large"),
    ],
)
def test_http_source_refuses_errors_and_malformed_documents(rate_server, document, status, message):
    rate_server.answer(document, status)
    with pytest.raises(RateUnavailable) as caught:
        HttpJsonRateSource(rate_server.url).rate_for("BTC")
    assert re.search(message, caught.value.detail)
    assert "secret" not in caught.value.message


def test_http_source_times_out(rate_server):
    rate_server.answer({"BTC": {"usd": "1", "as_of": "2026-12-02T10:00:00Z"}})
    rate_server.delay = 1.0
    with pytest.raises(RateUnavailable) as caught:
        HttpJsonRateSource(rate_server.url, timeout=0.2).rate_for("BTC")
    assert re.search("could not be reached", caught.value.detail)


def test_http_source_unreachable_server():
    closed = ThreadingHTTPServer(("127.0.0.1", 0), BaseHTTPRequestHandler)
    port = closed.server_port
    closed.server_close()
    with pytest.raises(RateUnavailable) as caught:
        HttpJsonRateSource(f"http://127.0.0.1:{port}/rates.json", timeout=1).rate_for("BTC")
    assert re.search("could not be reached", caught.value.detail)


def test_current_rate_through_the_http_setting(rate_server, settings):
    settings.PAYMENTS_RATE_SOURCE = "http"
    settings.PAYMENTS_RATE_URL = rate_server.url
    settings.PAYMENTS_RATE_MAX_AGE_SECONDS = 900
    rate_server.answer({"USDT": {"usd": "0.9998", "as_of": "2026-12-02T10:00:00Z"}})
    assert current_rate("USDT", now=NOW).usd_per_unit == Decimal("0.9998")
    with pytest.raises(RateUnavailable) as caught:
        current_rate("USDT", now=NOW + timedelta(minutes=15))
    assert re.search("20 minutes old", caught.value.detail)
    with pytest.raises(RateUnavailable) as caught:
        current_rate("BTC", now=NOW)
    assert re.search("No BTC exchange rate", caught.value.detail)
    assert rate_server.requests == 3


def test_current_rate_failure_tells_customers_the_code_and_operators_the_reason(rate_server, settings, caplog):
    settings.PAYMENTS_RATE_SOURCE = "http"
    settings.PAYMENTS_RATE_URL = rate_server.url
    rate_server.answer({"BTC": {"usd": "97000.12", "as_of": "2026-12-02T10:00:00Z"}}, 502)
    with caplog.at_level("WARNING", logger="gpurent.payments.rates"), pytest.raises(RateUnavailable) as caught:
        current_rate("BTC", now=NOW)
    assert caught.value.as_body() == {
        "error": {
            "code": "rate_unavailable",
            "message": "No current exchange rate is available for this asset. Try again later.",
        }
    }
    assert "HTTP 502" in caplog.text

"""BTCPay Server's Greenfield API, the two calls the shop makes: create an invoice, read where it is paid.

Formats from BTCPay Server's own OpenAPI document (`BTCPayServer/wwwroot/swagger/v1/swagger.template.invoices.json`,
2.x; docs/decisions/0147):

- `POST {BTCPAY_URL}/api/v1/stores/{storeId}/invoices`, header `Authorization: token <API key>`, body a
  `CreateInvoiceRequest`: `amount` (a decimal string), `currency`, `metadata` (free JSON; `orderId` is indexed),
  `checkout` (`paymentMethods`, `defaultPaymentMethod`, `lazyPaymentMethods`, `expirationMinutes` as an integer,
  `redirectURL`, `defaultLanguage`). Answer 200 `InvoiceData` (`id`, `checkoutLink`, `status`, `expirationTime`
  in Unix seconds, …); 400 a list of `{"path", "message"}`; 401/403 `{"code", "message"}`.
- `GET {BTCPAY_URL}/api/v1/stores/{storeId}/invoices/{invoiceId}/payment-methods`: a list of
  `InvoicePaymentMethodDataModel` (`paymentMethodId` such as `BTC-CHAIN`, `currency`, `destination`, `amount`,
  `activated`, …). The store-scoped route works on 1.x and 2.x; 2.x also has one without the store.

Every failure (unreachable, timeout, an HTTP error, an answer not in that format) is `ProcessorUnavailable`
with the reason in `detail` for operators; the API key and the answer's text are never logged or shown.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from dataclasses import dataclass
from decimal import Decimal
from typing import Any
from urllib.parse import quote, urlsplit

from django.conf import settings
from django.utils.translation import gettext_lazy as _

from gpurent.core.errors import ApplicationError

__all__ = ["BTCPAY", "GreenfieldClient", "GreenfieldInvoice", "ProcessorUnavailable", "btcpay_client", "btcpay_routes"]

BTCPAY = "btcpay"
# BTCPay Server handles Bitcoin and Litecoin on chain; the shop routes only these networks through it.
BTCPAY_NETWORKS = {"bitcoin": "BTC", "litecoin": "LTC"}
# An invoice or its payment methods are a few kilobytes; a larger answer is not one.
MAX_ANSWER_BYTES = 1024 * 1024


class ProcessorUnavailable(ApplicationError):
    """The payment processor could not create the invoice (down, refused, or answered something else)."""

    code = "payments_unavailable"
    status = 503
    replayable = False
    default_message = _(
        "The payment processor is not answering right now, so no payment instructions were created. "
        "Try again in a few minutes or choose another network."
    )


@dataclass(frozen=True, slots=True)
class GreenfieldInvoice:
    """What the shop keeps of a new invoice: its id, the checkout page, and the on-chain address it is paid to."""

    invoice_id: str
    checkout_link: str
    destination: str


def btcpay_routes(network: str) -> bool:
    """Whether intents on `network` go through BTCPay Server: it is Bitcoin or Litecoin, listed in
    `BTCPAY_NETWORKS`, and the URL, store id and API key are all set."""
    configured = bool(settings.BTCPAY_URL and settings.BTCPAY_STORE_ID and settings.BTCPAY_API_KEY)
    return configured and network in BTCPAY_NETWORKS and network in settings.BTCPAY_NETWORKS


def btcpay_client() -> GreenfieldClient:
    return GreenfieldClient(
        settings.BTCPAY_URL, settings.BTCPAY_STORE_ID, settings.BTCPAY_API_KEY, timeout=settings.BTCPAY_TIMEOUT_SECONDS
    )


class GreenfieldClient:
    def __init__(self, url: str, store_id: str, api_key: str, *, timeout: float = 10.0) -> None:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ProcessorUnavailable(detail="BTCPAY_URL must be an http:// or https:// URL")
        self.base = url.rstrip("/")
        self.host = parts.hostname
        self.store_path = f"/api/v1/stores/{quote(store_id, safe='')}/invoices"
        self._api_key = api_key
        self.timeout = timeout

    def invoice_create(
        self,
        *,
        reference: str,
        amount: str,
        currency: str,
        expiration_minutes: int,
        description: str = "",
        redirect_url: str = "",
        language: str = "",
    ) -> dict[str, Any]:
        """A new on-chain invoice of exactly `amount` `currency` (paid in that currency only, so BTCPay converts
        nothing), expiring in `expiration_minutes`, with `reference` (the intent id) as `metadata.orderId`."""
        method = f"{currency}-CHAIN"
        checkout: dict[str, Any] = {
            "paymentMethods": [method],
            "defaultPaymentMethod": method,
            "lazyPaymentMethods": False,  # the address must exist when the invoice is created
            "expirationMinutes": expiration_minutes,
        }
        if redirect_url:
            checkout["redirectURL"] = redirect_url
        if language:
            checkout["defaultLanguage"] = language
        metadata = {"orderId": reference, **({"itemDesc": description} if description else {})}
        body = {"amount": amount, "currency": currency, "metadata": metadata, "checkout": checkout}
        answer = self._request("POST", self.store_path, body)
        if not isinstance(answer, dict) or not _short_text(answer.get("id"), 100):
            raise ProcessorUnavailable(detail=f"{self.host}: the new invoice has no id")
        return answer

    def invoice_destination(self, invoice_id: str, currency: str) -> tuple[str, Decimal | None]:
        """The address of the invoice's on-chain payment method for `currency`, and the amount BTCPay asks."""
        path = f"{self.store_path}/{quote(invoice_id, safe='')}/payment-methods"
        answer = self._request("GET", path, None)
        if not isinstance(answer, list):
            raise ProcessorUnavailable(detail=f"{self.host}: payment methods are not a list")
        for method in answer:
            if not isinstance(method, dict):
                continue
            # 2.x names it `paymentMethodId` ("BTC-CHAIN"); 1.x named it `paymentMethod` ("BTC").
            name = method.get("paymentMethodId") or method.get("paymentMethod")
            if name in (f"{currency}-CHAIN", currency) and _short_text(method.get("destination"), 128):
                return str(method["destination"]), _decimal_or_none(method.get("amount"))
        raise ProcessorUnavailable(detail=f"{self.host}: invoice {invoice_id} has no activated {currency} address")

    def _request(self, method: str, path: str, body: dict[str, Any] | None) -> Any:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(  # noqa: S310 (the scheme is checked in __init__: http or https only)
            self.base + path, data=data, method=method
        )
        request.add_header("Accept", "application/json")
        request.add_header("Authorization", f"token {self._api_key}")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:  # noqa: S310 (scheme checked)
                raw = response.read(MAX_ANSWER_BYTES + 1)
        except urllib.error.HTTPError as error:
            raise ProcessorUnavailable(detail=f"{self.host} answered HTTP {error.code}{_problem(error)}") from None
        except (urllib.error.URLError, OSError, ValueError) as error:
            raise ProcessorUnavailable(detail=f"{self.host} unreachable: {error.__class__.__name__}") from None
        if len(raw) > MAX_ANSWER_BYTES:
            raise ProcessorUnavailable(detail=f"{self.host}: the answer is too large")
        try:
            return json.loads(raw, parse_float=Decimal)
        except (ValueError, UnicodeDecodeError):
            raise ProcessorUnavailable(detail=f"{self.host}: the answer is not JSON") from None


def _problem(error: urllib.error.HTTPError) -> str:
    """The error codes or JSON paths of a Greenfield error answer (never its free text), for the log."""
    try:
        answer = json.loads(error.read(64 * 1024))
    except (ValueError, UnicodeDecodeError, OSError):
        return ""
    items = answer if isinstance(answer, list) else [answer]
    names = [str(item.get("code") or item.get("path") or "")[:60] for item in items if isinstance(item, dict)]
    return f" ({', '.join(name for name in names if name)})" if any(names) else ""


def _short_text(value: object, limit: int) -> bool:
    return isinstance(value, str) and 0 < len(value) <= limit and value.isprintable()


def _decimal_or_none(value: object) -> Decimal | None:
    try:
        return Decimal(str(value)) if value is not None else None
    except ArithmeticError:
        return None

"""Payments in the JSON API: intents for orders and top-ups, reports, paying from the balance, the balance,
and the BTCPay-format webhook. Every POST that creates or moves something takes an `Idempotency-Key`."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, cast

from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.translation import gettext as _
from ninja import Field, Header, Query, Router, Schema, Status

from gpurent.accounts.api_auth import api_auth
from gpurent.accounts.models import User
from gpurent.core.api import ErrorOut, PageIn
from gpurent.core.downloads import DownloadTooLarge
from gpurent.core.errors import InvalidRequest
from gpurent.core.idempotency.keys import Outcome
from gpurent.core.idempotency.request import IdempotencyKeyHeader, api_idempotent
from gpurent.core.money import Usd
from gpurent.core.pagination import keyset_page
from gpurent.core.schemas import InputSchema
from gpurent.orders.api import IntentOut, OrderOut, order_out
from gpurent.orders.selectors import order_get_for

from .balance.statement import BALANCE_CSV_DIRECT_MAX, balance_csv_whole
from .btcpay.invoices import intent_prepare
from .btcpay.webhooks import btcpay_webhook_handle
from .intents.lifecycle import intent_issue_for_deposit, intent_issue_for_order, intent_report
from .payouts import payout_request
from .presenters import REPORTED_MESSAGE, balance_out, deposit_out, deposits_with_intents_for, intent_out, payout_out
from .receipts.receipt import receipt_for, receipt_pdf
from .receipts.views import receipt_pdf_response
from .selectors import deposit_get_for, intent_get_for, payout_get_for, payout_list_for
from .services import deposit_create, order_pay_from_balance

router = Router(tags=["payments"], auth=api_auth)
webhooks = Router(tags=["webhooks"])

ERRORS = {400: ErrorOut, 401: ErrorOut, 403: ErrorOut, 404: ErrorOut, 409: ErrorOut, 422: ErrorOut, 503: ErrorOut}


class PairIn(InputSchema):
    asset: str = Field(min_length=1, max_length=10, examples=["USDT"])
    network: str = Field(min_length=1, max_length=20, examples=["tron"])


class ReportOut(IntentOut):
    message: str


class DepositIn(InputSchema):
    amount_usd: str = Field(examples=["250.00"], max_length=20)


class DepositOut(Schema):
    ref: str
    kind: str
    amount_usd: str | None
    credited_usd: str | None
    status: str = Field(description="`pending`, `credited` or `cancelled`")
    lapsed: bool = Field(
        description=(
            "True for a `pending` top-up made 24 hours ago or more: it takes no new payment instructions and no "
            "longer counts towards the unpaid top-ups, but payments sent to its instructions are still credited "
            "(a shop setting; 24 hours is the default)"
        )
    )
    created_at: datetime
    intents: list[IntentOut]


class LedgerLineOut(Schema):
    at: datetime
    reference: str
    direction: str
    amount_usd: str
    balance_after_usd: str
    memo: str


class BalanceOut(Schema):
    """The balance in three figures (decision 0373): `balance_usd` = `held_usd` + `spendable_usd`."""

    balance_usd: str = Field(
        description="The whole balance, holds included: the sum of the ledger lines (the newest line's "
        "`balance_after_usd`)",
        examples=["100.00"],
    )
    held_usd: str = Field(
        description="The part of the balance held for orders by their open payment instructions (each intent's "
        "`balance_share_usd`, once per order); released when the intent expires, is closed or the order is paid",
        examples=["100.00"],
    )
    spendable_usd: str = Field(
        description="What can be spent or withdrawn now: `balance_usd` minus `held_usd`. A withdrawal or an order "
        "paid from the balance larger than this is refused with 422 `insufficient_balance` (an order may also use "
        "what its own instructions hold)",
        examples=["0.00"],
    )
    available_usd: str = Field(
        description="Deprecated: kept with its first meaning for existing clients, the whole balance with holds "
        "included (always equal to `balance_usd`), not what can be withdrawn: read `spendable_usd` for that",
        examples=["100.00"],
    )
    entries: list[LedgerLineOut] = Field(description="One page of ledger lines, newest first")
    next: str | None = Field(description="Cursor of the older lines (pass as ?cursor=), null on the last page")


def _user(request: HttpRequest) -> User:
    return cast(User, request.user)


def _prepared(outcome: Outcome) -> Status:
    """The issued intent, after BTCPay Server created its invoice where the network goes through it (no
    transaction is open here: the intent committed with the key). A replay answers the intent as it is now,
    and finishes a preparation that was interrupted."""
    if outcome.status != 201:
        return Status(outcome.status, outcome.body)
    return Status(201, intent_out(intent_prepare(outcome.body["id"])))


@router.post("/orders/{ref}/intents", response={201: IntentOut, **ERRORS}, summary="Get payment instructions")
def order_intent_create(
    request: HttpRequest, ref: str, payload: PairIn, idempotency_key: IdempotencyKeyHeader
) -> Status:
    """A new intent for what the order still needs, at the current rate. Earlier intents stay as they were.
    An order has at most 3 open intents at once (awaiting payment, before `expires_at`): one more answers 409
    `too_many_open_intents` (use one of them, or ask again once one has expired); and at most 10 in all: one
    more answers 409 `intent_limit_reached` (pay one of them, or top up and pay from the balance). Intents the
    payment processor could not prepare (closed with no address after a 503) do not count towards the 10, but
    an order has at most 20 intents of any kind: past that, 409 `intent_limit_reached` too. No refusal is
    stored with the `Idempotency-Key`. The limits are shop settings; these are the defaults. An order that is
    not waiting for a payment (paid already, expired or cancelled), or that the balance already covers: 409
    `nothing_to_pay`."""
    user = _user(request)
    order = order_get_for(user, ref)

    def issue() -> Outcome:
        intent = intent_issue_for_order(order=order, owner=user, asset=payload.asset, network=payload.network)
        return Outcome(201, intent_out(intent))

    outcome = api_idempotent(request, idempotency_key, payload.model_dump(), issue)
    return _prepared(outcome)


@router.post("/orders/{ref}/pay-from-balance", response={200: OrderOut, **ERRORS}, summary="Pay an order")
def order_pay(request: HttpRequest, ref: str, idempotency_key: IdempotencyKeyHeader) -> Status:
    """Debit the order's total from the balance: 422 `insufficient_balance` (stored for the key) when it
    does not cover it; 409 `nothing_to_pay` when the order is not waiting for a payment (paid already, expired
    or cancelled), as for its payment instructions; 409 `transition_not_allowed` for an extension whose rental's
    term ended before it was paid."""
    user = _user(request)
    order = order_get_for(user, ref)

    def pay() -> Outcome:
        return Outcome(200, order_out(order_pay_from_balance(order=order, owner=user)))

    outcome = api_idempotent(request, idempotency_key, {}, pay)
    return Status(outcome.status, outcome.body)


@router.get(
    "/orders/{ref}/receipt.pdf",
    response={200: None, 401: ErrorOut, 403: ErrorOut, 404: ErrorOut},
    summary="Receipt PDF",
)
def order_receipt_pdf(request: HttpRequest, ref: str) -> HttpResponse:
    """The order's receipt as a PDF: terms, every payment (asset, network, amount, rate, txid), balance use,
    refunds and ledger references."""
    order = order_get_for(cast(User, request.user), ref)
    return receipt_pdf_response(order.ref, receipt_pdf(receipt_for(order)))


@router.post("/intents/{intent_id}/report", response={200: ReportOut, **ERRORS}, summary="Report a payment sent")
def report(request: HttpRequest, intent_id: str) -> dict[str, Any]:
    """Say that the payment of this intent was sent. Idempotent by nature: recorded once, moves no money."""
    intent = intent_report(intent=intent_get_for(_user(request), intent_id))
    return {**intent_out(intent), "message": _(REPORTED_MESSAGE)}


@router.post("/deposits", response={201: DepositOut, **ERRORS}, summary="Top up the balance")
def deposit_new(request: HttpRequest, payload: DepositIn, idempotency_key: IdempotencyKeyHeader) -> Status:
    """Ask for a top-up of `amount_usd`; then get an intent for it. Adds nothing until a payment is confirmed.
    An account has at most 5 unpaid top-ups made in the last 24 hours (after 24 hours a top-up takes no new
    instructions and stops counting): one more answers 409 `too_many_pending_top_ups` (pay one of them, or wait),
    not stored with the `Idempotency-Key`. Both numbers are shop settings; these are the defaults."""
    try:
        amount = Usd.parse(payload.amount_usd)
    except ValueError:
        raise InvalidRequest(_('amount_usd: a dollar amount with at most two decimals, e.g. "250.00".')) from None
    user = _user(request)

    def create() -> Outcome:
        return Outcome(201, deposit_out(deposit_create(owner=user, amount=amount)))

    outcome = api_idempotent(request, idempotency_key, payload.model_dump(), create)
    return Status(outcome.status, outcome.body)


class DepositPageOut(Schema):
    items: list[DepositOut] = Field(description="One page of top-ups, newest first, each with its intents")
    next: str | None = Field(description="Cursor of the older top-ups (pass as ?cursor=), null on the last page")


@router.get("/deposits", response={200: DepositPageOut, **ERRORS}, summary="My top-ups")
def deposit_list(request: HttpRequest, page: Query[PageIn]) -> dict[str, Any]:
    rows = keyset_page(deposits_with_intents_for(_user(request)), page.cursor, size=page.limit)
    now = timezone.now()  # one moment for the page: its top-ups lapse by the same clock
    return {"items": [deposit_out(deposit, now=now) for deposit in rows.items], "next": rows.next}


@router.get("/deposits/{ref}", response={200: DepositOut, **ERRORS}, summary="Read a top-up")
def deposit_read(request: HttpRequest, ref: str) -> dict[str, Any]:
    return deposit_out(deposit_get_for(_user(request), ref))


@router.post("/deposits/{ref}/intents", response={201: IntentOut, **ERRORS}, summary="Get instructions for a top-up")
def deposit_intent_create(
    request: HttpRequest, ref: str, payload: PairIn, idempotency_key: IdempotencyKeyHeader
) -> Status:
    """A new intent for the top-up's amount, at the current rate. Earlier intents stay as they were. The same
    limits as an order's instructions: 409 `too_many_open_intents` past 3 open at once, 409
    `intent_limit_reached` past 10 in all (start a new top-up) or 20 counting those the processor could not
    prepare; none is stored with the `Idempotency-Key`.
    A top-up takes new instructions for 24 hours after it was made: later, 409 `nothing_to_pay` (start a new
    top-up; payments sent to its earlier instructions are still credited)."""
    user = _user(request)
    deposit = deposit_get_for(user, ref)

    def issue() -> Outcome:
        intent = intent_issue_for_deposit(deposit=deposit, owner=user, asset=payload.asset, network=payload.network)
        return Outcome(201, intent_out(intent))

    outcome = api_idempotent(request, idempotency_key, payload.model_dump(), issue)
    return _prepared(outcome)


@router.get("/balance", response={200: BalanceOut, **ERRORS}, summary="My balance and its ledger lines")
def balance(request: HttpRequest, page: Query[PageIn]) -> dict[str, Any]:
    return balance_out(_user(request), page.cursor, page.limit)


@router.get(
    "/balance/summary.csv",
    response={200: None, 401: ErrorOut, 403: ErrorOut, 409: ErrorOut},
    summary="Download my balance as CSV",
    description="Every line of the balance, oldest first, with its ledger reference (`deposit:`, `order:`, "
    "`refund:`, `payout:`, `payout-returned:`) and, for withdrawals, the address and the transaction id once sent. "
    "Sent whole with `Content-Length` and `Repr-Digest` (SHA-256); 409 `download_too_large` past "
    f"{BALANCE_CSV_DIRECT_MAX:,} lines: prepare the file with `POST /api/v1/exports` instead.",
)
def balance_summary_csv(request: HttpRequest) -> HttpResponse:
    response = balance_csv_whole(_user(request))
    if response is None:
        raise DownloadTooLarge()
    return response


class PayoutIn(InputSchema):
    asset: str = Field(min_length=1, max_length=10, examples=["USDT"])
    network: str = Field(min_length=1, max_length=20, examples=["tron"])
    address: str = Field(min_length=1, max_length=128, examples=["TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"])
    amount_usd: str = Field(examples=["50.00"], max_length=20, description="Taken from the balance; fee included")


class PayoutOut(Schema):
    ref: str
    reference: str = Field(description="The ledger reference of the withdrawal, `payout:<ref>`")
    asset: str
    network: str
    network_label: str
    address: str
    amount_usd: str = Field(description="What left the balance")
    fee_usd: str
    net_usd: str = Field(description="What is sent, in USD: the amount minus the fee")
    status: str = Field(description="`requested`, `sent` or `rejected`")
    txid: str | None
    sent_amount: str | None = Field(description="What was sent, in the asset")
    reason: str | None = Field(description="Why it was rejected")
    created_at: datetime
    decided_at: datetime | None


class PayoutPageOut(Schema):
    items: list[PayoutOut]
    next: str | None = Field(description="Cursor of the older withdrawals (pass as ?cursor=), null on the last page")


@router.post("/payouts", response={201: PayoutOut, **ERRORS}, summary="Withdraw from the balance")
def payout_new(request: HttpRequest, payload: PayoutIn, idempotency_key: IdempotencyKeyHeader) -> Status:
    """Withdraw `amount_usd` of the available balance (the balance minus what open payment instructions hold)
    to `address` on the pair's network. The amount leaves the balance at once (`payout:<ref>`); an operator
    sends it minus the fee, or rejects it and the whole amount returns. 422 `payout_below_minimum`,
    `insufficient_balance`, `invalid_address`, `unsupported_pair`."""
    try:
        amount = Usd.parse(payload.amount_usd)
    except ValueError:
        raise InvalidRequest(_('amount_usd: a dollar amount with at most two decimals, e.g. "250.00".')) from None
    user = _user(request)

    def create() -> Outcome:
        payout = payout_request(
            owner=user, asset=payload.asset, network=payload.network, address=payload.address, amount=amount
        )
        return Outcome(201, payout_out(payout))

    outcome = api_idempotent(request, idempotency_key, payload.model_dump(), create)
    return Status(outcome.status, outcome.body)


@router.get("/payouts", response={200: PayoutPageOut, **ERRORS}, summary="My withdrawals")
def payout_list(request: HttpRequest, page: Query[PageIn]) -> dict[str, Any]:
    rows = keyset_page(payout_list_for(_user(request)), page.cursor, size=page.limit)
    return {"items": [payout_out(payout) for payout in rows.items], "next": rows.next}


@router.get("/payouts/{ref}", response={200: PayoutOut, **ERRORS}, summary="Read a withdrawal")
def payout_read(request: HttpRequest, ref: str) -> dict[str, Any]:
    return payout_out(payout_get_for(_user(request), ref))


class WebhookOut(Schema):
    status: str


@webhooks.post("/btcpay", response={200: WebhookOut, 400: ErrorOut, 401: ErrorOut}, summary="BTCPay Server webhook")
def btcpay(request: HttpRequest, btcpay_sig: Annotated[str, Header(alias="BTCPay-Sig")] = "") -> dict[str, str]:
    """Signed with `BTCPay-Sig: sha256=<HMAC-SHA256 of the raw body>`; deduplicated on the original delivery
    id. Unsigned or badly signed bodies are refused (401) and change nothing."""
    return {"status": btcpay_webhook_handle(body=request.body, signature=btcpay_sig)}

"""`/api/v1/orders`: place an order (with an Idempotency-Key), list orders, read one, download the summary."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal, cast

from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from ninja import Field, Query, Router, Schema, Status

from gpurent.accounts.api_auth import api_auth
from gpurent.accounts.models import User
from gpurent.core.api import ErrorOut, PageIn
from gpurent.core.downloads import DownloadTooLarge
from gpurent.core.idempotency.keys import Outcome as IdempotentOutcome
from gpurent.core.idempotency.keys import finish_early
from gpurent.core.idempotency.request import IdempotencyKeyHeader, api_idempotent
from gpurent.core.pagination import keyset_page
from gpurent.core.schemas import InputSchema

from .export import ORDERS_CSV_DIRECT_MAX, order_ledger_references, orders_csv_whole
from .extensions import order_extension_place
from .models import Order, OrderAccess
from .money import order_money
from .payments_port import payments
from .selectors import order_get_for, order_list_for
from .services import Contact, order_place

router = Router(tags=["orders"], auth=api_auth)


class OrderIn(InputSchema):
    gpu: str = Field(description="The GPU model's slug, as in /api/v1/catalog", min_length=1, max_length=50)
    term_days: Literal[3, 7, 30]
    lots: int = Field(ge=1, le=10)
    environment: Literal["ubuntu", "pytorch", "blender", "other"]
    environment_note: str = Field(default="", max_length=200)


class TransferOut(Schema):
    """One transfer a chain watcher saw to an intent's address, as the intent's page shows it."""

    txid: str
    output_index: int = Field(description="The output (Bitcoin, Litecoin) or log index (tokens); 0 otherwise")
    amount: str = Field(description="In the intent's asset, as a decimal string")
    confirmations: int
    required_confirmations: int
    state: Literal["seen", "dropped", "credited", "review", "rejected"] = Field(
        description="`seen`: below its depth; `dropped`: it left the chain (a reorg, a replacement or a double "
        "spend) before its depth; once recorded as a payment, the payment's state: `credited` (to the balance), "
        "`review` (it arrived after the instructions expired; an operator decides), `rejected` (not credited)"
    )
    message: str = Field(description="What the intent's page says about it, in the request's language")
    first_seen_at: datetime


class IntentOut(Schema):
    """A payment instruction (DESIGN §11.1). Declared here because an order lists its intents; the payments
    app fills it (`payments.presenters.intent_out`) and uses it in its own endpoints."""

    id: str
    asset: str
    network: str
    network_label: str
    address: str
    memo: str
    amount: str = Field(description="Exact amount in the asset, as a decimal string")
    rate_usd: str
    usd_amount: str = Field(description="What this intent asks in crypto, in USD")
    balance_share_usd: str = Field(description="The part of the order's total held from the balance for it")
    created_at: datetime
    expires_at: datetime
    status: str
    reported_at: datetime | None
    order: str | None
    deposit: str | None
    checkout_link: str | None = Field(
        default=None, description="BTCPay Server's checkout page, where the intent is paid through BTCPay"
    )
    state: Literal[
        "awaiting_payment", "seen_on_chain", "payment_reported", "review", "confirmed", "expired", "rejected", "closed"
    ] = Field(
        description="The state the intent's page shows, from the same rows (decision 0382): its `status`, except "
        "`seen_on_chain` (open or expired, and a chain watcher sees a transfer to it below its confirmation depth) "
        "and `payment_reported` (the customer reported paying it and nothing was recorded or decided yet)"
    )
    state_label: str = Field(description="`state` as the pages' badge says it, in the request's language")
    state_message: str = Field(
        description='The sentence the page shows for `state` (e.g. "Seen on chain, 2 of 6 confirmations"); empty '
        "for `awaiting_payment` and `expired`"
    )
    confirmations: int | None = Field(
        description="Confirmations of the transfer `state` is about: the first one a watcher sees below its depth, "
        "else the latest one; null when no watcher saw a transfer to this intent"
    )
    required_confirmations: int | None = Field(
        description="The depth at which that transfer is credited (the network's setting when it was seen)"
    )
    transfers: list[TransferOut] = Field(
        description="Every transfer a chain watcher saw to this intent, oldest first (empty without a watcher)"
    )


class OrderOut(Schema):
    ref: str
    gpu: str
    gpu_name: str
    term_days: int
    lots: int
    cards: int
    environment: str
    environment_note: str
    lot_price_usd: str = Field(examples=["1700.00"])
    total_usd: str = Field(examples=["3400.00"])
    paid_usd: str = Field(examples=["0.00"], description="Debited from the balance for this order.")
    received_usd: str = Field(
        examples=["0.00"],
        description="Credited to the balance by payments sent to this order's instructions; what the order has "
        "not used of it stays in the balance, where it can pay this order or be withdrawn.",
    )
    refunded_usd: str = Field(examples=["0.00"], description="Returned to the balance: the order was not provided.")
    payment_status: Literal["awaiting_payment", "paid", "expired", "cancelled"]
    payment_reported: bool
    payment_state: Literal[
        "awaiting_payment", "review", "seen_on_chain", "payment_reported", "paid", "expired", "cancelled"
    ] = Field(
        description="What the order's payment badge says (pages, receipt): `payment_status`, except while it is "
        "`awaiting_payment` and one of its intents is in `review`, `seen_on_chain` or `payment_reported` "
        "(the first of these that applies; see the intents' `state`)"
    )
    provisioning_status: Literal["not_started", "preparing", "ready", "ended", "failed"]
    reserved_until: datetime
    term_starts_at: datetime | None
    term_ends_at: datetime | None
    access: dict[str, Any] | None
    intents: list[IntentOut]
    created_at: datetime
    extends: str | None = Field(description="For an extension: the ref of the rental it extends")
    extensions: list[str] = Field(
        description="Refs of this rental's extensions, oldest first: every one, paid or not, and at most "
        "`ORDERS_MAX_EXTENSIONS_PER_RENTAL` (60)"
    )
    references: list[str] = Field(
        description="Every ledger reference that moved this order's money, oldest first: `deposit:` (a payment "
        "credited), `order:` (paid from the balance), `refund:` (refunded to the balance)",
        examples=[["deposit:D-7KQ3-M9XA", "order:R-7KQ3-M9XB"]],
    )


class ExtendIn(InputSchema):
    term_days: Literal[3, 7, 30]


class OrderListOut(Schema):
    items: list[OrderOut] = Field(description="One page of orders, newest first")
    next: str | None = Field(description="Cursor of the older orders (pass as ?cursor=), null on the last page")


def order_out(order: Order, *, new: bool = False) -> dict[str, Any]:
    """An order in the API's shape (DESIGN §11.1), with its payment fields from payments (`payments_port`). `new`:
    just placed, so no money has moved for it yet (no ledger references to look up)."""
    if new:
        order.ledger_references = []  # type: ignore[attr-defined]
    data = _order_base(order)
    data.update(payments().order_payment_fields(order))
    return data


def _access_out(order: Order) -> dict[str, Any] | None:
    """SSH access while the term runs (the API is owner-scoped); null before and after. The one-time
    password is never in the API: it is shown once on the order page."""
    try:
        access: OrderAccess | None = order.access  # cached by the list's select_related
    except OrderAccess.DoesNotExist:
        access = None
    running = (
        order.provisioning_status == "ready" and order.term_ends_at is not None and timezone.now() < order.term_ends_at
    )
    if access is None or not running:
        return None
    return {
        "host": access.host,
        "port": access.port,
        "user": access.username,
        "auth": "public_key" if access.public_key else "one_time_password",
        "one_time_password_available": bool(access.one_time_secret),
        "ssh_keys": [{"name": key.name, "fingerprint": key.fingerprint} for key in order.ssh_keys.all()],
        "jupyter_url": access.jupyter_url or None,
    }


def _order_base(order: Order) -> dict[str, Any]:
    # Set for a whole page by `list_orders` (a fixed number of queries); read here for one order.
    references = (
        order.ledger_references if hasattr(order, "ledger_references") else order_ledger_references([order])[order.pk]
    )
    money = getattr(order, "money", None) or order_money([order], {order.pk: references})[order.pk]
    return {
        "ref": order.ref,
        "gpu": order.gpu.slug,
        "gpu_name": order.gpu.name,
        "term_days": order.term_days,
        "lots": order.lots,
        "cards": order.cards,
        "environment": order.environment,
        "environment_note": order.environment_note,
        "lot_price_usd": order.lot_price.to_api(),
        "total_usd": order.total.to_api(),
        "paid_usd": money.paid.to_api(),
        "received_usd": money.received.to_api(),
        "refunded_usd": money.refunded.to_api(),
        "payment_status": order.payment_status,
        "payment_reported": False,
        "payment_state": order.payment_status,
        "provisioning_status": order.provisioning_status,
        "reserved_until": order.reserved_until,
        "term_starts_at": order.term_starts_at,
        "term_ends_at": order.term_ends_at,
        "access": _access_out(order),
        "intents": [],
        "created_at": order.created_at,
        "extends": order.extends.ref if order.extends_id and order.extends else None,
        # .all(), sorted here: the list view prefetches them (one query for every order).
        "extensions": [e.ref for e in sorted(order.extensions.all(), key=lambda e: (e.created_at, e.pk))],
        "references": references,
    }


@router.post(
    "",
    response={201: OrderOut, 400: ErrorOut, 401: ErrorOut, 403: ErrorOut, 409: ErrorOut, 422: ErrorOut},
    summary="Place an order",
)
def create_order(request: HttpRequest, payload: OrderIn, idempotency_key: IdempotencyKeyHeader) -> Status:
    """Place an order and reserve its lots until the payment deadline. Requires an `Idempotency-Key`
    header: a retry with the same key and body returns the same order; the same key with another body is
    refused (422 `idempotency_key_reused`); a retry while the first is still running is refused at once with
    409 `idempotency_key_in_use` (retry it shortly to get the first answer). Not enough stock: 409
    `out_of_stock` (stored and replayed for that key)."""
    user = cast(User, request.user)

    def place() -> IdempotentOutcome:
        placed: list[IdempotentOutcome] = []
        order_place(
            owner=user,
            gpu_slug=payload.gpu,
            term_days=payload.term_days,
            lots=payload.lots,
            environment=payload.environment,
            environment_note=payload.environment_note,
            contact=Contact(user.first_name, user.last_name, user.email),
            # The response is stored before the stock row is locked (decision 0180).
            before_reserve=lambda order: placed.append(
                finish_early(IdempotentOutcome(201, order_out(order, new=True)))
            ),
            savepoint=False,  # the action's transaction is the placement's (decision 0250)
        )
        return placed[0]

    # No claim transaction: the key is inserted finished by `finish_early`, before the stock lock (decision 0250).
    outcome = api_idempotent(request, idempotency_key, payload.model_dump(), place, claim=False)
    return Status(outcome.status, outcome.body)


@router.get("", response={200: OrderListOut, 401: ErrorOut, 403: ErrorOut, 422: ErrorOut}, summary="List my orders")
def list_orders(request: HttpRequest, page: Query[PageIn]) -> dict[str, Any]:
    # The access and the intents of the page's orders in a fixed number of queries, not per order.
    orders = (
        order_list_for(cast(User, request.user))
        .select_related("access", "extends")
        .prefetch_related("intents__payments", "intents__chain_observations", _extension_refs(), "ssh_keys")
    )
    found = keyset_page(orders, page.cursor, size=page.limit)
    references = order_ledger_references(found.items)
    money = order_money(found.items, references)
    for order in found.items:
        order.ledger_references = references[order.pk]  # type: ignore[attr-defined]
        order.money = money[order.pk]  # type: ignore[attr-defined]
    return {"items": [order_out(order) for order in found.items], "next": found.next}


def _extension_refs() -> Prefetch[str]:
    """The page's extensions in one query, only what `extensions` shows: at most ORDERS_MAX_EXTENSIONS_PER_RENTAL
    rows of three columns per order (decision 0353)."""
    return Prefetch("extensions", queryset=Order.objects.only("ref", "created_at", "extends_id"))


@router.get(
    "/summary.csv",
    response={200: None, 401: ErrorOut, 403: ErrorOut, 409: ErrorOut},
    summary="Download my orders as CSV",
    description="Every order with the references a customer needs to keep; cells a spreadsheet would run are "
    "escaped. Sent whole with `Content-Length` and `Repr-Digest` (SHA-256); 409 `download_too_large` past "
    f"{ORDERS_CSV_DIRECT_MAX:,} orders: prepare the file with `POST /api/v1/exports` instead.",
)
def orders_summary_csv(request: HttpRequest) -> HttpResponse:
    response = orders_csv_whole(order_list_for(cast(User, request.user)))
    if response is None:
        raise DownloadTooLarge()
    return response


@router.post(
    "/{ref}/extend",
    response={201: OrderOut, 400: ErrorOut, 401: ErrorOut, 403: ErrorOut, 404: ErrorOut, 409: ErrorOut, 422: ErrorOut},
    summary="Extend a running rental",
)
def extend_order(request: HttpRequest, ref: str, payload: ExtendIn, idempotency_key: IdempotencyKeyHeader) -> Status:
    """Place an extension of a running rental for 3, 7 or 30 more days at the current lot price; pay it like
    any order (intents or pay-from-balance). Paid before the term ends, it moves the term end. Requires an
    `Idempotency-Key`. An unpaid earlier extension: 409 `extension_pending`. A rental whose term is not running
    (not started yet, ended, failed) or an order that is itself an extension: 409 `rental_not_running` (after
    the end, place a new order). A rental has at most `ORDERS_MAX_EXTENSIONS_PER_RENTAL` (60) extensions,
    whatever became of them: one more is 409 `too_many_extensions` (place a new order instead)."""
    user = cast(User, request.user)
    rental = order_get_for(user, ref)

    def extend() -> IdempotentOutcome:
        extension = order_extension_place(rental=rental, owner=user, term_days=payload.term_days)
        return IdempotentOutcome(201, order_out(extension, new=True))

    outcome = api_idempotent(request, idempotency_key, payload.model_dump(), extend)
    return Status(outcome.status, outcome.body)


@router.get(
    "/{ref}", response={200: OrderOut, 401: ErrorOut, 403: ErrorOut, 404: ErrorOut}, summary="Read one of my orders"
)
def get_order(request: HttpRequest, ref: str) -> dict[str, Any]:
    return order_out(order_get_for(cast(User, request.user), ref))

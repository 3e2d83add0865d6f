"""The shop's routes, then `bench-floor/<path>` and `bench-floor-batched/<path>`: an endpoint's statements replayed.

The first request of a customer for a path runs the real endpoint once, through Django's test client, recording
each statement (SQL, parameters, and whether it ran inside a transaction). Every later request replays them:
its own token is looked up as the API does, each run of statements recorded inside a transaction runs inside one
again (BEGIN and COMMIT included), and the recorded answer is sent back with its status. What must be unique in
a new row is made new: the idempotency key (the request's own), every UUID, the order's reference, and the new
order's id where its status changes point at it. Nothing else is computed. `bench-floor-batched/` (PostgreSQL
only) sends the same statements as one text, in one round trip. Bench routes only: the shop's own settings never
include them.
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import Any

import psycopg
from django.db import connection, transaction
from django.http import HttpRequest, HttpResponse
from django.test import Client
from django.urls import path
from django.views.decorators.csrf import csrf_exempt

from config.urls import urlpatterns as shop
from gpurent.accounts.selectors import api_token_for_secret


@dataclass
class Recording:
    status: int
    content: bytes
    content_type: str
    key: str
    statements: list[tuple[str, Any, bool]] = field(default_factory=list)  # (sql, params, in a transaction)
    ref: str = ""

    def answer(self, ref: str) -> HttpResponse:
        content = self.content.replace(self.ref.encode(), ref.encode()) if self.ref else self.content
        return HttpResponse(content, status=self.status, content_type=self.content_type)


_recordings: dict[tuple[int, str], Recording] = {}


def _record(request: HttpRequest, api_path: str) -> Recording:
    """Run the real endpoint once for this customer, recording its statements after the token lookup."""
    key = request.headers.get("Idempotency-Key", "")
    statements: list[tuple[str, Any, bool]] = []

    def wrapper(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: dict[str, Any]) -> Any:
        statements.append((sql, params, context["connection"].in_atomic_block))
        return execute(sql, params, many, context)

    headers = {"HTTP_AUTHORIZATION": request.headers["Authorization"], "HTTP_IDEMPOTENCY_KEY": key}
    with connection.execute_wrapper(wrapper):
        response = Client(HTTP_HOST=request.get_host()).post(
            api_path, request.body, content_type=request.content_type, **headers
        )
    # The token's own statements (its lookup, now and then its last use) are left out: `floor` looks it up itself.
    own = [statement for statement in statements if '"accounts_apitoken"' not in statement[0]]
    recording = Recording(response.status_code, response.content, response["Content-Type"], key, own)
    for sql, params, _ in recording.statements:
        if sql.startswith('INSERT INTO "orders_order" ('):
            recording.ref = next(p for p in params if isinstance(p, str) and p.startswith("R-"))
    return recording


def _fresh(value: Any, recording: Recording, key: str, ref: str) -> Any:
    if isinstance(value, uuid.UUID):
        return uuid.uuid4()
    if isinstance(value, str):
        if value == recording.key:
            return key
        if len(value) == 32 and all(c in "0123456789abcdef" for c in value):  # a UUID as SQLite stores it
            return uuid.uuid4().hex
        return value.replace(recording.ref, ref) if recording.ref else value
    return value


def _order_id_column(sql: str) -> int:
    """Where `order_id` stands in a status-change INSERT's column list."""
    return sql[sql.index("(") + 1 : sql.index(")")].split(", ").index('"order_id"')


def _point_at(sql: str, values: list[Any], order_id: int | None) -> list[Any]:
    """The status changes' `order_id` made the new order's, in each row (SQLite sends a flat list of values,
    PostgreSQL's bulk insert one list per column)."""
    column, width = _order_id_column(sql), sql[sql.index("(") : sql.index(")")].count(",") + 1
    if isinstance(values[column], list):
        values[column] = [order_id] * len(values[column])
    else:
        values[column::width] = [order_id] * len(values[column::width])
    return values


def _new_ref(recording: Recording) -> str:
    """A fresh order reference when the recording placed an order, else ""."""
    return f"R-{secrets.token_hex(4).upper()}" if recording.ref else ""


def _replay(recording: Recording, key: str) -> str:
    """Send the recorded statements again, in their transactions; the new order's reference."""
    ref = _new_ref(recording)
    order_id: int | None = None
    statements = recording.statements
    index = 0
    while index < len(statements):
        end = index
        while end < len(statements) and statements[end][2] == statements[index][2]:
            end += 1
        with transaction.atomic() if statements[index][2] else nullcontext(), connection.cursor() as cursor:
            for sql, params, _ in statements[index:end]:
                values = [_fresh(value, recording, key, ref) for value in params or ()]
                if sql.startswith('INSERT INTO "orders_orderstatuschange"'):
                    values = _point_at(sql, values, order_id)
                cursor.execute(sql, values if params is not None else None)
                if sql.startswith('INSERT INTO "orders_order" ('):
                    order_id = cursor.fetchone()[0]
        index = end
    return ref


# In one round trip the new order's id is not known to the client: its status changes read it from the sequence.
_NEW_ORDER_ID = """array_fill(currval(pg_get_serial_sequence('"orders_order"', 'id')), ARRAY[%d])"""


def _batched(recording: Recording, key: str) -> str:
    """The recorded statements as one text sent in one round trip (PostgreSQL's simple query protocol), each
    transaction between BEGIN and COMMIT, its values written in by psycopg; the new order's reference."""
    ref = _new_ref(recording)
    client = psycopg.ClientCursor(connection.connection)
    texts, in_transaction = [], False
    for sql, params, atomic in recording.statements:
        if atomic != in_transaction:
            texts.append("BEGIN" if atomic else "COMMIT")
            in_transaction = atomic
        values = [_fresh(value, recording, key, ref) for value in params or ()]
        if sql.startswith('INSERT INTO "orders_orderstatuschange"'):
            column = _order_id_column(sql)
            pieces = sql.split("%s")
            sql = (
                "%s".join(pieces[: column + 1]) + _NEW_ORDER_ID % len(values[column]) + "%s".join(pieces[column + 1 :])
            )
            del values[column]
        texts.append(client.mogrify(sql, values) if params is not None else sql)
    if in_transaction:
        texts.append("COMMIT")
    with connection.cursor() as cursor:
        cursor.execute(";\n".join(texts))
    return ref


def _view(send: Callable[[Recording, str], str]) -> Callable[[HttpRequest, str], HttpResponse]:
    @csrf_exempt
    def floor(request: HttpRequest, api_path: str) -> HttpResponse:
        secret = request.headers.get("Authorization", "").removeprefix("Bearer ")
        token = api_token_for_secret(secret)
        if token is None:
            return HttpResponse(status=401)
        recorded = (token.user.pk, api_path)
        if recorded not in _recordings:
            _recordings[recorded] = _record(request, f"/{api_path}")
            return _recordings[recorded].answer(_recordings[recorded].ref)
        recording = _recordings[recorded]
        return recording.answer(send(recording, request.headers.get("Idempotency-Key", "")))

    return floor


urlpatterns = [
    *shop,
    path("bench-floor/<path:api_path>", _view(_replay)),
    path("bench-floor-batched/<path:api_path>", _view(_batched)),  # PostgreSQL only
]

"""Placing an order through the API: how many SQL statements it runs, and that the stock lock comes last."""

from itertools import takewhile

import pytest
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext

from gpurent.accounts.services import api_token_create

# Real transactions (not the test's savepoints), so the statements are those a production request runs; the
# email's delivery task is not run (in production a worker sends it after COMMIT).
pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("b200"),
]
BODY = {"gpu": "b200-2x180gb", "term_days": 7, "lots": 1, "environment": "pytorch"}
# Before decision 0180 the same request ran 24 statements here (SQLite, BEGIN and COMMIT included): the key
# claimed in a transaction of its own with a read first, a savepoint around the placement, a read before the
# email's insert, two reads for the response, and the email and the key's update after the stock UPDATE.
# Since then issue 10 added one COUNT (the per-account limit of unpaid orders) to the same request, and the
# lock of the owner's row that makes that count race-free (decision 0122): 26 before, 14 now (about half).
BEFORE = 24 + 2
RESERVE = 'UPDATE "catalog_gpumodel" SET "stock_lots"'


@pytest.fixture
def auth(django_user_model):
    user = django_user_model.objects.create_user(
        "s@example.com", "long enough passphrase", first_name="S", last_name="Q"
    )
    _, secret = api_token_create(user=user, name="t")
    return {"HTTP_AUTHORIZATION": f"Bearer {secret}"}


def place(client, auth, key):
    return client.post("/api/v1/orders", BODY, content_type="application/json", HTTP_IDEMPOTENCY_KEY=key, **auth)


@override_settings(TASKS={"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}})
def test_placing_an_order_runs_about_half_the_statements_and_reserves_last(client, auth):
    place(client, auth, "warm-up")  # the token's last-used time is written at most once a minute
    with CaptureQueriesContext(connection) as captured:
        response = place(client, auth, "measured")
    assert response.status_code == 201
    statements = [query["sql"] for query in captured.captured_queries]
    reserve = next(i for i, sql in enumerate(statements) if sql.startswith(RESERVE))
    # The contended row's UPDATE is the transaction's last statement: only the release of the placement's
    # savepoint (no lock, no I/O) and COMMIT follow it (PostgreSQL's COMMIT is not captured, SQLite's is).
    closing = list(takewhile(lambda sql: sql.startswith(("RELEASE SAVEPOINT", "COMMIT")), statements[reserve + 1 :]))
    request = statements[: reserve + 1 + len(closing)]
    # After COMMIT, outside every lock: the email's templates are rendered and stored with its delivery task
    # (core/emails.py), in one transaction: one COMMIT (one disk flush), not one per statement (decision 0205).
    after_commit = [sql for sql in statements[len(request) :] if sql not in ("BEGIN", "BEGIN IMMEDIATE", "COMMIT")]
    assert [sql[:27] for sql in after_commit] == ['UPDATE "core_outboundemail"'], after_commit
    assert statements[len(request) :].count("COMMIT") == 1, statements[len(request) :]
    # On PostgreSQL the key's claim is a transaction of its own that skips its disk flush (decision 0205): three
    # round trips without I/O (BEGIN, SET LOCAL, COMMIT around the INSERT) instead of a 3-4 ms flush. They are
    # counted apart; on SQLite the claim is still one INSERT in autocommit.
    if connection.vendor == "postgresql":
        start = request.index("SET LOCAL synchronous_commit TO OFF") - 1
        begin, _set, insert, commit = request[start : start + 4]
        assert (begin, commit) == ("BEGIN", "COMMIT"), request[start : start + 4]
        assert insert.startswith('INSERT INTO "core_idempotencykey"'), insert
        request = [*request[:start], insert, *request[start + 4 :]]
    # The placement commits once, with the disk flush that makes the order durable.
    assert request.count("COMMIT") == 1, request
    assert len(request) <= BEFORE // 2 + 1, [sql[:60] for sql in request]  # 14 of 26
    # The unpaid-order limit counts at most up to the limit (a LIMIT subquery), not every unpaid order.
    count = next(sql for sql in request if sql.startswith("SELECT COUNT(*)"))
    assert "LIMIT" in count, count

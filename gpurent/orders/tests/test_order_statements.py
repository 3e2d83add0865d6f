"""Placing an order through the API: how many SQL statements it runs, and that the stock lock comes last."""

import pytest
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext

from gpurent.accounts.services import api_token_create

# Real transactions (not the test's savepoints), so the statements are those a production request runs, with
# production's task backend: the email's delivery task is a row (a worker renders and sends it).
pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("b200"),
]
BODY = {"gpu": "b200-2x180gb", "term_days": 7, "lots": 1, "environment": "pytorch"}
# Before decision 0180 the same request ran 24 statements here (SQLite, BEGIN and COMMIT included): the key
# claimed in a transaction of its own with a read first, a savepoint around the placement, a read before the
# email's insert, two reads for the response, and the email and the key's update after the stock UPDATE.
# Issue 10 added one COUNT (the per-account limit of unpaid orders) and the lock of the owner's row that makes
# that count race-free (decision 0122): 26. Decision 0250 counts everything the request runs, after COMMIT too.
BEFORE = 24 + 2
RESERVE = 'UPDATE "catalog_gpumodel" SET "stock_lots"'
TASK_INSERT = 'INSERT INTO "django_tasks_database_dbtaskresult"'


@pytest.fixture
def auth(django_user_model):
    user = django_user_model.objects.create_user(
        "s@example.com", "long enough passphrase", first_name="S", last_name="Q"
    )
    _, secret = api_token_create(user=user, name="t")
    return {"HTTP_AUTHORIZATION": f"Bearer {secret}"}


def place(client, auth, key):
    return client.post("/api/v1/orders", BODY, content_type="application/json", HTTP_IDEMPOTENCY_KEY=key, **auth)


@override_settings(TASKS={"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}})
def test_placing_an_order_runs_half_the_statements_and_reserves_last(client, auth):
    place(client, auth, "warm-up")  # the token's last-used time is written at most once a minute
    with CaptureQueriesContext(connection) as captured:
        response = place(client, auth, "measured")
    assert response.status_code == 201
    statements = [query["sql"] for query in captured.captured_queries]
    # Everything the request runs, the token's read and the work after COMMIT included: at most half.
    assert len(statements) <= BEFORE // 2, [sql[:60] for sql in statements]  # 12 on SQLite, 13 on PostgreSQL
    # One transaction, no savepoint: the key is not claimed in a transaction of its own but inserted, finished,
    # in the placement's (decision 0250), before the reserve.
    assert statements.count("COMMIT") == 1, statements
    assert not [sql for sql in statements if "SAVEPOINT" in sql], statements
    reserve = next(i for i, sql in enumerate(statements) if sql.startswith(RESERVE))
    key = next(i for i, sql in enumerate(statements) if sql.startswith('INSERT INTO "core_idempotencykey"'))
    assert key < reserve
    assert not [sql for sql in statements if sql.startswith('UPDATE "core_idempotencykey"')], statements
    # The contended row's UPDATE is the transaction's last statement: COMMIT follows it at once.
    assert statements[reserve + 1] == "COMMIT", statements[reserve:]
    if connection.vendor == "postgresql":
        # That COMMIT does not wait for the disk (set just before the reserve, for this transaction only)...
        assert statements[reserve - 1] == "SET LOCAL synchronous_commit TO OFF", statements[: reserve + 1]
    # ... and after it the request renders nothing: it writes the email's delivery task, in autocommit, whose
    # COMMIT waits for the flush and so makes the order durable before the response (decision 0250).
    assert [sql[: len(TASK_INSERT)] for sql in statements[reserve + 2 :]] == [TASK_INSERT], statements[reserve:]
    # The owner's row lock (decision 0122), the first lock a retry could queue behind, also takes the key's lock
    # in the same statement: a retry while this runs answers 409 at once, at no extra round trip (decision 0295).
    owner_lock = [sql for sql in statements if sql.startswith('SELECT "id" FROM "accounts_user" WHERE "id" = ')]
    assert len(owner_lock) == 1, statements
    key_locks = [sql for sql in statements if "pg_try_advisory_xact_lock(" in sql]
    if connection.vendor == "postgresql":
        assert owner_lock[0].endswith("FOR UPDATE"), owner_lock
        assert key_locks == owner_lock, statements
    else:
        assert key_locks == [], statements  # SQLite serialises writers (no FOR UPDATE, no advisory lock)
    assert owner_lock[0] in statements[:key]
    # The unpaid-order limit counts at most up to the limit (a LIMIT subquery), not every unpaid order.
    count = next(sql for sql in statements if sql.startswith("SELECT COUNT(*)"))
    assert "LIMIT" in count, count

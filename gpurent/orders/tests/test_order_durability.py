"""An order committed without waiting for its WAL flush is on disk before the customer is told (decision 0250).

PostgreSQL only. A hook on the flush that follows the placement's COMMIT reads `pg_current_wal_insert_lsn()`
right after that COMMIT (the placement's commit record ends at or before it); when the view has answered,
`pg_current_wal_flush_lsn()` must have reached it. The server's WAL writer also flushes by itself every
200 ms and other sessions' commits flush it too, so the statements that follow the COMMIT are checked as well:
a write in autocommit, or the module's own flushing write, before the response.
"""

import pytest
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from gpurent.accounts.services import api_token_create
from gpurent.core import durability
from gpurent.orders.models import Order

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("b200"),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="WAL flushes are PostgreSQL's"),
]
DATABASE_TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}
DUMMY_TASKS = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}
PASSWORD = "long enough passphrase"


def lsn(function: str) -> int:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {function}() - '0/0'::pg_lsn")
        return int(cursor.fetchone()[0])


@pytest.fixture
def commits(monkeypatch):
    """The insert LSN read right after each unflushed COMMIT, before the flush that follows it."""
    seen: list[int] = []
    flush = durability._flush

    def after_commit(then):
        seen.append(lsn("pg_current_wal_insert_lsn"))
        return flush(then)

    monkeypatch.setattr(durability, "_flush", after_commit)
    return seen


@pytest.fixture
def customer(django_user_model):
    return django_user_model.objects.create_user("d@example.com", PASSWORD, first_name="D", last_name="Q")


def api_place(client, customer, *, lots):
    _, secret = api_token_create(user=customer, name="t")
    body = {"gpu": "b200-2x180gb", "term_days": 7, "lots": lots, "environment": "pytorch"}
    with CaptureQueriesContext(connection) as captured:
        response = client.post(
            "/api/v1/orders",
            body,
            content_type="application/json",
            HTTP_IDEMPOTENCY_KEY="k-1",
            HTTP_AUTHORIZATION=f"Bearer {secret}",
        )
    return response, captured


def assert_durable_when_answered(commits, captured):
    assert len(commits) == 1, commits
    assert lsn("pg_current_wal_flush_lsn") >= commits[0]
    statements = [query["sql"] for query in captured.captured_queries]
    # Unflushed: the placement's transaction only; the connection's next transactions wait for their flush.
    assert statements.count("SET LOCAL synchronous_commit TO OFF") == 1, statements
    with connection.cursor() as cursor:
        cursor.execute("SHOW synchronous_commit")
        assert cursor.fetchone()[0] == "on"
    after = [sql for sql in statements[statements.index("COMMIT") + 1 :] if "pg_current_wal" not in sql]  # the hook's
    assert after, "nothing was written after the unflushed COMMIT"
    assert after[0].startswith("INSERT") or durability.FLUSH_SQL in after, after


@pytest.mark.parametrize("tasks", [DATABASE_TASKS, DUMMY_TASKS], ids=["task row flushes", "own flushing write"])
def test_an_api_order_is_flushed_before_the_response(client, customer, commits, tasks):
    with override_settings(TASKS=tasks):
        response, captured = api_place(client, customer, lots=1)
    assert response.status_code == 201
    assert_durable_when_answered(commits, captured)


@override_settings(TASKS=DATABASE_TASKS)
def test_an_order_placed_from_the_checkout_form_is_flushed_before_the_redirect(client, customer, commits):
    client.force_login(customer)
    choice = {"gpu": "b200-2x180gb", "term": "7", "lots": "1", "environment": "pytorch", "environment_note": ""}
    client.post(reverse("orders:checkout_start"), choice)
    form = client.get(reverse("orders:checkout_summary")).context["form"]
    data = {**{name: form[name].value() for name in form.fields}, "idempotency_key": "k-1"}
    with CaptureQueriesContext(connection) as captured:
        response = client.post(reverse("orders:checkout_place"), data)
    assert response["Location"] == reverse("orders:rental", args=[Order.objects.get().ref])
    assert_durable_when_answered(commits, captured)


@override_settings(TASKS=DATABASE_TASKS)
def test_a_placement_that_fails_commits_nothing_unflushed(client, customer, commits):
    response, captured = api_place(client, customer, lots=3)  # 2 lots in stock
    assert response.status_code == 409
    assert commits == []  # rolled back: no flush owed, and the stored failure is an ordinary flushed commit
    statements = [query["sql"] for query in captured.captured_queries]
    stored = statements[statements.index("ROLLBACK") + 1 :]
    assert "SET LOCAL synchronous_commit TO OFF" not in stored, stored
    assert [sql for sql in stored if sql.startswith('INSERT INTO "core_idempotencykey"')], stored

"""`run_idempotent_unclaimed`: no claim transaction; the key is inserted finished in the action's (decision 0250)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from gpurent.core.errors import IdempotencyKeyInUse, IdempotencyKeyReused, InvalidRequest
from gpurent.core.idempotency.keys import (
    Outcome,
    finish_early,
    lock_row_with_running_key,
    run_idempotent_known,
    run_idempotent_unclaimed,
)
from gpurent.core.models import AuditLogEntry, IdempotencyKey, IdempotencyState
from gpurent.core.testing import retry_while_the_first_runs
from gpurent.core.tests.test_idempotency import InsufficientFunds, NewError

pytestmark = pytest.mark.django_db
KEY_INSERT = 'INSERT INTO "core_idempotencykey"'


def effect(calls, *, early=True):
    """An action with a visible effect (an audit row) that stores its outcome early, as placing an order does."""

    def action():
        calls.append(1)
        AuditLogEntry.objects.create(actor_label="test", action="effect", target_type="t", target_id=str(len(calls)))
        outcome = Outcome(201, {"effect": len(calls)})
        return finish_early(outcome) if early else outcome

    return action


@pytest.mark.parametrize("early", [True, False], ids=["finished early", "finished after the action"])
def test_a_new_key_is_one_insert_finished_in_the_actions_transaction_and_a_retry_is_replayed(early):
    calls: list[int] = []
    with CaptureQueriesContext(connection) as captured:
        first = run_idempotent_unclaimed(owner="user:1", key="k", fingerprint="f", action=effect(calls, early=early))
    key_statements = [query["sql"][:32] for query in captured.captured_queries if "core_idempotencykey" in query["sql"]]
    assert key_statements == ['INSERT INTO "core_idempotencykey']
    record = IdempotencyKey.objects.get(key="k")
    assert (record.state, record.response_status, record.response_body) == (IdempotencyState.FINISHED, 201, first.body)
    again = run_idempotent_unclaimed(owner="user:1", key="k", fingerprint="f", action=effect(calls, early=early))
    assert again.replayed
    assert again.body == first.body == {"effect": 1}
    assert AuditLogEntry.objects.filter(action="effect").count() == 1  # the retry's own effect rolled back
    with pytest.raises(IdempotencyKeyReused):
        run_idempotent_unclaimed(owner="user:1", key="k", fingerprint="other", action=effect(calls, early=early))


def test_a_retry_that_fails_validation_because_the_first_request_succeeded_is_replayed():
    calls: list[int] = []
    first = run_idempotent_unclaimed(owner="user:1", key="k", fingerprint="f", action=effect(calls))

    def draft_gone():  # the checkout's second click: the first cleared the draft
        raise InvalidRequest("Your choice changed in another tab.")

    assert run_idempotent_unclaimed(owner="user:1", key="k", fingerprint="f", action=draft_gone).body == first.body


def test_an_error_that_is_not_stored_leaves_no_key_and_a_stored_one_is_replayed():
    def invalid():
        raise NewError()

    with pytest.raises(NewError):
        run_idempotent_unclaimed(owner="user:1", key="k", fingerprint="f", action=invalid)
    assert not IdempotencyKey.objects.exists()

    def insufficient():
        AuditLogEntry.objects.create(actor_label="test", action="half-done", target_type="t", target_id="1")
        finish_early(Outcome(201, {"early": True}))
        raise InsufficientFunds()

    failed = run_idempotent_unclaimed(owner="user:1", key="f", fingerprint="f", action=insufficient)
    assert failed.status == 422
    assert not failed.replayed
    assert not AuditLogEntry.objects.filter(action="half-done").exists()
    replay = run_idempotent_unclaimed(owner="user:1", key="f", fingerprint="f", action=insufficient)
    assert replay.replayed
    assert replay.body["error"]["code"] == "insufficient_balance"


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="the key's lock is PostgreSQL's (decision 0295)")
@pytest.mark.parametrize("with_row", [True, False], ids=["locked with a row", "locked by finish_early"])
def test_a_retry_while_the_first_runs_is_refused_at_once_and_replayed_after_it(with_row):
    """Decision 0295: the key is locked (`pg_try_advisory_xact_lock`) before its INSERT, in the statement that
    locks the action's row when the action locks one, else in one of its own; a retry with the key while the first
    request holds it (held just before its key's INSERT) raises `IdempotencyKeyInUse` without waiting on any lock
    and writes nothing; after the first's COMMIT the retry is replayed."""
    row = AuditLogEntry.objects.create(actor_label="test", action="row", target_type="t", target_id="0")
    calls: list[int] = []

    def action():
        if with_row:
            lock_row_with_running_key(AuditLogEntry, row.pk)
        return effect(calls)()

    def send():
        return run_idempotent_unclaimed(owner="user:1", key="k", fingerprint="f", action=action)

    def retry():
        with CaptureQueriesContext(connection) as captured:
            try:
                send()
            except IdempotencyKeyInUse as error:
                return error, [query["sql"] for query in captured.captured_queries]
        return None, []

    first, (refused, statements), without_waiting = retry_while_the_first_runs(send, retry, before=KEY_INSERT)
    assert without_waiting
    assert isinstance(refused, IdempotencyKeyInUse)
    lock = next(sql for sql in statements if "pg_try_advisory_xact_lock(" in sql)
    if with_row:
        assert lock.startswith('SELECT "id" FROM "core_auditlogentry" WHERE "id" = '), statements
        assert lock.endswith("FOR UPDATE"), statements
    else:
        assert lock.startswith("SELECT pg_try_advisory_xact_lock("), statements
    assert not [sql for sql in statements if sql.startswith(KEY_INSERT)], statements
    assert calls == ([1] if with_row else [1, 1])  # the retry's effect, if any, was rolled back
    assert AuditLogEntry.objects.filter(action="effect").count() == 1
    replay = send()
    assert replay.replayed
    assert replay.body == first.body == {"effect": 1}


def test_lock_row_with_running_key_outside_an_idempotent_request_locks_only_the_row():
    row = AuditLogEntry.objects.create(actor_label="test", action="row", target_type="t", target_id="0")
    with CaptureQueriesContext(connection) as captured:
        lock_row_with_running_key(AuditLogEntry, row.pk)
    assert [query["sql"] for query in captured.captured_queries if "advisory" in query["sql"]] == []
    assert len(captured.captured_queries) == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="the key's lock is PostgreSQL's (decision 0295)")
@pytest.mark.parametrize("path", ["unclaimed", "known"])
def test_a_key_already_stored_is_replayed_even_while_another_retry_holds_its_lock(path):
    """Decision 0295: a refused key lock means another request with the key is in its transaction; if the key is
    already stored, that is a retry, not the first request, and this one is replayed, not refused."""
    calls: list[int] = []

    def send():
        if path == "unclaimed":
            return run_idempotent_unclaimed(owner="user:1", key="k", fingerprint="f", action=effect(calls))
        return run_idempotent_known(
            owner="user:1", key="k", fingerprint="f", outcome=Outcome(201, {"id": 1}), write=lambda: calls.append(1)
        )

    stored = send()
    held, third, without_waiting = retry_while_the_first_runs(send, send, before=KEY_INSERT)
    assert without_waiting
    assert held.replayed
    assert third.replayed
    assert third.body == held.body == stored.body
    # The held retry ran the order-like action before its key's INSERT failed; the refused one ran it too, before
    # `finish_early` found the lock taken. A known outcome's write runs only after the key is locked and inserted.
    assert calls == ([1, 1, 1] if path == "unclaimed" else [1])

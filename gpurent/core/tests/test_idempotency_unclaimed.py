"""`run_idempotent_unclaimed`: no claim transaction; the key is inserted finished in the action's (decision 0250)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from gpurent.core.errors import IdempotencyKeyReused, InvalidRequest
from gpurent.core.idempotency import Outcome, finish_early, run_idempotent_unclaimed
from gpurent.core.models import AuditLogEntry, IdempotencyKey, IdempotencyState
from gpurent.core.tests.test_idempotency import InsufficientFunds, NewError

pytestmark = pytest.mark.django_db


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

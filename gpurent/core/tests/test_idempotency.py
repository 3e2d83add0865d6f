"""The idempotency mechanism of DESIGN §5, tested directly on `run_idempotent` and its request helpers."""

import threading
from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import IntegrityError, connection, connections, transaction
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from gpurent.core.errors import ApplicationError, IdempotencyKeyInUse, IdempotencyKeyReused, InvalidRequest
from gpurent.core.idempotency.keys import Outcome, finish_early, run_idempotent, run_idempotent_known
from gpurent.core.idempotency.request import api_idempotent, form_key, form_params, request_fingerprint
from gpurent.core.models import AuditLogEntry, IdempotencyKey, IdempotencyState

pytestmark = pytest.mark.django_db


class InsufficientFunds(ApplicationError):
    code = "insufficient_balance"
    status = 422
    replayable = True
    default_message = "Not enough balance."


class NewError(ApplicationError):
    """An error class that says nothing about replaying."""

    code = "something_new"
    status = 409


def test_run_idempotent_error_class_that_does_not_opt_in_is_not_stored():
    calls = []

    def action():
        calls.append(1)
        raise NewError()

    for _ in range(2):
        with pytest.raises(NewError):
            run_idempotent(owner="user:1", key="k-new", fingerprint="f", action=action)
    assert len(calls) == 2  # the key was released: the second request ran again
    assert not IdempotencyKey.objects.filter(key="k-new").exists()


def make_effect(counter):
    """An action with a visible effect: one audit-log row per run."""

    def action():
        counter.append(1)
        AuditLogEntry.objects.create(actor_label="test", action="effect", target_type="t", target_id=str(len(counter)))
        return Outcome(201, {"effect": len(counter)})

    return action


def test_run_idempotent_same_key_same_request_replays_the_stored_result():
    calls: list[int] = []
    first = run_idempotent(owner="user:1", key="k-1", fingerprint="f", action=make_effect(calls))
    for _ in range(3):
        again = run_idempotent(owner="user:1", key="k-1", fingerprint="f", action=make_effect(calls))
        assert (again.status, again.body, again.replayed) == (201, {"effect": 1}, True)
    assert (first.status, first.body, first.replayed) == (201, {"effect": 1}, False)
    assert len(calls) == 1
    assert AuditLogEntry.objects.filter(action="effect").count() == 1


def test_run_idempotent_same_key_other_request_is_refused_with_422_and_does_nothing():
    calls: list[int] = []
    run_idempotent(owner="user:1", key="k-1", fingerprint="f", action=make_effect(calls))
    with pytest.raises(IdempotencyKeyReused) as raised:
        run_idempotent(owner="user:1", key="k-1", fingerprint="other", action=make_effect(calls))
    assert (raised.value.status, raised.value.code) == (422, "idempotency_key_reused")
    assert len(calls) == 1


def test_run_idempotent_same_key_while_in_flight_is_refused_with_409():
    calls: list[int] = []

    def action():
        # The first request is still running when the retry arrives.
        with pytest.raises(IdempotencyKeyInUse) as raised:
            run_idempotent(owner="user:1", key="k-1", fingerprint="f", action=make_effect(calls))
        assert (raised.value.status, raised.value.code) == (409, "idempotency_key_in_use")
        return Outcome(200, {"ok": True})

    assert run_idempotent(owner="user:1", key="k-1", fingerprint="f", action=action).body == {"ok": True}
    assert calls == []


def test_run_idempotent_keys_are_scoped_to_their_owner():
    calls: list[int] = []
    run_idempotent(owner="user:1", key="shared", fingerprint="f", action=make_effect(calls))
    other = run_idempotent(owner="session:abc", key="shared", fingerprint="g", action=make_effect(calls))
    assert not other.replayed
    assert len(calls) == 2


def test_run_idempotent_business_failure_is_stored_and_replayed():
    attempts = []

    def action():
        attempts.append(1)
        AuditLogEntry.objects.create(actor_label="t", action="half-done", target_type="t", target_id="1")
        raise InsufficientFunds()

    first = run_idempotent(owner="user:1", key="pay", fingerprint="f", action=action)
    second = run_idempotent(owner="user:1", key="pay", fingerprint="f", action=action)
    assert first.status == second.status == 422
    assert second.body == {"error": {"code": "insufficient_balance", "message": "Not enough balance."}}
    assert second.replayed
    assert len(attempts) == 1
    # The failed action's writes rolled back: no half-written row.
    assert not AuditLogEntry.objects.filter(action="half-done").exists()


def test_finish_early_stores_the_outcome_before_the_action_ends_and_rolls_back_with_it():
    def action():
        finish_early(Outcome(201, {"early": True}))
        assert IdempotencyKey.objects.get(key="early").state == IdempotencyState.FINISHED  # before the last step
        return Outcome(201, {"early": True})

    assert run_idempotent(owner="user:1", key="early", fingerprint="f", action=action).body == {"early": True}
    assert run_idempotent(owner="user:1", key="early", fingerprint="f", action=action).replayed

    def fails_after_finishing():
        finish_early(Outcome(201, {"early": True}))
        raise InsufficientFunds()

    failed = run_idempotent(owner="user:1", key="late", fingerprint="f", action=fails_after_finishing)
    assert failed.status == 422
    replay = run_idempotent(owner="user:1", key="late", fingerprint="f", action=fails_after_finishing)
    assert replay.body["error"]["code"] == "insufficient_balance"  # the early outcome rolled back
    assert finish_early(Outcome(200, {})) == Outcome(200, {})  # outside a request: nothing stored


def test_run_idempotent_validation_error_is_not_stored_so_a_corrected_retry_runs():
    def invalid():
        raise InvalidRequest("lots: must be 1..10")

    with pytest.raises(InvalidRequest):
        run_idempotent(owner="user:1", key="k", fingerprint="f", action=invalid)
    assert not IdempotencyKey.objects.exists()
    calls: list[int] = []
    assert run_idempotent(owner="user:1", key="k", fingerprint="f2", action=make_effect(calls)).status == 201


def test_run_idempotent_crash_releases_the_key_and_rolls_back():
    def crash():
        AuditLogEntry.objects.create(actor_label="t", action="crash", target_type="t", target_id="1")
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        run_idempotent(owner="user:1", key="k", fingerprint="f", action=crash)
    assert not IdempotencyKey.objects.exists()
    assert not AuditLogEntry.objects.filter(action="crash").exists()


def test_run_idempotent_abandoned_claim_is_taken_over_after_the_lock_timeout(settings):
    stale = timezone.now() - timedelta(seconds=settings.IDEMPOTENCY_LOCK_TIMEOUT_SECONDS + 1)
    IdempotencyKey.objects.create(owner="user:1", key="k", fingerprint="f", locked_at=stale, created_at=stale)
    calls: list[int] = []
    outcome = run_idempotent(owner="user:1", key="k", fingerprint="f", action=make_effect(calls))
    assert (outcome.status, outcome.replayed, len(calls)) == (201, False, 1)
    assert IdempotencyKey.objects.get().state == IdempotencyState.FINISHED


def test_run_idempotent_key_past_retention_starts_a_new_request(settings):
    old = timezone.now() - timedelta(hours=settings.IDEMPOTENCY_KEY_TTL_HOURS + 1)
    IdempotencyKey.objects.create(
        owner="user:1",
        key="k",
        fingerprint="other",
        state=IdempotencyState.FINISHED,
        response_status=201,
        response_body={"old": True},
        created_at=old,
    )
    calls: list[int] = []
    outcome = run_idempotent(owner="user:1", key="k", fingerprint="f", action=make_effect(calls))
    assert (outcome.body, len(calls)) == ({"effect": 1}, 1)


def test_request_fingerprint_ignores_parameter_order_but_not_values():
    a = request_fingerprint("post", "/api/v1/orders", {"gpu": "a100-80gb", "lots": 2})
    b = request_fingerprint("POST", "/api/v1/orders", {"lots": 2, "gpu": "a100-80gb"})
    c = request_fingerprint("POST", "/api/v1/orders", {"lots": 3, "gpu": "a100-80gb"})
    assert a == b != c


@pytest.mark.parametrize("value", ["", "has space", "x" * 256, "ключ"])
def test_api_idempotent_malformed_key_is_a_validation_error(value):
    request = RequestFactory().post("/api/v1/orders")
    request.user = AnonymousUser()
    with pytest.raises(InvalidRequest):
        api_idempotent(request, value, {}, make_effect([]))


def test_form_key_and_params_leave_out_the_volatile_fields():
    request = RequestFactory().post(
        "/checkout/", {"idempotency_key": "3f1c", "csrfmiddlewaretoken": "t", "lots": "2", "gpu": "h100-80gb"}
    )
    assert form_key(request) == "3f1c"
    assert form_params(request) == {"lots": ["2"], "gpu": ["h100-80gb"]}


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="concurrency is only meaningful on PostgreSQL")
def test_run_idempotent_concurrent_requests_with_one_key_take_effect_once():
    """Eight threads send the same request with the same key at once: one effect; the others replay or 409."""
    barrier = threading.Barrier(8)
    results: list[str] = []
    effects = []

    def slow_effect():
        effects.append(1)
        AuditLogEntry.objects.create(actor_label="t", action="once", target_type="t", target_id="1")
        return Outcome(201, {"done": True})

    def worker():
        try:
            barrier.wait()
            outcome = run_idempotent(owner="user:7", key="same", fingerprint="f", action=slow_effect)
            results.append("replayed" if outcome.replayed else "ran")
        except IdempotencyKeyInUse:
            results.append("in_use")
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results.count("ran") == 1
    assert len(results) == 8
    assert AuditLogEntry.objects.filter(action="once").count() == 1


def test_request_fingerprint_hashes_string_parameters_with_their_secrets_redacted():
    import hashlib
    import json

    raw = {"notes": "DB_PASSWORD=abc123!xyz", "lots": 2}
    redacted = {"notes": "DB_PASSWORD=[REDACTED: Password]", "lots": 2}
    canonical = json.dumps(
        {"method": "POST", "path": "/x/", "params": redacted}, sort_keys=True, separators=(",", ":"), default=str
    )
    assert request_fingerprint("post", "/x/", raw) == hashlib.sha256(canonical.encode()).hexdigest()


def test_fingerprint_remembers_clean_values_only_and_still_redacts_a_repeated_secret(monkeypatch):
    from gpurent.core import redaction

    scans: list[str] = []
    real = redaction.redact_text

    def counting(text, *, field):
        scans.append(text)
        return real(text, field=field)

    monkeypatch.setattr(redaction, "redact_text", counting)
    monkeypatch.setattr(redaction, "_KNOWN_CLEAN", set())
    secret = {"notes": "DB_PASSWORD=abc123!xyz", "gpu": "a100-80gb"}
    first = request_fingerprint("post", "/x/", secret)
    assert request_fingerprint("post", "/x/", secret) == first
    # The clean slug was scanned once; the secret every time, and it is nowhere in the remembered set.
    assert scans.count("a100-80gb") == 1
    assert scans.count("DB_PASSWORD=abc123!xyz") == 2
    # One digest is remembered (the slug's), and no value in plain text.
    remembered = redaction._KNOWN_CLEAN
    assert len(remembered) == 1
    assert all(isinstance(item, bytes) and b"a100" not in item for item in remembered)
    assert first == request_fingerprint("post", "/x/", {"notes": "DB_PASSWORD=other-pass9", "gpu": "a100-80gb"})


def test_fingerprint_redacts_strings_in_nested_objects():
    """A journal run's `parameters` or an estimate's `precision` are objects: their strings are redacted too."""
    nested = {"parameters": {"GH": "token ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"}, "lots": 2}
    other = {"parameters": {"GH": "token ghp_" + "Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2"}, "lots": 2}
    assert request_fingerprint("post", "/x/", nested) == request_fingerprint("post", "/x/", other)
    assert request_fingerprint("post", "/x/", nested) != request_fingerprint("post", "/x/", {**nested, "lots": 3})


def effect_row(counter):
    """A write with a visible effect (one audit-log row per run), for `run_idempotent_known`."""

    def write():
        counter.append(1)
        AuditLogEntry.objects.create(actor_label="test", action="known", target_type="t", target_id=str(len(counter)))

    return write


def test_run_idempotent_known_inserts_the_key_finished_with_the_write_and_replays_it():
    calls: list[int] = []
    outcome = Outcome(201, {"id": "e-1"})
    first = run_idempotent_known(owner="user:1", key="k", fingerprint="f", outcome=outcome, write=effect_row(calls))
    record = IdempotencyKey.objects.get(key="k")
    assert (record.state, record.response_status, record.response_body) == ("finished", 201, {"id": "e-1"})
    again = run_idempotent_known(
        owner="user:1", key="k", fingerprint="f", outcome=Outcome(201, {"id": "e-2"}), write=effect_row(calls)
    )
    assert (first.replayed, again.replayed, again.body) == (False, True, {"id": "e-1"})
    assert calls == [1]
    assert AuditLogEntry.objects.filter(action="known").count() == 1


def test_run_idempotent_known_other_request_with_the_key_is_refused_and_does_nothing():
    calls: list[int] = []
    run_idempotent_known(owner="user:1", key="k", fingerprint="f", outcome=Outcome(201), write=effect_row(calls))
    with pytest.raises(IdempotencyKeyReused):
        run_idempotent_known(owner="user:1", key="k", fingerprint="g", outcome=Outcome(201), write=effect_row(calls))

    # A key claimed by `run_idempotent`'s request still running is a 409 here too.
    def running():
        with pytest.raises(IdempotencyKeyInUse):
            run_idempotent_known(
                owner="user:1", key="running", fingerprint="f", outcome=Outcome(201), write=effect_row(calls)
            )
        return Outcome(200)

    run_idempotent(owner="user:1", key="running", fingerprint="f", action=running)
    assert calls == [1]


def test_run_idempotent_known_failing_write_leaves_no_key_so_a_retry_runs():
    def broken():
        AuditLogEntry.objects.create(actor_label="t", action="half", target_type="t", target_id="1")
        raise IntegrityError("from the write")

    with pytest.raises(IntegrityError, match="from the write"):
        run_idempotent_known(owner="user:1", key="k", fingerprint="f", outcome=Outcome(201), write=broken)
    assert not IdempotencyKey.objects.filter(key="k").exists()
    assert not AuditLogEntry.objects.filter(action="half").exists()
    calls: list[int] = []
    assert not run_idempotent_known(
        owner="user:1", key="k", fingerprint="f", outcome=Outcome(201), write=effect_row(calls)
    ).replayed
    assert calls == [1]


def test_run_idempotent_known_replayable_failure_is_stored_and_replayed():
    attempts: list[int] = []

    def write():
        attempts.append(1)
        raise InsufficientFunds()

    first = run_idempotent_known(owner="user:1", key="pay", fingerprint="f", outcome=Outcome(201), write=write)
    second = run_idempotent_known(owner="user:1", key="pay", fingerprint="f", outcome=Outcome(201), write=write)
    assert first.status == second.status == 422
    assert second.replayed
    assert len(attempts) == 2  # once rolled back with the key, once through `run_idempotent`, which stored it


@pytest.mark.django_db(transaction=True)
def test_a_new_keys_claim_is_one_insert_and_on_postgresql_does_not_wait_for_its_flush():
    """Decision 0205: the claim's COMMIT needs no WAL flush of its own; the action's COMMIT (synchronous) flushes
    it. SQLite: the INSERT alone, in autocommit."""
    with CaptureQueriesContext(connection) as captured:
        run_idempotent(owner="user:1", key="k", fingerprint="f", action=lambda: Outcome(200))
    statements = [query["sql"] for query in captured.captured_queries]
    insert = statements[2 if connection.vendor == "postgresql" else 0]
    assert insert.startswith('INSERT INTO "core_idempotencykey"'), statements
    if connection.vendor == "postgresql":
        assert statements[:4] == ["BEGIN", "SET LOCAL synchronous_commit TO OFF", insert, "COMMIT"]
    # The action's transaction is an ordinary one: it waits for its flush (no SET there).
    assert statements.count("SET LOCAL synchronous_commit TO OFF") == (connection.vendor == "postgresql")


@pytest.mark.django_db(transaction=True)
def test_run_idempotent_known_not_durable_skips_the_flush_only_in_a_transaction_of_its_own():
    """Decision 0255: `durable=False` commits with `synchronous_commit` off (PostgreSQL, this transaction only),
    set by the transaction's first statement (since decision 0295 the one that also takes the key's lock, through
    `set_config(..., true)`, which is `SET LOCAL`); the default waits for the flush, and inside a caller's
    transaction (a savepoint) nothing is set, since it would change the caller's COMMIT."""
    postgresql = connection.vendor == "postgresql"
    seen: list[str] = []

    def write():
        if postgresql:
            with connection.cursor() as cursor:
                cursor.execute("SHOW synchronous_commit")
                seen.append(cursor.fetchone()[0])

    def statements(key: str, *, durable: bool) -> list[str]:
        with CaptureQueriesContext(connection) as captured:
            run_idempotent_known(
                owner="user:1", key=key, fingerprint="f", outcome=Outcome(201), write=write, durable=durable
            )
        return [query["sql"] for query in captured.captured_queries if "SHOW" not in query["sql"]]

    def setting(sql: list[str]) -> list[str]:
        return [statement for statement in sql if "synchronous_commit" in statement]

    fast = statements("fast", durable=False)
    if postgresql:
        assert fast[:2] == ["BEGIN", *setting(fast)], fast
        assert fast[1].startswith("SELECT pg_try_advisory_xact_lock("), fast
        assert fast[1].endswith(", set_config('synchronous_commit', 'off', true)"), fast
    else:
        assert not setting(fast)  # SQLite has no such setting: an ordinary transaction
    assert not setting(statements("flushed", durable=True))
    with transaction.atomic():
        assert not setting(statements("inside", durable=False))
    assert IdempotencyKey.objects.count() == 3
    if postgresql:
        assert seen == ["off", "on", "on"]
        with connection.cursor() as cursor:
            cursor.execute("SHOW synchronous_commit")
            assert cursor.fetchone()[0] == "on"  # the session's setting is untouched


def _estimate_with_key(client, django_user_model, key):
    from gpurent.accounts.services import api_token_create

    user = django_user_model.objects.create_user(email="keys@example.com", password="x" * 12)
    _, secret = api_token_create(user=user, name="t")
    return client.post(
        "/api/v1/estimates",
        {"model": "llama-3.1-8b"},
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY=key,
        HTTP_AUTHORIZATION=f"Bearer {secret}",
    )


@pytest.mark.django_db
@pytest.mark.parametrize("key", ["a b", "tab\there", "ключ", "x" * 256])
def test_a_refused_key_is_told_exactly_what_is_accepted(client, django_user_model, key):
    """Issue 32: `a b` was refused with "1 to 255 printable characters", yet a space is printable. The message
    states the rule the pattern applies: 1 to 255 ASCII letters, digits and punctuation, no spaces."""
    response = _estimate_with_key(client, django_user_model, key)
    assert response.status_code == 422
    message = response.json()["error"]["message"]
    assert "printable characters" not in message
    assert message.startswith("Idempotency-Key: ")
    for rule in ("1 to 255", "ASCII letters, digits or punctuation", "no spaces"):
        assert rule in message


@pytest.mark.django_db
@pytest.mark.parametrize(
    "key", ["0f8c6a2e-5b7d-4c1e-9f3a-2d4b6c8e0a1f", "01J9ZQ8X3K", "a.b_c:d~e!#$%&'()*+,/;<=>?@[]^`{|}\\\"", "x" * 255]
)
def test_every_kind_of_character_the_message_names_is_accepted(client, django_user_model, key):
    assert _estimate_with_key(client, django_user_model, key).status_code == 201

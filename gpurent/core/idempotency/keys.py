"""Idempotency keys: a POST that creates or moves something takes effect at most once per key (DESIGN §5).

How a request runs:

1. **Claim** the key in its own short transaction: a row per (owner, key) with a fingerprint of the request.
   - Same key, other fingerprint → `IdempotencyKeyReused` (422), nothing done.
   - Same key, finished → the stored response is replayed.
   - Same key, claimed by a request still running → `IdempotencyKeyInUse` (409), retryable.
2. **Run** the action in a second transaction that also stores the response on the row, so the effect and
   "this key is done" commit together or not at all.
3. A business failure (an `ApplicationError` that is `replayable`, e.g. insufficient balance) is stored and
   replayed like a success; a validation error or a crash removes the claim so the client can retry.

The claim is committed before the action runs (not merged into one transaction) so that a concurrent request
with the same key sees it and gets a 409 instead of queueing behind the first one. On PostgreSQL that COMMIT
does not wait for its disk flush: the action's COMMIT flushes it (decision 0205).

Two hot paths insert their key already finished in the action's own transaction instead, one COMMIT in all:
`run_idempotent_known` (an estimate answers with an id made up front) and `run_idempotent_unclaimed` (placing an
order stores its answer with `finish_early`). There no claim row is visible while the first request runs, so
on PostgreSQL the key is *locked* instead, in a statement the request runs anyway: a transaction-level advisory
lock on a hash of (owner, key), taken with `pg_try_advisory_xact_lock`, which never waits. A retry that cannot
take it answers 409 at once instead of waiting for the first request's COMMIT (decision 0295).

This module knows nothing of HTTP: who owns a key, where it comes from and what a request's fingerprint is
belong to `gpurent.core.idempotency.request`, which also holds what views call (`api_idempotent`,
`api_idempotent_known`, `form_action`).
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, models, transaction
from django.utils import timezone

from ..errors import ApplicationError, IdempotencyKeyInUse, IdempotencyKeyReused
from ..models import IdempotencyKey, IdempotencyState

__all__ = [
    "Outcome",
    "Write",
    "finish_early",
    "lock_row_with_running_key",
    "run_idempotent",
    "run_idempotent_known",
    "run_idempotent_unclaimed",
]


@dataclass(frozen=True, slots=True)
class Outcome:
    """The response of an idempotent request: HTTP status and JSON body; `replayed` when it was stored."""

    status: int
    body: dict[str, Any] = field(default_factory=dict)
    replayed: bool = False

    @property
    def is_error(self) -> bool:
        return self.status >= 400


def _claim_transaction() -> AbstractContextManager[object]:
    """The transaction a new key's INSERT commits in: on PostgreSQL, one that does not wait for its WAL flush.

    The claim needs no flush of its own (decision 0205): the action's transaction, which commits after it and
    does wait, flushes the WAL up to its own commit record and so the claim's too; if the server crashes before
    that, the action did not commit either, and a lost claim is a key never claimed (the client's retry starts
    afresh). Other sessions see the claim as soon as it commits, flushed or not, so a concurrent retry still
    gets its 409. That saves one disk flush (~3.5 ms on the development machine) per idempotent request.
    Inside a caller's transaction it is a savepoint (the caller's COMMIT decides); on SQLite, autocommit.
    """
    connection = transaction.get_connection()
    if connection.in_atomic_block:
        return transaction.atomic()
    if connection.vendor != "postgresql":
        return nullcontext()
    return _unflushed_transaction()


@contextmanager
def _unflushed_transaction() -> Iterator[None]:
    with transaction.atomic(), transaction.get_connection().cursor() as cursor:
        # SET LOCAL: only this transaction; the connection's next one waits for its flush as usual.
        cursor.execute("SET LOCAL synchronous_commit TO OFF")
        yield


def _claim(*, owner: str, key: str, fingerprint: str) -> IdempotencyKey:
    now = timezone.now()
    try:
        # The usual case, a new key: one INSERT in a transaction of its own (`_claim_transaction`), no read first.
        with _claim_transaction():
            return IdempotencyKey.objects.create(
                owner=owner, key=key, fingerprint=fingerprint, locked_at=now, created_at=now
            )
    except IntegrityError:
        pass  # the key exists: read it under a lock and decide
    with transaction.atomic():
        record, created = IdempotencyKey.objects.select_for_update().get_or_create(
            owner=owner,
            key=key,
            defaults={"fingerprint": fingerprint, "locked_at": now, "created_at": now},
        )
        if created:
            return record
        if record.created_at < now - timedelta(hours=settings.IDEMPOTENCY_KEY_TTL_HOURS):
            # Past retention the key is forgotten: it starts a new request, as if it had been pruned.
            record.fingerprint, record.created_at = fingerprint, now
            record.state, record.locked_at = IdempotencyState.STARTED, now
            record.response_status = record.response_body = None
            record.save()
            return record
        if record.fingerprint != fingerprint:
            raise IdempotencyKeyReused()
        if record.state == IdempotencyState.FINISHED:
            return record
        lock_timeout = timedelta(seconds=settings.IDEMPOTENCY_LOCK_TIMEOUT_SECONDS)
        if record.locked_at is not None and record.locked_at > now - lock_timeout:
            raise IdempotencyKeyInUse()
        # The first request crashed without releasing its claim: nothing of it committed, so take over.
        record.locked_at = now
        record.save(update_fields=["locked_at"])
        return record


def _finish(record: IdempotencyKey, outcome: Outcome) -> None:
    record.state, record.locked_at = IdempotencyState.FINISHED, None
    record.response_status, record.response_body = outcome.status, outcome.body
    if record._state.adding:  # never claimed (`run_idempotent_unclaimed`): inserted finished, in this transaction
        record.save(force_insert=True)
        return
    updated = IdempotencyKey.objects.filter(pk=record.pk, state=IdempotencyState.STARTED).update(
        state=IdempotencyState.FINISHED,
        locked_at=None,
        response_status=outcome.status,
        response_body=outcome.body,
    )
    if updated != 1:
        # Another process took the claim over after our lock timed out; let our transaction roll back.
        raise IdempotencyKeyInUse()


Write = Callable[[], object]  # a write whose outcome is known before it runs (`run_idempotent_known`)


@dataclass(slots=True)
class _Running:
    """The key whose action is running in this context: the action can store its outcome early
    (`finish_early`) and lock the key with a row it locks anyway (`lock_row_with_running_key`).

    `key_locked` is not undone by a savepoint's rollback, which releases an advisory lock taken inside it: no
    idempotent action takes the key's lock inside a savepoint (an order's placement runs without one, decision
    0250); one that did would have to reset the flag."""

    record: IdempotencyKey
    key_locked: bool = False


_running: ContextVar[_Running | None] = ContextVar("idempotency_running", default=None)


def _key_lock_id(owner: str, key: str) -> int:
    """The advisory lock of (owner, key) on PostgreSQL: 64 bits of a hash (a clash of two keys running at the
    same moment, 1 in 2**64, would only make one of them answer 409)."""
    digest = hashlib.blake2b(f"{owner}\n{key}".encode(), digest_size=8, person=b"gpurent-idem").digest()
    return int.from_bytes(digest, "big", signed=True)


@functools.cache
def _row_lock_sql(model: type[models.Model]) -> tuple[str, str]:
    """`model`'s row lock by primary key, plain and with the key's lock as a condition, written once per process
    (the ORM compiled the same statement on every order). `FOR UPDATE` where the database has it (not SQLite,
    whose transactions take the write lock at BEGIN, `config/settings/base.py`)."""
    connection = transaction.get_connection()
    quote = connection.ops.quote_name
    table, pk = quote(model._meta.db_table), quote(model._meta.pk.column)
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    plain = f"SELECT {pk} FROM {table} WHERE {pk} = %s{lock}"  # noqa: S608 (names from the model's metadata)
    # pg_try_advisory_xact_lock: true when this transaction now holds the key's lock (until COMMIT or ROLLBACK),
    # false at once when another transaction holds it. It never waits.
    keyed = f"SELECT {pk} FROM {table} WHERE {pk} = %s AND pg_try_advisory_xact_lock(%s::bigint){lock}"  # noqa: S608
    return plain, keyed


def _key_lock_taken(owner: str, key: str, *, unflushed: bool = False) -> bool:
    """Take the key's lock in a statement of its own (with `unflushed`, the same statement also does what
    `SET LOCAL synchronous_commit TO OFF` does, so the lock costs no round trip there). PostgreSQL only."""
    extra = ", set_config('synchronous_commit', 'off', true)" if unflushed else ""
    with transaction.get_connection().cursor() as cursor:
        cursor.execute(f"SELECT pg_try_advisory_xact_lock(%s::bigint){extra}", [_key_lock_id(owner, key)])
        return bool(cursor.fetchone()[0])


def lock_row_with_running_key(model: type[models.Model], pk: object) -> None:
    """Lock the row `pk` of `model` (`SELECT … FOR UPDATE`, held to COMMIT) and, in the same statement, the
    running idempotent request's key (decision 0295): the action's first lock that another request may hold
    (placing an order: the owner's row, decision 0122) also tells a retry with the same key that the first is
    still running, before it queues behind that lock. The row must exist.

    The key's lock is a condition on the row (`pg_try_advisory_xact_lock`, evaluated when the row is read and
    before its lock is waited for): a retry whose condition fails reads no row, locks nothing and waits for
    nothing. Outside an idempotent request, on SQLite, or once the key is locked: just the row's lock.

    Raises:
        IdempotencyKeyInUse: another request with this key holds its lock: it is still running.
    """
    running = _running.get()
    connection = transaction.get_connection()
    plain, keyed = _row_lock_sql(model)
    with connection.cursor() as cursor:
        if running is None or running.key_locked or connection.vendor != "postgresql":
            cursor.execute(plain, [pk])
            return
        record = running.record
        cursor.execute(keyed, [pk, _key_lock_id(record.owner, record.key)])
        if cursor.fetchone() is None:
            raise IdempotencyKeyInUse()
    running.key_locked = True


def finish_early(outcome: Outcome) -> Outcome:
    """Store `outcome` for the running key now, inside the action's transaction, and return it.

    For an action whose last statement takes a contended lock (placing an order reserves stock last): the
    key's row is written before that lock is taken instead of while it is held. If the action then fails,
    the transaction rolls this back with everything else. Outside `run_idempotent` it only returns `outcome`.
    """
    running = _running.get()
    if running is None or running.record.state == IdempotencyState.FINISHED:
        return outcome
    record = running.record
    if record._state.adding and not running.key_locked and transaction.get_connection().vendor == "postgresql":
        # An unclaimed key is locked before it is inserted, so that a retry gets its 409 instead of waiting on
        # the INSERT's unique index. Placing an order has locked it already, with the owner's row.
        if not _key_lock_taken(record.owner, record.key):
            raise IdempotencyKeyInUse()
        running.key_locked = True
    _finish(record, outcome)
    return outcome


def _release(record: IdempotencyKey) -> None:
    IdempotencyKey.objects.filter(pk=record.pk, state=IdempotencyState.STARTED).delete()


def run_idempotent(*, owner: str, key: str, fingerprint: str, action: Callable[[], Outcome]) -> Outcome:
    """Run `action` at most once for (owner, key) and return its outcome, or the stored one on a retry.

    `action` runs inside a transaction together with the storing of its outcome. It returns an `Outcome`
    or raises an `ApplicationError`: replayable ones are stored as the outcome, others propagate and release
    the key, as does any other exception.

    Raises:
        IdempotencyKeyReused: the key was used before for a different request.
        IdempotencyKeyInUse: a request with this key is still running.
    """
    record = _claim(owner=owner, key=key, fingerprint=fingerprint)
    if record.state == IdempotencyState.FINISHED:
        # A check constraint guarantees a finished key has a status.
        return Outcome(record.response_status or 500, record.response_body or {}, replayed=True)
    running = _running.set(_Running(record))
    try:
        with transaction.atomic():
            outcome = action()
            if record.state != IdempotencyState.FINISHED:  # else finished early, in this transaction
                _finish(record, outcome)
        return outcome
    except ApplicationError as error:
        if not error.replayable:
            _release(record)
            raise
        outcome = Outcome(error.status, error.as_body())
        with transaction.atomic():
            _finish(record, outcome)
        return outcome
    except BaseException:
        _release(record)
        raise
    finally:
        _running.reset(running)


def run_idempotent_unclaimed(*, owner: str, key: str, fingerprint: str, action: Callable[[], Outcome]) -> Outcome:
    """`run_idempotent` without a claim transaction, for an action that stores its outcome with `finish_early`
    inside its own transaction (placing an order, before the stock lock): the key is inserted there, already
    finished, so a new key costs one INSERT and no transaction of its own (decision 0250).

    On PostgreSQL the key is locked before that INSERT, with the action's first row lock
    (`lock_row_with_running_key`) or else by `finish_early`: while another request with the key runs, the action
    raises `IdempotencyKeyInUse` (409) at once instead of waiting for that request's COMMIT (decision 0295), unless
    the key has been stored meanwhile (then it is replayed). A key that exists makes the INSERT fail and everything
    of this request rolls back; it then takes `run_idempotent`'s path: replay, 422 for another body. So does any
    other integrity error of the action (it runs once more, claimed), and an error that is not stored (a retry may
    fail validation because the first request changed things: the checkout's draft is gone) when the key exists.
    A replayable failure rolls the action back and is stored with an INSERT of its own.
    """
    now = timezone.now()
    fields = {"owner": owner, "key": key, "fingerprint": fingerprint, "locked_at": now, "created_at": now}
    running = _running.set(_Running(IdempotencyKey(**fields)))
    try:
        with transaction.atomic():
            outcome = action()
            finish_early(outcome)
        return outcome
    except IntegrityError:
        pass  # nothing of this request was written
    except ApplicationError as error:
        if not error.replayable:
            if not IdempotencyKey.objects.filter(owner=owner, key=key).exists():
                raise
        else:
            try:
                with transaction.atomic():
                    _finish(IdempotencyKey(**fields), outcome := Outcome(error.status, error.as_body()))
                return outcome
            except IntegrityError:
                pass  # the key was written meanwhile: decide as every idempotent request does
    finally:
        _running.reset(running)
    return run_idempotent(owner=owner, key=key, fingerprint=fingerprint, action=action)


def run_idempotent_known(
    *, owner: str, key: str, fingerprint: str, outcome: Outcome, write: Callable[[], object], durable: bool = True
) -> Outcome:
    """`run_idempotent` for an action whose outcome is known before it writes (a new row's public id made up
    front): one transaction inserts the key already finished with `outcome` and runs `write`, so a new key costs
    no claim transaction, no update of the key and one disk flush in all (decision 0205).

    A key that exists already (a retry, a reuse) makes the INSERT fail before `write` runs, and the request
    then takes `run_idempotent`'s path: the stored outcome is replayed, another body is refused. On PostgreSQL
    the transaction's first statement takes the key's lock (`pg_try_advisory_xact_lock`): while another request
    with the key is in its transaction, this one answers 409 at once instead of waiting for that COMMIT
    (decision 0295). `write` raising rolls the key back with it: nothing is stored and the client may retry, as
    with a validation error in `run_idempotent`.
    `durable=False`: its COMMIT skips the disk flush (PostgreSQL; a server crash can lose both, decision 0255);
    the same statement that takes the key's lock sets that, so the lock costs no statement there.

    Raises:
        IdempotencyKeyReused: the key was used before for a different request.
        IdempotencyKeyInUse: a request with this key is still running.
    """
    inserted: list[bool] = []
    connection = transaction.get_connection()
    postgresql = connection.vendor == "postgresql"
    # `SET LOCAL` only in a transaction of its own: inside a caller's, it would change the caller's COMMIT.
    unflushed = not durable and postgresql and not connection.in_atomic_block
    try:
        with transaction.atomic():
            if postgresql and not _key_lock_taken(owner, key, unflushed=unflushed):
                raise IdempotencyKeyInUse()
            now = timezone.now()
            IdempotencyKey.objects.create(
                owner=owner,
                key=key,
                fingerprint=fingerprint,
                state=IdempotencyState.FINISHED,
                locked_at=None,
                response_status=outcome.status,
                response_body=outcome.body,
                created_at=now,
            )
            inserted.append(True)
            write()
        return outcome
    except IntegrityError:
        if inserted:
            raise  # from `write`, not from the key
    except IdempotencyKeyInUse:
        # Another request with this key is in its transaction: the first one (409), or a retry after the key was
        # stored (then replay it). Nothing of this request was written.
        if inserted or not IdempotencyKey.objects.filter(owner=owner, key=key).exists():
            raise
    except ApplicationError as error:
        if not error.replayable:
            raise  # nothing stored: the key is free again
        # A failure that must be stored (rare here): rolled back with the key, so run it again the usual way.
    # The key exists: nothing of this request was written. Decide as every idempotent request does.
    return run_idempotent(owner=owner, key=key, fingerprint=fingerprint, action=lambda: (write(), outcome)[1])

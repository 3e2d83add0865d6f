"""The worker's side: writing an export's file into `ExportPart` rows, with its progress, length and SHA-256.

A run claims the export by writing its task's id into `writer` and deleting what an earlier run wrote, in one
transaction; it then stores each full part of `PART_BYTES` with its progress in a transaction that first checks
that `writer` is still its own. A run that finds another's id (its worker was taken for dead and the task queued
again, decision 0384) stops without writing more, so two runs never interleave their parts. Memory is one piece
of the writer (a page of rows) and one part, whatever the history.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Iterable
from datetime import timedelta

from django.db import connection, transaction
from django.utils import timezone, translation
from django_tasks import TaskContext, task

from gpurent.accounts.owners import Owner
from gpurent.core.reconnect import DATABASE_LOST

from .enums import ExportState
from .kinds import KINDS
from .models import Export, ExportPart

__all__ = ["KEEP", "PART_BYTES", "export_write", "export_write_task"]

logger = logging.getLogger(__name__)

PART_BYTES = 1 << 20
# How long a ready file is kept (then the sweep deletes it; the customer may ask for a new one).
KEEP = timedelta(hours=24)
# Progress is recorded with each part, and at least this often in between (a slow writer's page shows it move).
PROGRESS_SECONDS = 1.0


class _Superseded(Exception):
    """Another run of the task has claimed the export."""


@task(takes_context=True)
def export_write_task(context: TaskContext, export_id: int) -> None:
    """The worker's task: `export_write` in the name of this task run."""
    export_write(export_id, writer=str(context.task_result.id))


def export_write(export_id: int, *, writer: str) -> bool:
    """Write the export's whole file from its first row; True when it is ready. Does nothing for an export that is
    ready, failed or gone; a run that another run took over stops and returns False.

    Raises:
        DATABASE_LOST: the connection was lost; the worker queues the task again and the next run starts over.
        Exception: the writer failed; the export is marked failed first (the customer may ask again).
    """
    with transaction.atomic():
        claimed = Export.objects.filter(pk=export_id, state__in=[ExportState.QUEUED, ExportState.WRITING]).update(
            state=ExportState.WRITING, writer=writer, rows_done=0, size_bytes=0, progress_at=timezone.now()
        )
        if not claimed:
            return False
        ExportPart.objects.filter(export_id=export_id).delete()
    export = Export.objects.select_related("user", "guest").get(pk=export_id)
    kind = KINDS[export.kind]
    owner = Owner(user=export.user, guest=export.guest)
    try:
        with translation.override(export.language):
            Export.objects.filter(pk=export_id, writer=writer).update(rows_total=kind.rows(owner))
            _write(export_id, writer, kind.write(owner, timezone.now()))
    except _Superseded:
        logger.info("export %s: taken over by another run; this run (%s) stops", export_id, writer)
        return False
    except DATABASE_LOST:
        raise
    except Exception:
        Export.objects.filter(pk=export_id, writer=writer).update(state=ExportState.FAILED, progress_at=timezone.now())
        raise
    return True


def _write(export_id: int, writer: str, pieces: Iterable[tuple[str, int]]) -> None:
    digest = hashlib.sha256()
    buffer = bytearray()
    number = size = rows = 0
    reported = time.monotonic()
    for text, rows in pieces:
        data = text.encode()
        digest.update(data)
        size += len(data)
        buffer += data
        while len(buffer) >= PART_BYTES:
            with memoryview(buffer) as view:  # one copy of the part, not two
                part = bytes(view[:PART_BYTES])
            _store(export_id, writer, number, part, rows)
            del buffer[:PART_BYTES]
            number += 1
            reported = time.monotonic()
        if time.monotonic() - reported >= PROGRESS_SECONDS:
            _progress(export_id, writer, rows)
            reported = time.monotonic()
    if buffer:
        _store(export_id, writer, number, bytes(buffer), rows)
    now = timezone.now()
    done = Export.objects.filter(pk=export_id, writer=writer).update(
        state=ExportState.READY,
        rows_done=rows,
        size_bytes=size,
        sha256=digest.hexdigest(),
        progress_at=now,
        finished_at=now,
        expires_at=now + KEEP,
    )
    if not done:
        raise _Superseded()


def _progress(export_id: int, writer: str, rows: int, **more: int) -> None:
    mine = Export.objects.filter(pk=export_id, writer=writer)
    if not mine.update(rows_done=rows, progress_at=timezone.now(), **more):
        raise _Superseded()


def _store(export_id: int, writer: str, number: int, data: bytes, rows: int) -> None:
    """One part and the progress with it, in one transaction; the conditional UPDATE comes first, so a run that
    claims the export meanwhile waits for this part and then deletes it. On PostgreSQL the part's COMMIT does not
    wait for its disk flush: the COMMIT that marks the export ready waits for one, and WAL is flushed in order, so
    a file is never ready before all its parts are on disk (a crash before that leaves it being written, and the
    task is run again)."""
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL synchronous_commit TO OFF")
        _progress(export_id, writer, rows, size_bytes=number * PART_BYTES + len(data))
        ExportPart.objects.create(export_id=export_id, number=number, data=data)

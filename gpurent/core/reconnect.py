"""A process that lost its database connection: how long-running loops and requests carry on (decision 0385).

A database restart, a failover, a network cut or an operator's `pg_terminate_backend` closes connections under
the processes that hold them. Django replaces a connection that died while idle only where it checks it: at a
request's first query (`CONN_HEALTH_CHECKS`, reset by `close_old_connections()` when a request starts). A loop
in a management command (the worker, `sweep --loop`, `watch_chains`) is one long "request", so it
calls `close_old_connections()` between rounds and `connection_lost()` when a round failed on the database:
the broken connection is closed and the next round opens a new one. A request whose own query was cut answers
503 (`gpurent.core.views.server_error`).
"""

from __future__ import annotations

import contextlib
import logging

from django.db import DatabaseError, InterfaceError, OperationalError, connection

__all__ = ["DATABASE_LOST", "connection_lost"]

logger = logging.getLogger(__name__)

# What a database that stopped answering raises (DB-API: "errors related to the database's operation and not
# necessarily under the control of the programmer, e.g. an unexpected disconnect"); Django wraps the driver's.
DATABASE_LOST: tuple[type[Exception], ...] = (OperationalError, InterfaceError)


def connection_lost(error: Exception, process: str) -> None:
    """Log that `process` lost its database connection and close this thread's connection, so that its next query
    opens a new one. The log has the error's class and first line only: never the query or its parameters."""
    lines = str(error).strip().splitlines()
    logger.warning(
        "%s: the database connection failed (%s: %s); reconnecting",
        process,
        type(error).__name__,
        lines[0][:200] if lines else "",
    )
    with contextlib.suppress(DatabaseError):  # closing a connection the server dropped may fail: it is gone anyway
        connection.close()

"""What each web process measures for `/metrics`: requests per route, database queries, cache calls.

These are prometheus-client metrics of the process (docs/decisions/0410). With `PROMETHEUS_MULTIPROC_DIR` set in
the environment before the process starts (every gunicorn worker of a machine pointing at the same empty
directory), prometheus-client keeps each process's values in a file there and `/metrics` adds up the files of
every process of the machine; without it, each process answers with its own values (right for a single process).
The shop's business (orders, payments, the watchers, the queue, hosts) is not measured here but counted in the
database at scrape time (`gpurent.monitoring.collector`), which is the same whichever process answers.

- Requests: `ObservabilityMiddleware` (core/observability/middleware.py) observes each request once, labelled with its
  route's name (`catalog:detail`, never the raw path, so the label set is bounded by the URL configuration),
  its method (the usual seven, else `other`) and, on the counter, its status.
- Database: `database_timed()` wraps every connection during a request (`connection.execute_wrapper`, Django's
  hook for this) and observes each statement by its kind (`select`, `insert`, `update`, `delete`, `other`).
- Cache: Django has no hook around cache calls, so `cache_timing_install()` (from the middleware) makes the
  cache handler wrap each backend it creates in `TimedCache`, which times every call and counts hits and misses
  of `get` and `get_many`, and otherwise behaves as the backend it wraps.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from time import perf_counter
from typing import Any

from prometheus_client import Counter, Histogram, disable_created_metrics

__all__ = [
    "CACHE_REQUESTS",
    "CACHE_SECONDS",
    "DB_QUERY_SECONDS",
    "REQUESTS",
    "REQUEST_SECONDS",
    "TimedCache",
    "cache_timing_install",
    "database_timed",
    "method_label",
    "multiprocess_dir_ensure",
]

# Counters and histograms also export a `_created` timestamp by default: noise for every series of the shop.
disable_created_metrics()

REQUESTS = Counter(
    "gpurent_http_requests", "HTTP requests answered, by route name, method and status.", ["route", "method", "status"]
)
REQUEST_SECONDS = Histogram(
    "gpurent_http_request_duration_seconds",
    "Time from the first middleware receiving a request to its response, by route name and method.",
    ["route", "method"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)
DB_QUERY_SECONDS = Histogram(
    "gpurent_db_query_duration_seconds",
    "Database statements run while answering requests, by connection alias and statement kind.",
    ["alias", "statement"],
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
)
CACHE_SECONDS = Histogram(
    "gpurent_cache_operation_duration_seconds",
    "Calls to the cache, by cache alias and operation.",
    ["cache", "operation"],
    buckets=(0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25),
)
CACHE_REQUESTS = Counter(
    "gpurent_cache_lookups",
    "Keys looked up in the cache (get, get_many), by cache alias and result.",
    ["cache", "result"],
)

_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
_STATEMENTS = ("select", "insert", "update", "delete")


def method_label(method: str | None) -> str:
    """The method as a label: one of the usual seven, else `other` (a client may send any word)."""
    return method if method in _METHODS else "other"


def _statement(sql: Any) -> str:
    head = str(sql)[:12].lstrip().lower()
    return next((kind for kind in _STATEMENTS if head.startswith(kind)), "other")


def _timed_query(execute: Callable[..., Any], sql: Any, params: Any, many: bool, context: dict[str, Any]) -> Any:
    start = perf_counter()
    try:
        return execute(sql, params, many, context)
    finally:
        DB_QUERY_SECONDS.labels(context["connection"].alias, _statement(sql)).observe(perf_counter() - start)


@contextmanager
def database_timed() -> Iterator[None]:
    """Observe every statement that any database connection of this thread runs inside the block."""
    from django.db import connections

    with ExitStack() as stack:
        for connection in connections.all():
            stack.enter_context(connection.execute_wrapper(_timed_query))
        yield


class TimedCache:
    """A cache backend that times each call to the backend it wraps and counts the hits of `get`/`get_many`.

    Everything else (`make_key`, `close`, attributes) is the wrapped backend's own.
    """

    _MISSING = object()

    def __init__(self, alias: str, backend: Any) -> None:
        self._alias = alias
        self._backend = backend

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self._backend, name)
        if name in _TIMED and callable(attribute):
            return _timed(self._alias, name, attribute)
        return attribute

    def __contains__(self, key: Any) -> bool:
        return bool(self.has_key(key))

    def get(self, key: Any, default: Any = None, version: int | None = None) -> Any:
        start = perf_counter()
        try:
            value = self._backend.get(key, self._MISSING, version=version)
        finally:
            CACHE_SECONDS.labels(self._alias, "get").observe(perf_counter() - start)
        hit = value is not self._MISSING
        CACHE_REQUESTS.labels(self._alias, "hit" if hit else "miss").inc()
        return value if hit else default

    def get_many(self, keys: Any, version: int | None = None) -> dict[Any, Any]:
        keys = list(keys)
        start = perf_counter()
        try:
            found: dict[Any, Any] = self._backend.get_many(keys, version=version)
        finally:
            CACHE_SECONDS.labels(self._alias, "get_many").observe(perf_counter() - start)
        if found:
            CACHE_REQUESTS.labels(self._alias, "hit").inc(len(found))
        if len(keys) > len(found):
            CACHE_REQUESTS.labels(self._alias, "miss").inc(len(keys) - len(found))
        return found


_TIMED = frozenset(
    {"set", "set_many", "add", "delete", "delete_many", "incr", "decr", "touch", "has_key", "get_or_set", "clear"}
)


def _timed(alias: str, operation: str, call: Callable[..., Any]) -> Callable[..., Any]:
    def timed(*args: Any, **kwargs: Any) -> Any:
        start = perf_counter()
        try:
            return call(*args, **kwargs)
        finally:
            CACHE_SECONDS.labels(alias, operation).observe(perf_counter() - start)

    return timed


def cache_timing_install() -> None:
    """Make Django's cache handler wrap every backend it creates from now on in `TimedCache`, and wrap those this
    thread created already (each thread has its own; a web process installs this before its request threads)."""
    from django.core.cache import caches

    if not getattr(caches, "_gpurent_timed", False):
        create = caches.create_connection

        def create_connection(alias: str) -> Any:
            return TimedCache(alias, create(alias))

        setattr(caches, "create_connection", create_connection)  # noqa: B010 (an instance attribute, on purpose)
        setattr(caches, "_gpurent_timed", True)  # noqa: B010
    created = caches._connections  # type: ignore[attr-defined]  # Django's per-thread store of the backends made
    for alias in caches:
        backend = getattr(created, alias, None)
        if backend is not None and not isinstance(backend, TimedCache):
            setattr(created, alias, TimedCache(alias, backend))


def multiprocess_dir_ensure() -> None:
    """Create `PROMETHEUS_MULTIPROC_DIR` when it is set and missing (prometheus-client writes each process's
    values there from the first request on, and a missing directory would fail that request).

    Raises:
        ImproperlyConfigured: it is set but cannot be created.
    """
    import os

    from django.core.exceptions import ImproperlyConfigured

    path = os.environ.get("PROMETHEUS_MULTIPROC_DIR", "")
    if not path:
        return
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as error:
        raise ImproperlyConfigured(f"PROMETHEUS_MULTIPROC_DIR {path!r} cannot be created: {error}") from error

"""The first middleware: gives each request its id, times it, and writes one log line when it is answered.

- The id (`core.observability.request_id`) is bound for the whole request, so every line logged while it runs
  carries it, and it is sent back in the `X-Request-ID` header.
- The time from here to the response is observed per route name, method and status
  (`core.observability.metrics`), and so is each database statement the request runs.
- The line (this module's logger, INFO): method, route name, status and milliseconds, also as the fields
  `method`, `route`, `status` and `duration_ms`. It names the route, not the path, and no client address: a path
  may hold a link's token, and the address is personal data. It can replace a proxy's or gunicorn's access log,
  which has both (docs/operations.md, "Metrics and logs").
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from time import perf_counter

from django.http import HttpRequest, HttpResponse

from .metrics import (
    REQUEST_SECONDS,
    REQUESTS,
    cache_timing_install,
    database_timed,
    method_label,
    multiprocess_dir_ensure,
)
from .request_id import HEADER, bound, incoming_or_new

__all__ = ["ObservabilityMiddleware", "route_label"]

# The request line's logger keeps the package's name, the one docs/operations.md and log queries name.
logger = logging.getLogger("gpurent.core.observability")

UNMATCHED = "unmatched"


def route_label(request: HttpRequest) -> str:
    """The name of the route that answered (`namespace:name`, or the view's dotted path for an unnamed route);
    `unmatched` when no route matched the path (a 404 of the resolver, or a middleware answered first)."""
    match = getattr(request, "resolver_match", None)
    return match.view_name if match is not None else UNMATCHED


class ObservabilityMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        # Once per web process, before its first request: only web processes are measured (a worker or the sweep
        # loads no middleware, writes no metric and needs no directory).
        multiprocess_dir_ensure()
        cache_timing_install()

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request_id = incoming_or_new(request.headers.get(HEADER))
        start = perf_counter()
        with bound(request_id):
            with database_timed():
                response = self.get_response(request)
            seconds = perf_counter() - start
            route, method = route_label(request), method_label(request.method)
            REQUEST_SECONDS.labels(route, method).observe(seconds)
            REQUESTS.labels(route, method, str(response.status_code)).inc()
            duration_ms = round(seconds * 1000, 1)
            logger.info(
                "%s %s %s %s ms",
                method,
                route,
                response.status_code,
                duration_ms,
                extra={"method": method, "route": route, "status": response.status_code, "duration_ms": duration_ms},
            )
        response[HEADER] = request_id
        return response

"""`GET /metrics`: the Prometheus text exposition of this machine's web processes and of the shop's business.

Who may read it (decision 0411): with `METRICS_TOKEN` set, a request must carry `Authorization: Bearer <token>`
(else 401); with `METRICS_ALLOWED_IPS` set, it must come from one of those addresses or networks (else 403); with
both, both. The address is `REMOTE_ADDR` as the shop sees it (behind a proxy listed in `TRUSTED_PROXIES`, the
address the proxy names, decision 0407), never a header a client writes. Prometheus scrapes each web machine
directly on its private address; the proxy need not pass `/metrics` on. With neither set, the endpoint does not
exist: 404, like any unknown path.

What it holds (docs/operations.md): the request, database and cache metrics of the process that answers, or of
every web process of the machine when `PROMETHEUS_MULTIPROC_DIR` is set (`gpurent.core.observability.metrics`), and the
business metrics counted in the database now (`collector.BusinessCollector`).
"""

from __future__ import annotations

import hmac
import ipaddress
from collections.abc import Iterable
from functools import cache

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from prometheus_client import REGISTRY, CollectorRegistry
from prometheus_client.core import Metric
from prometheus_client.exposition import choose_encoder
from prometheus_client.multiprocess import MultiProcessCollector

from .collector import BusinessCollector

__all__ = ["metrics"]

IpNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network


@never_cache
@require_GET
def metrics(request: HttpRequest) -> HttpResponse:
    refused = _refusal(request)
    if refused is not None:
        return refused
    registry = CollectorRegistry(auto_describe=False)
    if settings.METRICS_MULTIPROCESS_DIR:
        MultiProcessCollector(registry, path=settings.METRICS_MULTIPROCESS_DIR)
    else:
        registry.register(_ThisProcess())
    registry.register(BusinessCollector())
    # Prometheus's text format 0.0.4 unless the scraper asks for OpenMetrics or a newer text format.
    encode, content_type = choose_encoder(request.headers.get("Accept", ""))
    return HttpResponse(encode(registry), content_type=content_type)


class _ThisProcess:
    """The metrics of this process alone (no multiprocess directory): prometheus-client's default registry."""

    def collect(self) -> Iterable[Metric]:
        return REGISTRY.collect()


def _refusal(request: HttpRequest) -> HttpResponse | None:
    token: str = settings.METRICS_TOKEN
    networks = allowed_networks(tuple(settings.METRICS_ALLOWED_IPS))
    if not token and not networks:
        raise Http404("Metrics are not configured.")
    if networks and not _address_allowed(request.META.get("REMOTE_ADDR", ""), networks):
        return HttpResponse("Forbidden\n", status=403, content_type="text/plain")
    if token:
        scheme, _, given = request.headers.get("Authorization", "").partition(" ")
        # compare_digest: the time taken does not tell how much of a guess was right.
        if scheme.lower() != "bearer" or not hmac.compare_digest(given.strip().encode(), token.encode()):
            response = HttpResponse("Unauthorized\n", status=401, content_type="text/plain")
            response["WWW-Authenticate"] = 'Bearer realm="metrics"'
            return response
    return None


@cache
def allowed_networks(entries: tuple[str, ...]) -> tuple[IpNetwork, ...]:
    """`METRICS_ALLOWED_IPS` parsed: each entry an address (`10.0.0.5`) or a network (`10.0.0.0/24`).

    Raises:
        ValueError: an entry is neither (a typo answers 500 to the scraper instead of letting anyone in).
    """
    return tuple(ipaddress.ip_network(entry, strict=False) for entry in entries)


def _address_allowed(address: str, networks: tuple[IpNetwork, ...]) -> bool:
    try:
        peer = ipaddress.ip_address(address)
    except ValueError:
        return False
    if isinstance(peer, ipaddress.IPv6Address) and peer.ipv4_mapped is not None:
        peer = peer.ipv4_mapped
    return any(peer in network for network in networks)

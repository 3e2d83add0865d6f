"""The visitor's address behind the shop's own proxy (decision 0407).

Behind nginx every request reaches gunicorn from the proxy, so `REMOTE_ADDR` is the proxy's address for every
visitor: the registration throttle would count the whole world as one client (ten registrations an hour for the
shop), django-axes would lock an account for everyone after five wrong passwords from anyone, and the quote
requests' limit would be shared by all. nginx sends the address it saw in `X-Real-IP`
(deploy/nginx/gpurent.conf sets it, replacing any value the visitor sent); `ClientAddressMiddleware` puts that
address in `REMOTE_ADDR` when, and only when, the request comes from one of `TRUSTED_PROXIES`. From anywhere
else the header is ignored, so a visitor who reaches a web process directly cannot choose the address a
throttle counts. With `TRUSTED_PROXIES` empty (one machine without a proxy, `make run`) the middleware is not
used at all.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured, MiddlewareNotUsed
from django.http import HttpRequest, HttpResponse

__all__ = ["ClientAddressMiddleware", "trusted_networks"]

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def trusted_networks(entries: list[str]) -> list[Network]:
    """`TRUSTED_PROXIES` as networks (an address alone is a network of one).

    Raises:
        ImproperlyConfigured: an entry is neither an address nor a network; the message names the variable, so
            a typo stops the web process at start instead of trusting nobody (or everybody) in silence.
    """
    networks: list[Network] = []
    for entry in entries:
        try:
            networks.append(ipaddress.ip_network(entry, strict=False))
        except ValueError:
            raise ImproperlyConfigured(f"TRUSTED_PROXIES: {entry!r} is not an address or a network") from None
    return networks


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text.strip())
    except ValueError:
        return None


class ClientAddressMiddleware:
    """`REMOTE_ADDR` becomes the `X-Real-IP` of a request from a trusted proxy (see the module docstring).

    A header that is not one address (a list, a name, empty) is ignored: nginx sends exactly one, so anything
    else did not come from the configured proxy and `REMOTE_ADDR` stays the peer's.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.networks = trusted_networks(list(settings.TRUSTED_PROXIES))
        if not self.networks:
            raise MiddlewareNotUsed

    def __call__(self, request: HttpRequest) -> HttpResponse:
        forwarded = request.META.get("HTTP_X_REAL_IP")
        if forwarded is not None:
            peer = _address(str(request.META.get("REMOTE_ADDR", "")))
            client = _address(forwarded)
            if peer is not None and client is not None and any(peer in network for network in self.networks):
                request.META["REMOTE_ADDR"] = str(client)
        return self.get_response(request)

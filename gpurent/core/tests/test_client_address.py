"""Behind the shop's proxy the visitor's address is the proxy's `X-Real-IP`, from trusted proxies only
(decision 0407)."""

import pytest
from django.core.exceptions import ImproperlyConfigured, MiddlewareNotUsed
from django.http import HttpRequest, HttpResponse
from django.test import RequestFactory

from gpurent.core.client_address import ClientAddressMiddleware, trusted_networks

PROXIES = ["10.0.0.10", "10.0.1.0/24", "fd00::10"]


def _seen(settings, peer: str, **headers: str) -> str:
    """The REMOTE_ADDR the view sees for a request from `peer` with these headers."""
    settings.TRUSTED_PROXIES = PROXIES
    seen: list[str] = []

    def view(request: HttpRequest) -> HttpResponse:
        seen.append(request.META["REMOTE_ADDR"])
        return HttpResponse()

    ClientAddressMiddleware(view)(RequestFactory().get("/", REMOTE_ADDR=peer, headers=headers))
    return seen[0]


@pytest.mark.parametrize(
    ("peer", "header", "expected"),
    [
        ("10.0.0.10", "203.0.113.7", "203.0.113.7"),  # the proxy itself
        ("10.0.1.200", "203.0.113.7", "203.0.113.7"),  # a proxy of the trusted network
        ("fd00::10", "2001:db8::7", "2001:db8::7"),  # over IPv6, an IPv6 visitor
        ("10.0.0.10", " 2001:db8::7 ", "2001:db8::7"),
        ("198.51.100.9", "203.0.113.7", "198.51.100.9"),  # a visitor who reached the web process directly
        ("10.0.2.1", "203.0.113.7", "10.0.2.1"),  # outside the trusted network
        ("10.0.0.10", "203.0.113.7, 10.0.0.3", "10.0.0.10"),  # not one address: not from our nginx
        ("10.0.0.10", "localhost", "10.0.0.10"),
        ("10.0.0.10", "", "10.0.0.10"),
    ],
)
def test_remote_addr_is_the_real_ip_of_a_trusted_proxy_only(settings, peer, header, expected):
    assert _seen(settings, peer, **{"X-Real-IP": header}) == expected


def test_a_forwarded_for_header_is_never_read(settings):
    # X-Forwarded-For is a list any client can start; only the header our nginx replaces counts.
    assert _seen(settings, "10.0.0.10", **{"X-Forwarded-For": "203.0.113.7"}) == "10.0.0.10"


def test_without_trusted_proxies_the_middleware_is_not_used(settings):
    settings.TRUSTED_PROXIES = []
    with pytest.raises(MiddlewareNotUsed):
        ClientAddressMiddleware(lambda request: HttpResponse())


def test_a_malformed_trusted_proxy_stops_the_process_naming_the_variable():
    with pytest.raises(ImproperlyConfigured, match=r"TRUSTED_PROXIES: 'nginx\.internal'"):
        trusted_networks(["10.0.0.10", "nginx.internal"])

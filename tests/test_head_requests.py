"""`HEAD` is answered wherever `GET` is (issue 30, decision 0426): the same status and content type as the `GET`
answer, and no body. Every route answered to `GET` is asked, as `tests/test_private_responses.py` classifies them
(a customer's route as its owner, a public one anonymously); a new route is in one of its lists."""

from __future__ import annotations

from typing import Any

import pytest
from django.http import HttpResponse, StreamingHttpResponse
from django.test import RequestFactory
from django.urls import reverse

from gpurent.core.middleware import HeadAsGetMiddleware
from tests.test_private_responses import CUSTOMER, PUBLIC, World, world  # noqa: F401 (the fixture)

pytestmark = pytest.mark.django_db


def _ask(client: Any, method: str, name: str, url: str, w: World) -> Any:
    if name.startswith("api:"):
        return client.generic(method, url, headers={"Authorization": f"Bearer {w.token}"})
    return client.generic(method, url)


def test_head_answers_every_get_route_as_get_does(world, client):  # noqa: F811 (the fixture)
    client.force_login(world.user)
    routes = [(name, reverse(name, kwargs=args(world))) for name, (method, args) in CUSTOMER.items() if method == "GET"]
    routes += [
        (name, f"/{name}" if name.endswith(".ico") else reverse(name, kwargs=PUBLIC[name](world))) for name in PUBLIC
    ]
    assert len(routes) > 90
    answered = 0
    for name, url in routes:
        got = _ask(client, "GET", name, url, world)
        head = _ask(client, "HEAD", name, url, world)
        assert head.status_code == got.status_code, (name, url, got.status_code, head.status_code)
        assert head.get("Content-Type") == got.get("Content-Type"), name
        assert b"".join(head.streaming_content if head.streaming else [head.content]) == b"", name
        answered += got.status_code != 405
    assert answered > 80  # a route that takes only POST answers 405 to both


def test_head_of_the_catalog_was_a_405_and_is_the_pages_headers(client, demo_catalog):
    head = client.head("/")
    assert head.status_code == 200
    assert head["Content-Type"] == "text/html; charset=utf-8"
    assert int(head["Content-Length"]) == len(client.get("/").content)
    assert client.head("/api/v1/catalog").status_code == 200
    assert client.head("/healthz").status_code == 200


def test_a_head_leaves_a_download_unread_and_a_post_only_route_refuses_it(client):
    read: list[int] = []

    def rows() -> Any:
        for number in range(3):
            read.append(number)
            yield b"row\n"

    def view(request: Any) -> StreamingHttpResponse:
        assert request.method == "GET"
        return StreamingHttpResponse(rows(), content_type="text/csv")

    request = RequestFactory().head("/export.csv")
    answer = HeadAsGetMiddleware(view)(request)
    assert request.method == "HEAD"
    assert isinstance(answer, StreamingHttpResponse)
    assert b"".join(answer.streaming_content) == b""  # type: ignore[arg-type]
    assert read == []
    page = HeadAsGetMiddleware(lambda request: HttpResponse("<p>page</p>"))(RequestFactory().head("/"))
    assert isinstance(page, HttpResponse)
    assert page.content == b""
    assert client.head(reverse("accounts:logout")).status_code == 405  # a POST-only route, as for GET

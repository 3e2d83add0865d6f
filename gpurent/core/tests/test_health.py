from unittest import mock

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import OperationalError
from django.http import HttpResponse
from django.test import RequestFactory

from gpurent.core.errors import Conflict
from gpurent.core.middleware import ApplicationErrorMiddleware

pytestmark = pytest.mark.django_db


def test_healthz_reports_the_database(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json()["status"] == "ok"
    assert response.json()["database"] == "ok"
    assert response["Cache-Control"].startswith("max-age=0")


def test_healthz_answers_503_when_the_database_is_down(client):
    with mock.patch("gpurent.core.views.connection.cursor", side_effect=OperationalError("down")):
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"status": "error", "database": "unavailable"}


def test_pages_carry_a_strict_content_security_policy(client):
    policy = client.get("/glossary/")["Content-Security-Policy"]
    assert "default-src 'self'" in policy
    assert "script-src 'self'" in policy
    assert "unsafe-inline" not in policy
    assert "frame-ancestors 'none'" in policy


def test_application_error_in_an_html_view_renders_the_error_page():
    request = RequestFactory().get("/rentals/")
    request.user = AnonymousUser()
    middleware = ApplicationErrorMiddleware(lambda r: HttpResponse())
    response = middleware.process_exception(request, Conflict("Already paid."))
    assert response is not None
    assert response.status_code == 409
    assert response["Content-Type"].startswith("text/html")
    body = response.content.decode()
    assert "Already paid." in body
    assert "conflict" in body
    assert "<html" in body

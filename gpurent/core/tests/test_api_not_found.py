"""An unknown path under /api/ is the API's JSON 404, in the request's language, never an HTML page."""

import pytest
from django.test import override_settings

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("debug", [False, True])
@pytest.mark.parametrize("method", ["get", "post", "delete"])
def test_unknown_api_path_answers_the_json_not_found_with_or_without_debug(client, debug, method):
    with override_settings(DEBUG=debug):
        response = getattr(client, method)("/api/v1/nonexistent")
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"error": {"code": "not_found", "message": "Not found."}}


def test_unknown_api_path_under_another_version_is_json_too(client):
    response = client.get("/api/v2/orders")
    assert (response.status_code, response.json()["error"]["code"]) == (404, "not_found")


def test_unknown_page_outside_the_api_is_still_the_html_page(client):
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")

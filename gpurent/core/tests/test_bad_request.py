"""A request Django refuses before any view (a query string with more fields than DATA_UPLOAD_MAX_NUMBER_FIELDS,
a Host header not in ALLOWED_HOSTS) gets the shop's 400: the API's JSON error on API routes, like every other
API error, and Django's page elsewhere (issue 15: the API answered an HTML page)."""

import pytest

pytestmark = pytest.mark.django_db

TOO_MANY_FIELDS = "&".join(f"f{number}=1" for number in range(1_100))


def test_an_api_query_with_too_many_fields_is_the_json_400(client):
    response = client.get(f"/api/v1/catalog?{TOO_MANY_FIELDS}")
    assert response.status_code == 400
    assert response.json() == {"error": {"code": "invalid_request", "message": "The request could not be processed."}}


def test_an_api_request_for_another_host_is_the_json_400(client):
    response = client.get("/api/v1/catalog", HTTP_HOST="shop.invalid")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_request"


def test_a_page_with_too_many_fields_is_still_an_html_400(client):
    response = client.get(f"/?{TOO_MANY_FIELDS}")
    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")


@pytest.mark.parametrize(
    ("method", "path", "allowed"), [("put", "/api/v1/catalog", "GET"), ("patch", "/api/v1/orders", "GET, POST")]
)
def test_an_api_route_asked_with_a_method_it_does_not_take_is_the_json_405(client, method, path, allowed):
    response = getattr(client, method)(path, "{}", content_type="application/json")
    assert response.status_code == 405
    assert response.json() == {
        "error": {"code": "method_not_allowed", "message": "This HTTP method is not allowed here."}
    }
    assert sorted(response["Allow"].split(", ")) == allowed.split(", ")


def test_the_405_message_is_translated(client):
    response = client.put("/api/v1/catalog", "{}", content_type="application/json", HTTP_ACCEPT_LANGUAGE="es")
    assert response.json()["error"]["message"] == "Este método HTTP no está permitido aquí."

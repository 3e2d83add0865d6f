"""`/api/v1/support`: a request answers its newest messages and a cursor to the earlier ones; the thread is read in
pages with `GET /requests/{ref}/messages` (decision 0352)."""

import pytest

from gpurent.support.api import MESSAGES_MAX_API_PAGE, MESSAGES_PER_API_PAGE
from gpurent.support.tests.test_thread_pages import ROWS, add_messages

pytestmark = pytest.mark.django_db


def numbers(messages):
    return [int(message["body"].split()[-1]) for message in messages]


def test_a_request_answers_its_newest_messages_oldest_first_and_the_cursor_of_the_earlier_ones(
    client, auth, support_request
):
    add_messages(support_request, ROWS)
    base = f"/api/v1/support/requests/{support_request.ref}"
    detail = client.get(base, **auth).json()
    assert numbers(detail["messages"]) == list(range(ROWS - MESSAGES_PER_API_PAGE, ROWS))
    pages = [numbers(detail["messages"])]
    cursor = detail["messages_next"]
    while cursor is not None:
        page = client.get(f"{base}/messages", {"cursor": cursor}, **auth).json()
        assert set(page) == {"items", "next"}
        pages.append(numbers(page["items"]))
        cursor = page["next"]
    assert pages == [list(range(37, 57)), list(range(17, 37)), list(range(17))]
    first = client.get(f"{base}/messages", **auth).json()
    assert numbers(first["items"]) == pages[0]
    assert set(first["items"][0]) == {"id", "author", "body", "redactions", "created_at"}


def test_a_short_thread_is_whole_in_the_request_and_a_new_request_has_none(client, auth, support_request):
    add_messages(support_request, 3)
    detail = client.get(f"/api/v1/support/requests/{support_request.ref}", **auth).json()
    assert (numbers(detail["messages"]), detail["messages_next"]) == ([0, 1, 2], None)
    body = {"subject": "vLLM 401", "observed": "401 Unauthorized"}
    created = client.post(
        "/api/v1/support/requests", body, content_type="application/json", HTTP_IDEMPOTENCY_KEY="k", **auth
    )
    assert (created.status_code, created.json()["messages"], created.json()["messages_next"]) == (201, [], None)


def test_the_thread_limit_is_20_by_default_and_at_most_50(client, auth, support_request):
    add_messages(support_request, ROWS)
    path = f"/api/v1/support/requests/{support_request.ref}/messages"
    assert len(client.get(path, **auth).json()["items"]) == MESSAGES_PER_API_PAGE == 20
    largest = client.get(path, {"limit": MESSAGES_MAX_API_PAGE}, **auth).json()
    assert numbers(largest["items"]) == list(range(ROWS - 50, ROWS))
    rest = client.get(path, {"limit": MESSAGES_MAX_API_PAGE, "cursor": largest["next"]}, **auth).json()
    assert (numbers(rest["items"]), rest["next"]) == (list(range(ROWS - 50)), None)
    for limit in (0, 51, "x"):
        response = client.get(path, {"limit": limit}, **auth)
        assert (response.status_code, response.json()["error"]["code"]) == (422, "invalid_request")


@pytest.mark.parametrize("cursor", ["not-a-cursor", "WyJ4Il0", "W10", "bnVsbA"])
def test_a_bad_thread_cursor_is_refused(client, auth, support_request, cursor):
    add_messages(support_request, 3)
    response = client.get(f"/api/v1/support/requests/{support_request.ref}/messages", {"cursor": cursor}, **auth)
    assert (response.status_code, response.json()["error"]["code"]) == (422, "invalid_request")


def test_the_thread_is_the_owners_only(client, auth, other_auth, support_request):
    add_messages(support_request, 3)
    path = f"/api/v1/support/requests/{support_request.ref}/messages"
    assert client.get(path).status_code == 401
    response = client.get(path, **other_auth)
    assert (response.status_code, response.json()["error"]["code"]) == (404, "not_found")
    assert client.get("/api/v1/support/requests/S-NONE/messages", **auth).status_code == 404


def test_the_openapi_document_describes_the_thread(client):
    schema = client.get("/api/v1/openapi.json").json()
    listed = schema["paths"]["/api/v1/support/requests/{ref}/messages"]["get"]
    assert {parameter["name"] for parameter in listed["parameters"]} >= {"ref", "cursor", "limit"}
    request_out = schema["components"]["schemas"]["RequestOut"]["properties"]
    assert {"messages", "messages_next"} <= set(request_out)

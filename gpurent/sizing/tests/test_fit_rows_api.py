"""The API's estimate holds the 12 GPUs that fit best (`catalog_fit`) and the table's size (`catalog_fit_total`);
`GET /api/v1/estimates/{id}/catalog-fit` pages through the whole stored table (decision 0350)."""

import pytest

from .conftest import QLORA_70B
from .test_api import URL, bearer, post
from .test_fit_rows_pages import SHOWN

pytestmark = pytest.mark.django_db


def test_the_estimate_answers_the_twelve_that_fit_best_and_the_tables_size(client, catalog_30, user):
    auth = bearer(user)
    created = post(client, auth, QLORA_70B)
    assert created.status_code == 201, created.content
    body = created.json()
    assert [row["gpu"] for row in body["catalog_fit"]] == SHOWN
    assert body["catalog_fit_total"] == 30
    assert list(body)[-1] == "catalog_fit_total"  # added after the fields scripts already read
    assert post(client, auth, QLORA_70B).json() == body  # the retry with the same key
    read = client.get(f"{URL}/{body['id']}", **auth).json()
    assert read == body


def test_with_twelve_gpus_or_fewer_catalog_fit_is_the_whole_table(client, demo_catalog, user):
    auth = bearer(user)
    body = post(client, auth, QLORA_70B).json()
    assert len(body["catalog_fit"]) == body["catalog_fit_total"] == 7
    whole = client.get(f"{URL}/{body['id']}/catalog-fit", **auth).json()
    assert whole == {"items": body["catalog_fit"], "next": None}


def test_the_catalog_fit_endpoint_pages_through_every_row_once(client, catalog_30, user):
    auth = bearer(user)
    estimate_id = post(client, auth, QLORA_70B).json()["id"]
    rows, sizes, cursor = [], [], None
    while True:
        query = {"limit": 7, **({"cursor": cursor} if cursor else {})}
        page = client.get(f"{URL}/{estimate_id}/catalog-fit", query, **auth)
        assert page.status_code == 200, page.content
        body = page.json()
        assert set(body) == {"items", "next"}
        rows += body["items"]
        sizes.append(len(body["items"]))
        cursor = body["next"]
        if cursor is None:
            break
    assert sizes == [7, 7, 7, 7, 2]
    assert [row["gpu"] for row in rows] == [f"gpu-{n:02d}" for n in range(30)]
    tight = next(row for row in rows if row["gpu"] == "gpu-04")
    assert (tight["status"], tight["lots"], tight["prices_usd"]["7"]) == ("tight", 1, "240.00")
    default = client.get(f"{URL}/{estimate_id}/catalog-fit", **auth).json()
    assert len(default["items"]) == 30
    assert default["next"] is None


@pytest.mark.parametrize("cursor", ["nonsense!", "WzMwXQ", "Wy0xXQ", "WyJhIl0", "WzEsMl0", "W3RydWVd"])
def test_a_cursor_that_is_not_one_of_the_lists_is_422(client, catalog_30, user, cursor):
    """Not base64 JSON, position 30 (past the end), -1, a string, two values, true."""
    auth = bearer(user)
    estimate_id = post(client, auth, QLORA_70B).json()["id"]
    answer = client.get(f"{URL}/{estimate_id}/catalog-fit", {"cursor": cursor}, **auth)
    assert answer.status_code == 422
    assert answer.json()["error"]["code"] == "invalid_request"


def test_another_owners_table_is_a_404(client, catalog_30, user, other_user):
    estimate_id = post(client, bearer(user), QLORA_70B).json()["id"]
    theirs = client.get(f"{URL}/{estimate_id}/catalog-fit", **bearer(other_user))
    assert theirs.status_code == 404
    assert theirs.json()["error"]["code"] == "not_found"
    assert client.get(f"{URL}/not-an-id/catalog-fit", **bearer(user)).status_code == 404
    assert client.get(f"{URL}/{estimate_id}/catalog-fit").status_code == 401
    assert client.get(f"{URL}/{estimate_id}/catalog-fit", {"limit": 0}, **bearer(user)).status_code == 422

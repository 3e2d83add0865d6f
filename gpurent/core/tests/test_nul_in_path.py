"""A NUL character in a URL's path is a 404 before any view looks it up (issue 15: bad input that reaches a
500). No reference, slug or id contains one, and PostgreSQL cannot compare a text column with one: the lookup of
`/rentals/A%00/` failed in the database driver, a 500 on every route that takes a reference."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from gpurent.accounts.services import api_token_create

pytestmark = pytest.mark.django_db

# (a path, the table its view would look the reference up in)
API_PATHS = [
    ("/api/v1/orders/A%00B", "orders_order"),
    ("/api/v1/deposits/D%00", "payments_deposit"),
    ("/api/v1/payouts/P%00", "payments_payout"),
    ("/api/v1/support/requests/R%00", "support_supportrequest"),
]
PAGE_PATHS = [
    ("/rentals/A%00/", "orders_order"),
    ("/rentals/A%00/receipt/", "orders_order"),
    ("/support/X%00/", "support_supportrequest"),
    ("/balance/deposits/D%00/", "payments_deposit"),
]


@pytest.fixture
def customer(django_user_model):
    return django_user_model.objects.create_user("ada@example.com", "long enough passphrase", first_name="Ada")


def _looked_up(queries: CaptureQueriesContext, table: str) -> bool:
    return any(f'"{table}"' in query["sql"] for query in queries.captured_queries)


@pytest.mark.parametrize(("path", "table"), API_PATHS)
def test_a_nul_in_an_api_path_is_a_json_404_before_any_lookup(client, customer, path, table):
    _, secret = api_token_create(user=customer, name="laptop")
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path, HTTP_AUTHORIZATION=f"Bearer {secret}")
    assert response.status_code == 404
    assert response.json() == {"error": {"code": "not_found", "message": "Not found."}}
    assert not _looked_up(queries, table)


@pytest.mark.parametrize(("path", "table"), PAGE_PATHS)
def test_a_nul_in_a_page_path_is_the_404_page_before_any_lookup(client, customer, path, table):
    client.force_login(customer)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path)
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")
    assert not _looked_up(queries, table)

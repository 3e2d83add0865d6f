"""A request whose own query is cut by a lost database connection answers 503, on the API in its JSON error shape
and on pages with a page that says to try again; one whose connection died while idle is served (issue 32).

The fault campaign killed database connections under load and got five 500s. A connection that died idle is
replaced by Django's check at the request's first query (`CONN_HEALTH_CHECKS`, run when `close_old_connections`
starts a request); PostgreSQL calls a connection "idle" also between two queries of one request, so a kill can
still cut a request's own query: that request answers 503 `database_unavailable`. PostgreSQL only: the test's
own connection is terminated from a second one (`pg_terminate_backend`). The test client does not check the
connection when a request starts (Django's test client turns that off), so its next query is the one cut.
"""

import psycopg
import pytest
from django.db import close_old_connections, connection
from django.test import Client

pytestmark = [
    pytest.mark.skipif(connection.vendor != "postgresql", reason="only a database server's connection can be cut"),
    pytest.mark.django_db(transaction=True),
]


def cut_this_connection() -> None:
    """Terminate the test's database connection from another one, as a database restart would."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    with psycopg.connect(**connection.get_connection_params()) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])


@pytest.fixture
def client_of_a_cut_connection(gpu):
    cut_this_connection()
    yield Client(raise_request_exception=False)
    connection.close()  # the test database is cleaned up on a new connection


def test_api_request_whose_query_is_cut_answers_503_database_unavailable(client_of_a_cut_connection):
    response = client_of_a_cut_connection.get("/api/v1/catalog")
    assert response.status_code == 503
    assert response.json() == {
        "error": {
            "code": "database_unavailable",
            "message": "The shop lost its connection to its database while answering. Please retry in a few seconds.",
        }
    }
    assert response["Retry-After"] == "5"


def test_page_whose_query_is_cut_answers_503_with_a_page_that_says_to_try_again(client_of_a_cut_connection):
    response = client_of_a_cut_connection.get("/")
    assert response.status_code == 503
    assert response["Content-Type"].startswith("text/html")
    assert response["Retry-After"] == "5"
    text = response.content.decode()
    assert "<h1>Please try again in a moment</h1>" in text
    assert "The shop lost its connection to its database while answering." in text


def test_a_connection_that_died_idle_is_replaced_when_the_next_request_starts(client_of_a_cut_connection):
    close_old_connections()  # what every request does first outside tests (Django's request_started signal)
    response = client_of_a_cut_connection.get("/api/v1/catalog")
    assert response.status_code == 200
    assert response.json()["items"]

"""The two reads every signed-in request makes before its view runs: its session and its customer, one statement
each, through Django's own session engine and authentication backend (decision 0490)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from gpurent.accounts.models import User

pytestmark = pytest.mark.django_db


def test_a_signed_in_request_reads_its_session_and_customer_with_one_statement_each(client):
    user = User.objects.create_user("ana@example.com", "a" * 16, first_name="Ana", last_name="L")
    client.force_login(user)
    with CaptureQueriesContext(connection) as captured:
        assert "Log out" in client.get("/glossary/").content.decode()
    session, customer = (query["sql"] for query in captured.captured_queries[:2])
    assert "django_session" in session
    assert "expire_date" in session
    assert "accounts_user" in customer

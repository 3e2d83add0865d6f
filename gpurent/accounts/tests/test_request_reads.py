"""The two reads every signed-in request makes, as one SQL statement each built once per process (decision
0429): its session (`gpurent.accounts.session_store`) and its customer (`User.objects.get(pk=…)`), with the
answers Django's ORM gave."""

from datetime import timedelta

import pytest
from django.contrib.sessions.models import Session
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from gpurent.accounts.models import User
from gpurent.accounts.session_store import cached_db, db

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("engine", [db, cached_db], ids=["db", "cached_db"])
def test_a_session_is_read_back_and_an_expired_or_unknown_one_is_empty(engine):
    store = engine.SessionStore()
    store["cart"] = {"gpu": "h100-80gb", "lots": 2}
    store.save()
    key = store.session_key
    with CaptureQueriesContext(connection) as captured:
        again = engine.SessionStore(key)
        assert again["cart"] == {"gpu": "h100-80gb", "lots": 2}
    assert len(captured) <= 1  # cached_db may answer from the cache
    Session.objects.filter(session_key=key).update(expire_date=timezone.now() - timedelta(seconds=1))
    expired = db.SessionStore(key)
    assert expired.load() == {}
    assert expired.session_key is None  # forgotten, as Django's own engine does
    unknown = engine.SessionStore("x" * 32)
    assert unknown.load() == {}
    assert unknown.session_key is None


def test_a_signed_in_request_reads_its_session_and_customer_with_one_statement_each(client):
    user = User.objects.create_user("ana@example.com", "a" * 16, first_name="Ana", last_name="L")
    client.force_login(user)
    with CaptureQueriesContext(connection) as captured:
        assert "Log out" in client.get("/glossary/").content.decode()
    session, customer = (query["sql"] for query in captured.captured_queries[:2])
    assert "django_session" in session
    assert "expire_date" in session
    assert "accounts_user" in customer


def test_user_get_by_pk_gives_what_the_orm_gives():
    user = User.objects.create_user("ben@example.com", "b" * 16, first_name="Ben", last_name="B", language="es")
    fast = User.objects.get(pk=user.pk)
    slow = User.objects.filter(pk=user.pk).get()
    assert {field.attname: getattr(fast, field.attname) for field in User._meta.concrete_fields} == {
        field.attname: getattr(slow, field.attname) for field in User._meta.concrete_fields
    }
    assert fast.last_login == slow.last_login
    assert fast.date_joined.tzinfo is not None
    assert User.objects.get(pk=str(user.pk)) == user  # a session holds the id as text
    with pytest.raises(User.DoesNotExist):
        User.objects.get(pk=user.pk + 1000)
    with pytest.raises(ValueError, match="expected a number"):
        User.objects.get(pk="not a number")
    assert User.objects.get(email="ben@example.com") == user  # any other lookup: the ORM's

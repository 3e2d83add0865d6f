"""The per-entry maximum of runs holds under a burst, through real HTTP against gunicorn (issue 16, decision 0315).

PostgreSQL only. One entry with a maximum of 3 runs receives 20 runs at once. `run_create` counts the entry's runs
under the entry's row lock, so the posts count one after the other: exactly 3 succeed (numbered 1, 2, 3), every
other answer is 409 `too_many_runs`, zero 5xx.
"""

import json
from collections import Counter

import pytest
from django.db import connection

from gpurent.accounts.services import api_token_create
from gpurent.journal.models import JournalEntry, Run
from tests.test_payments_http_concurrency import post_all

LIMIT = 3
BURST = 20

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="concurrency is only meaningful on PostgreSQL"),
]


def test_a_burst_of_runs_to_one_entry_adds_exactly_the_limit(gunicorn_server, django_user_model):
    user = django_user_model.objects.create_user("sweep@example.com", "long enough passphrase", first_name="S")
    entry = JournalEntry.objects.create(user=user, question="A sweep posted all at once")
    token = api_token_create(user=user, name="sweep")[1]
    requests = [
        (
            f"/api/v1/journal/entries/{entry.public_id}/runs",
            json.dumps({"name": f"step {index}", "parameters": {"step": index}}).encode(),
            {"Authorization": f"Bearer {token}", "Idempotency-Key": f"sweep-{index}"},
        )
        for index in range(BURST)
    ]

    with gunicorn_server(JOURNAL_MAX_RUNS_PER_ENTRY=str(LIMIT)) as base:
        answers = Counter((status, code) for status, code, _ in post_all(base, requests, socket_timeout=600))

    assert answers == {(201, ""): LIMIT, (409, "too_many_runs"): BURST - LIMIT}, answers
    assert sorted(Run.objects.filter(entry=entry).values_list("number", flat=True)) == list(range(1, LIMIT + 1))

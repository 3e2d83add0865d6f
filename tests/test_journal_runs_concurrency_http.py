"""The per-entry maximum of runs holds under a burst, through real HTTP against gunicorn (issue 16, decision 0315).

PostgreSQL only. One entry with a maximum of 3 runs receives 20 runs at once. `run_create` counts the entry's runs
under the entry's row lock, so the posts count one after the other: exactly 3 succeed (numbered 1, 2, 3), every
other answer is 409 `too_many_runs`, zero 5xx.
"""

import json

from gpurent.core.testing import POSTGRES_BURST, bearer_posts, post_all, tally
from gpurent.journal.models import JournalEntry, Run

LIMIT = 3
BURST = 20

pytestmark = POSTGRES_BURST


def test_a_burst_of_runs_to_one_entry_adds_exactly_the_limit(gunicorn_server, customer_with_token):
    user, token = customer_with_token("sweep@example.com")
    entry = JournalEntry.objects.create(user=user, question="A sweep posted all at once")
    bodies = [json.dumps({"name": f"step {index}", "parameters": {"step": index}}).encode() for index in range(BURST)]
    requests = bearer_posts(f"/api/v1/journal/entries/{entry.public_id}/runs", bodies, token=token, key="sweep")

    with gunicorn_server(JOURNAL_MAX_RUNS_PER_ENTRY=str(LIMIT)) as server:
        answers = tally(post_all(server, requests, socket_timeout=600))

    assert answers == {(201, ""): LIMIT, (409, "too_many_runs"): BURST - LIMIT}, answers
    assert sorted(Run.objects.filter(entry=entry).values_list("number", flat=True)) == list(range(1, LIMIT + 1))

"""The HTTP bench's figure that does not vary from run to run (`http_bench.buffers_read`, part 4).

It must count the SELECTs a read sends, and only those, and give the same buffers for the same read twice, or
the "no read grows with the history" line of docs/performance.md would rest on nothing.
"""

import importlib
from pathlib import Path

import pytest
from django.db import connection

from gpurent.accounts.services import api_token_create

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="EXPLAIN (ANALYZE, BUFFERS) is PostgreSQL's"),
]

BENCH = Path(__file__).resolve().parents[1] / "bench"


@pytest.fixture
def http_bench(settings, monkeypatch):
    monkeypatch.syspath_prepend(str(BENCH))
    settings.ALLOWED_HOSTS = ["127.0.0.1"]  # the host the bench's in-process client sends, as gunicorn serves
    return importlib.import_module("http_bench")


def test_buffers_read_counts_the_selects_of_one_read_and_repeats_itself(http_bench, django_user_model):
    customer = django_user_model.objects.create_user("b@example.com", "long passphrase", first_name="B", last_name="L")
    headers = {"Authorization": f"Bearer {api_token_create(user=customer, name='bench')[1]}"}
    sent: list[str] = []

    def keep(execute, sql, params, many, context):
        sent.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(keep):
        selects, buffers = http_bench.buffers_read("/api/v1/balance", headers)
    reads = [sql for sql in sent if sql.lstrip().upper().startswith("SELECT")]
    explains = [sql for sql in sent if sql.startswith("EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ")]
    assert selects == len(reads) >= 2  # at least the token and the account
    assert len(explains) == selects  # each SELECT explained once, nothing else
    assert buffers > 0
    assert http_bench.buffers_read("/api/v1/balance", headers) == (selects, buffers)

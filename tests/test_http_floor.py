"""The HTTP bench's floor (bench/floor/): a replay writes what the real endpoint writes, new where it must be.

The floor is only worth quoting if its statements are the endpoint's: a second request must create a second
order (its own reference, two status changes pointing at it, its email, its idempotency record, a lot out of
stock) and a second saved estimate, through the recorded statements alone.
"""

import importlib
from pathlib import Path

import pytest
from django.db import connection

from gpurent.accounts.services import api_token_create
from gpurent.core.models import IdempotencyKey, OutboundEmail
from gpurent.orders.models import Order, OrderStatusChange
from gpurent.sizing.models import SavedEstimate

pytestmark = pytest.mark.django_db

BENCH = Path(__file__).resolve().parents[1] / "bench"
ORDER = {"gpu": "a100-80gb", "term_days": 7, "lots": 1, "environment": "pytorch"}
ESTIMATE = {"model": "llama-3.1-8b", "workload": "inference", "seq_len": 4096, "concurrent_sequences": 2}


@pytest.fixture
def floor(settings, monkeypatch):
    monkeypatch.syspath_prepend(str(BENCH))
    settings.ROOT_URLCONF = "floor.urls"
    urls = importlib.import_module("floor.urls")
    urls._recordings.clear()
    yield
    urls._recordings.clear()


@pytest.fixture
def auth(django_user_model):
    customer = django_user_model.objects.create_user("f@example.com", "long passphrase", first_name="F", last_name="L")
    return {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=customer, name='bench')[1]}"}


def post(client, auth, path, body, key):
    return client.post(path, body, content_type="application/json", HTTP_IDEMPOTENCY_KEY=key, **auth)


FLOORS = [
    "/bench-floor",
    pytest.param(
        "/bench-floor-batched",
        marks=[
            pytest.mark.skipif(connection.vendor != "postgresql", reason="one round trip: PostgreSQL's protocol"),
            pytest.mark.django_db(transaction=True),  # its text commits: no test transaction around it
        ],
    ),
]


@pytest.mark.parametrize("floor_path", FLOORS)
def test_a_replayed_order_is_a_new_order_with_its_history_email_and_key(client, floor, auth, gpu, floor_path):
    first = post(client, auth, f"{floor_path}/api/v1/orders", ORDER, "k-1")  # recorded: the real endpoint
    second = post(client, auth, f"{floor_path}/api/v1/orders", ORDER, "k-2")  # replayed
    assert (first.status_code, second.status_code) == (201, 201)
    refs = [first.json()["ref"], second.json()["ref"]]
    assert refs[0] != refs[1]
    assert sorted(Order.objects.values_list("ref", flat=True)) == sorted(refs)
    replayed = Order.objects.get(ref=refs[1])
    assert OrderStatusChange.objects.filter(order=replayed).count() == 2
    assert OutboundEmail.objects.filter(key__endswith=refs[1]).count() == 1
    assert set(IdempotencyKey.objects.values_list("key", flat=True)) == {"k-1", "k-2"}
    gpu.refresh_from_db()
    assert gpu.stock_lots == 8 - 2


@pytest.mark.parametrize("floor_path", FLOORS)
def test_a_replayed_estimate_is_a_new_saved_estimate(client, floor, auth, demo_catalog, floor_path):
    assert post(client, auth, f"{floor_path}/api/v1/estimates", ESTIMATE, "e-1").status_code == 201
    assert post(client, auth, f"{floor_path}/api/v1/estimates", ESTIMATE, "e-2").status_code == 201
    assert SavedEstimate.objects.count() == 2
    assert len(set(SavedEstimate.objects.values_list("public_id", flat=True))) == 2


def test_the_floor_looks_the_token_up(client, floor):
    response = post(client, {"HTTP_AUTHORIZATION": "Bearer gpr_nope"}, "/bench-floor/api/v1/orders", ORDER, "k")
    assert response.status_code == 401

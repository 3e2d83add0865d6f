"""`/api/v1/orders`: shapes of DESIGN §11.1, idempotency, stock, and owner scoping."""

import csv
import io

import pytest

from gpurent.accounts.services import api_token_create
from gpurent.catalog.models import GpuModel
from gpurent.orders.models import Order

pytestmark = pytest.mark.django_db

BODY = {"gpu": "b200-2x180gb", "term_days": 7, "lots": 2, "environment": "pytorch"}


@pytest.fixture
def customer(django_user_model):
    return django_user_model.objects.create_user(
        "ada@example.com", "long enough passphrase", first_name="Ada", last_name="L"
    )


@pytest.fixture
def auth(customer):
    _, secret = api_token_create(user=customer, name="laptop")
    return {"HTTP_AUTHORIZATION": f"Bearer {secret}"}


def post_order(client, auth, body=BODY, key="k-1"):
    return client.post("/api/v1/orders", body, content_type="application/json", HTTP_IDEMPOTENCY_KEY=key, **auth)


def test_orders_api_create_returns_the_order_shape(client, auth, b200):
    response = post_order(client, auth)
    assert response.status_code == 201
    order = response.json()
    assert {key: order[key] for key in ["gpu", "term_days", "lots", "cards", "environment"]} == {
        "gpu": "b200-2x180gb",
        "term_days": 7,
        "lots": 2,
        "cards": 4,
        "environment": "pytorch",
    }
    assert (order["lot_price_usd"], order["total_usd"], order["paid_usd"]) == ("1700.00", "3400.00", "0.00")
    assert (order["payment_status"], order["payment_reported"], order["provisioning_status"]) == (
        "awaiting_payment",
        False,
        "not_started",
    )
    assert order["access"] is None
    assert order["intents"] == []
    assert order["term_starts_at"] is None
    assert order["reserved_until"].endswith(("+00:00", "Z"))


def test_orders_api_same_key_same_body_replays_one_order(client, auth, b200):
    first = post_order(client, auth)
    second = post_order(client, auth)
    assert first.status_code == second.status_code == 201
    assert first.json()["ref"] == second.json()["ref"]
    assert Order.objects.count() == 1


def test_orders_api_same_key_other_body_is_422_and_does_nothing(client, auth, b200):
    post_order(client, auth)
    response = post_order(client, auth, body={**BODY, "lots": 1})
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "idempotency_key_reused"
    assert Order.objects.count() == 1


def test_orders_api_without_idempotency_key_is_refused(client, auth, b200):
    response = client.post("/api/v1/orders", BODY, content_type="application/json", **auth)
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "invalid_request"
    assert not Order.objects.exists()


def test_orders_api_out_of_stock_is_409_and_replayed_for_its_key(client, auth, b200):
    response = post_order(client, auth, body={**BODY, "lots": 3})
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "out_of_stock"
    GpuModel.objects.filter(pk=b200.pk).update(stock_lots=5)
    assert post_order(client, auth, body={**BODY, "lots": 3}).status_code == 409  # the stored outcome
    assert post_order(client, auth, body={**BODY, "lots": 3}, key="k-2").status_code == 201


@pytest.mark.parametrize(
    "body",
    [
        {**BODY, "lots": 11},
        {**BODY, "lots": 0},
        {**BODY, "term_days": 14},
        {**BODY, "environment": "windows"},
        {**BODY, "environment": "other"},
        {**BODY, "gpu": "tpu-v5"},
        {"gpu": "b200-2x180gb"},
    ],
)
def test_orders_api_invalid_body_is_422_invalid_request(client, auth, b200, body):
    response = post_order(client, auth, body=body)
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "invalid_request"
    assert not Order.objects.exists()


def test_orders_api_needs_authentication(client, b200):
    assert client.get("/api/v1/orders").status_code == 401
    response = client.post("/api/v1/orders", BODY, content_type="application/json", HTTP_IDEMPOTENCY_KEY="k")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "not_authenticated"


def test_orders_api_list_get_and_csv(client, auth, b200):
    ref = post_order(client, auth).json()["ref"]
    assert [item["ref"] for item in client.get("/api/v1/orders", **auth).json()["items"]] == [ref]
    assert client.get(f"/api/v1/orders/{ref}", **auth).json()["total_usd"] == "3400.00"
    rows = list(csv.DictReader(io.StringIO(client.get("/api/v1/orders/summary.csv", **auth).content.decode())))
    assert rows[0]["reference"] == ref


def test_orders_api_another_customers_order_is_404(client, auth, b200, django_user_model):
    ref = post_order(client, auth).json()["ref"]
    stranger = django_user_model.objects.create_user(
        "eve@example.com", "long enough passphrase", first_name="E", last_name="X"
    )
    _, secret = api_token_create(user=stranger, name="eve")
    other = {"HTTP_AUTHORIZATION": f"Bearer {secret}"}
    response = client.get(f"/api/v1/orders/{ref}", **other)
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"
    assert client.get("/api/v1/orders", **other).json() == {"items": [], "next": None}
    assert ref not in client.get("/api/v1/orders/summary.csv", **other).content.decode()


def test_orders_api_list_makes_the_same_queries_for_one_or_six_orders(client, auth, gpu, customer):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from gpurent.orders.services import Contact, order_place

    def place():
        order_place(
            owner=customer,
            gpu_slug=gpu.slug,
            term_days=7,
            lots=1,
            environment="ubuntu",
            contact=Contact("A", "L", "a@x.io"),
        )

    place()
    client.get("/api/v1/orders", **auth)  # the first use of a token also records when it was used
    with CaptureQueriesContext(connection) as one:
        client.get("/api/v1/orders", **auth)
    for _ in range(5):
        place()
    with CaptureQueriesContext(connection) as six:
        assert len(client.get("/api/v1/orders", **auth).json()["items"]) == 6
    assert len(six.captured_queries) == len(one.captured_queries)

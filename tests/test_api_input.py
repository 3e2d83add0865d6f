"""Bad input on every write endpoint of the API gets a clear 4xx, never a 500 (DESIGN §12, issue 15).

One rule per kind of bad input, held by `gpurent.core.schemas.InputSchema` and `gpurent.core.api`: a NUL
character, an unknown field, a coerced number, a body over the upload limit, a missing `Idempotency-Key`.
The same tests run on PostgreSQL, where a NUL character used to reach the database and fail there.
"""

import json

import pytest
from django.test import Client

from config.api import api
from gpurent.accounts.services import api_token_create
from gpurent.core.money import Usd
from gpurent.orders.models import Order
from gpurent.orders.services import Contact, order_place

pytestmark = pytest.mark.django_db

NUL = "\x00"
REGISTRATION = {"first_name": "Ines", "last_name": "Duarte", "email": "ines@example.com", "password": "a" * 6 + "x9"}


@pytest.fixture
def customer(django_user_model):
    return django_user_model.objects.create_user("ada@example.com", "long enough passphrase", first_name="Ada")


@pytest.fixture
def auth(customer):
    _, secret = api_token_create(user=customer, name="laptop")
    return {"HTTP_AUTHORIZATION": f"Bearer {secret}"}


@pytest.fixture
def order(customer, demo_catalog):
    return order_place(
        owner=customer,
        gpu_slug="h100-80gb",
        term_days=7,
        lots=1,
        environment="pytorch",
        contact=Contact("Ada", "Lovelace", "ada@example.com"),
    )


def post(client, url, body, auth=None, key="k-1"):
    return client.post(url, body, content_type="application/json", HTTP_IDEMPOTENCY_KEY=key, **(auth or {}))


# (url, a valid body, the text field that gets the NUL) for every write endpoint with a text field.
NUL_CASES = [
    ("/api/v1/auth/register", {**REGISTRATION, "password": "correct horse battery staple"}, "first_name"),
    ("/api/v1/auth/tokens", {"email": "ada@example.com", "password": "long enough passphrase"}, "name"),
    ("/api/v1/support/requests", {"subject": "NCCL timeout", "observed": "hangs at step 1420"}, "observed"),
    ("/api/v1/journal/entries", {"question": "bf16 vs fp8"}, "hypothesis"),
    (
        "/api/v1/orders",
        {"gpu": "h100-80gb", "term_days": 7, "lots": 1, "environment": "other", "environment_note": "x"},
        "environment_note",
    ),
    ("/api/v1/deposits", {"amount_usd": "250.00"}, "amount_usd"),
    ("/api/v1/estimates", {"model": "llama-3.1-8b"}, "model"),
]


@pytest.mark.parametrize(("url", "body", "field"), NUL_CASES, ids=[case[0] for case in NUL_CASES])
def test_api_nul_character_in_a_text_field_is_422_naming_the_field(client, auth, demo_catalog, url, body, field):
    response = post(client, url, {**body, field: f"before{NUL}after"}, auth=auth)
    assert response.status_code == 422, response.content
    error = response.json()["error"]
    assert error["code"] == "invalid_request"
    assert field in error["message"]
    assert "NUL" in error["message"]


def test_api_nul_character_in_nested_values_and_keys_is_422(client, auth):
    entry = post(client, "/api/v1/journal/entries", {"question": "bf16 vs fp8"}, auth=auth).json()
    url = f"/api/v1/journal/entries/{entry['id']}/runs"
    key_nul = post(client, url, {"name": "r", "parameters": {f"ba{NUL}tch": "16"}}, auth=auth, key="k-2")
    value_nul = post(client, url, {"name": "r", "steady": {"peak_source": NUL}}, auth=auth, key="k-3")
    assert [key_nul.status_code, value_nul.status_code] == [422, 422]
    assert "parameters" in key_nul.json()["error"]["message"]


def test_api_nul_character_in_the_support_message_and_the_quote_is_422(client, auth, customer, order):
    created = post(client, "/api/v1/support/requests", {"subject": "s", "observed": "o"}, auth=auth)
    ref = created.json()["ref"]
    message = post(client, f"/api/v1/support/requests/{ref}/messages", {"body": NUL}, auth=auth, key="k-2")
    assert message.status_code == 422
    intents = post(client, f"/api/v1/orders/{order.ref}/intents", {"asset": f"U{NUL}", "network": "tron"}, auth=auth)
    assert intents.status_code == 422


@pytest.mark.parametrize(
    "lots",
    [True, "1", 1.0, "1 "],
    ids=["bool", "string", "float", "padded"],
)
def test_api_order_lots_must_be_a_json_integer(client, auth, demo_catalog, lots):
    body = {"gpu": "h100-80gb", "term_days": 7, "lots": lots, "environment": "pytorch"}
    response = post(client, "/api/v1/orders", body, auth=auth)
    assert (response.status_code, response.json()["error"]["code"]) == (422, "invalid_request")
    assert "lots" in response.json()["error"]["message"]
    assert not Order.objects.exists()


@pytest.mark.parametrize("amount", ["1e3", " 250.00", "250.00 ", "٢٥٠", "250", "+250", "1_000", "250.000"])
def test_api_deposit_amount_is_a_plain_decimal_string(client, auth, amount):
    response = post(client, "/api/v1/deposits", {"amount_usd": amount}, auth=auth)
    if amount == "250":
        assert response.status_code == 201
    else:
        assert (response.status_code, response.json()["error"]["code"]) == (422, "invalid_request"), amount


@pytest.mark.parametrize("text", ["1e3", "١٢", " 12", "12 ", "1_000", "+5", "12.", ".5", "1.000"])
def test_usd_parse_refuses_exponents_padding_and_non_ascii_digits(text):
    with pytest.raises(ValueError, match=r"not a dollar amount|more than two decimals"):
        Usd.parse(text)


def _request_body_schemas():
    document = api.get_openapi_schema()
    components = document["components"]["schemas"]
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            content = operation.get("requestBody", {}).get("content", {})
            for media in content.values():
                ref = media["schema"].get("$ref", "")
                yield f"{method.upper()} {path}", components[ref.rsplit("/", 1)[-1]]


def test_every_request_body_of_the_openapi_document_refuses_unknown_fields():
    bodies = list(_request_body_schemas())
    assert len(bodies) >= 12
    open_bodies = [name for name, schema in bodies if schema.get("additionalProperties") is not False]
    assert open_bodies == []


@pytest.mark.parametrize(("url", "body", "field"), NUL_CASES, ids=[case[0] for case in NUL_CASES])
def test_api_unknown_field_is_422_naming_it(client, auth, demo_catalog, url, body, field):
    response = post(client, url, {**body, "surprise": 1}, auth=auth)
    assert response.status_code == 422
    assert "surprise" in response.json()["error"]["message"]


# POSTs that need no key: they create nothing a retry could duplicate, or are deduplicated otherwise.
POSTS_WITHOUT_KEY = {"/api/v1/auth/register", "/api/v1/auth/tokens", "/api/v1/webhooks/btcpay"}


def test_openapi_declares_the_idempotency_key_header_where_it_is_required():
    document = api.get_openapi_schema()
    checked = 0
    for path, operations in document["paths"].items():
        post_ = operations.get("post")
        if post_ is None or path in POSTS_WITHOUT_KEY or path.endswith("/report"):
            continue
        headers = {p["name"]: p for p in post_.get("parameters", []) if p["in"] == "header"}
        assert headers.get("Idempotency-Key", {}).get("required") is True, path
        checked += 1
    assert checked >= 9


def test_api_missing_idempotency_key_is_422_and_writes_nothing(client, auth, demo_catalog):
    body = {"gpu": "h100-80gb", "term_days": 7, "lots": 1, "environment": "pytorch"}
    response = client.post("/api/v1/orders", body, content_type="application/json", **auth)
    assert (response.status_code, response.json()["error"]["code"]) == (422, "invalid_request")
    assert "Idempotency-Key" in response.json()["error"]["message"]
    assert not Order.objects.exists()


@pytest.mark.parametrize(
    "url", ["/api/v1/support/requests", "/api/v1/auth/register", "/api/v1/webhooks/btcpay", "/api/v1/orders"]
)
def test_api_body_over_the_upload_limit_is_a_json_413(settings, auth, url):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    client = Client(raise_request_exception=False)
    response = post(client, url, {"subject": "s", "observed": "x" * 2000}, auth=auth)
    assert response.status_code == 413
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["error"]["code"] == "payload_too_large"


def test_openapi_declares_the_413_on_every_operation_that_takes_a_body():
    operations = [op for ops in api.get_openapi_schema()["paths"].values() for op in ops.values()]
    with_body = [op for op in operations if "requestBody" in op]
    assert with_body
    assert all(
        op["responses"][413]["content"]["application/json"]["schema"]["$ref"].endswith("/ErrorOut") for op in with_body
    )
    assert not any(413 in op["responses"] for op in operations if "requestBody" not in op)


def test_api_body_that_is_not_json_is_a_4xx(client, auth):
    response = client.post(
        "/api/v1/support/requests", b"{" * 100_000, content_type="application/json", HTTP_IDEMPOTENCY_KEY="k", **auth
    )
    assert 400 <= response.status_code < 500
    assert json.loads(response.content)["error"]["code"]


def test_openapi_types_the_intents_of_an_order():
    schemas = api.get_openapi_schema()["components"]["schemas"]
    intents = schemas["OrderOut"]["properties"]["intents"]
    assert intents["items"] == {"$ref": "#/components/schemas/IntentOut"}
    assert {"id", "asset", "network", "address", "amount", "status"} <= set(schemas["IntentOut"]["properties"])

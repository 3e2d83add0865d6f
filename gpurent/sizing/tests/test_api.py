"""`POST /api/v1/estimates` and `GET /api/v1/estimates/{id}`: shapes, idempotency, 422 and owner scoping."""

import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gpurent.accounts.services import api_token_create
from gpurent.catalog.models import GpuModel
from gpurent.core.models import IdempotencyKey
from gpurent.sizing.models import SavedEstimate

from .conftest import QLORA_70B, SERVING_70B

pytestmark = pytest.mark.django_db

URL = "/api/v1/estimates"


def bearer(user):
    _token, secret = api_token_create(user=user, name="test")
    return {"HTTP_AUTHORIZATION": f"Bearer {secret}"}


def post(client, auth, body, key="k-1"):
    return client.post(URL, body, content_type="application/json", HTTP_IDEMPOTENCY_KEY=key, **auth)


def test_create_estimate_answers_201_with_breakdown_and_catalog_fit(client, demo_catalog, user):
    response = post(client, bearer(user), SERVING_70B)
    assert response.status_code == 201, response.content
    body = response.json()
    assert set(body) >= {"id", "inputs", "result", "peak_bytes", "engine_version", "created_at", "catalog_fit"}
    assert body["peak_bytes"] == body["result"]["peak_bytes"]
    assert body["inputs"]["model"]["name"] == "llama-3.1-70b"
    weights = next(c for c in body["result"]["components"] if c["key"] == "weights")
    assert weights["bytes"] == 70_553_706_496 * 2
    assert weights["formula"]
    assert weights["assumption"]
    h100 = next(row for row in body["catalog_fit"] if row["gpu"] == "h100-80gb")
    assert (h100["fits"], h100["lots"], h100["cards"]) == (True, 4, 4)
    assert h100["prices_usd"] == {"3": "680.00", "7": "1480.00", "30": "5800.00"}
    assert h100["headroom_bytes"] > 0
    rtx = next(row for row in body["catalog_fit"] if row["gpu"] == "rtx-4090-24gb")
    assert (rtx["fits"], rtx["lots"], rtx["prices_usd"]) == (False, None, None)
    assert SavedEstimate.objects.get().public_id.hex == body["id"].replace("-", "")


def test_create_estimate_same_key_replays_the_same_estimate(client, demo_catalog, user):
    auth = bearer(user)
    first, second = post(client, auth, QLORA_70B), post(client, auth, QLORA_70B)
    assert first.status_code == second.status_code == 201
    assert first.json() == second.json()
    assert SavedEstimate.objects.count() == 1


def test_the_estimate_is_stored_once_and_its_key_keeps_only_the_id(client, demo_catalog, user):
    auth = bearer(user)
    first = post(client, auth, QLORA_70B)
    record = IdempotencyKey.objects.get()
    assert record.response_body == {"id": first.json()["id"]}  # not a second copy of the result and catalog table
    SavedEstimate.objects.update(title="renamed")  # a replay reads the saved row
    assert post(client, auth, QLORA_70B).json() == {**first.json(), "title": "renamed"}


def test_create_estimate_same_key_other_body_is_422(client, demo_catalog, user):
    auth = bearer(user)
    post(client, auth, QLORA_70B)
    response = post(client, auth, SERVING_70B)
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "idempotency_key_reused"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        (
            {**SERVING_70B, "parallel": {"strategy": "single", "cards": 3, "tensor_parallel": 3}},
            "parallel.tensor_parallel",
        ),
        ({**SERVING_70B, "workload": "juggling"}, "workload"),
        ({**SERVING_70B, "model": "gpt-9"}, "model"),
        ({**SERVING_70B, "colour": "blue"}, "colour"),
        ({**SERVING_70B, "precision": {"weights": "int3"}}, "precision.weights"),
        ({"model": {"name": "x"}}, "model"),
    ],
)
def test_create_estimate_invalid_input_is_422_naming_the_field(client, demo_catalog, user, body, field):
    response = post(client, bearer(user), body)
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["code"] == "invalid_request"
    assert field in error["message"]
    assert SavedEstimate.objects.count() == 0


def test_create_estimate_needs_authentication_and_a_key(client, demo_catalog, user):
    assert client.post(URL, SERVING_70B, content_type="application/json").status_code == 401
    response = client.post(URL, SERVING_70B, content_type="application/json", **bearer(user))
    assert response.status_code == 422
    assert "idempotency key" in response.json()["error"]["message"]


def test_get_estimate_owner_only(client, demo_catalog, user, other_user):
    created = post(client, bearer(user), SERVING_70B).json()
    mine = client.get(f"{URL}/{created['id']}", **bearer(user))
    assert mine.status_code == 200
    assert mine.json() == created
    theirs = client.get(f"{URL}/{created['id']}", **bearer(other_user))
    assert theirs.status_code == 404
    assert theirs.json()["error"]["code"] == "not_found"
    assert client.get(f"{URL}/not-a-uuid", **bearer(user)).status_code == 404


JSON_SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(2**70), max_value=2**70), st.text(max_size=8),
    st.sampled_from(["llama-3.1-70b", "sdxl-base-1.0", "vit-base-patch16-224", "inference", "qlora", "diffusion",
                     "bnb_nf4", "gptq", "fsdp", "single", "ddp", "pipeline", "zero3", "fp8", "vllm"]),
)  # fmt: skip
FIELDS = ["model", "workload", "batch_size", "seq_len", "context_len", "concurrent_sequences", "image_height",
          "image_width", "flash_attention"]  # fmt: skip
NESTED = {
    "precision": ["weights", "compute", "kv_cache", "optimizer_states", "master_weights", "master_weights_16bit"],
    "quantization": ["method", "bits", "group_size", "double_quant", "gguf_type"],
    "training": ["optimizer", "activation_checkpointing", "optimizer_in_backward", "chunked_loss", "compiled"],
    "lora": ["rank", "targets", "dropout"],
    "parallel": ["strategy", "cards", "tensor_parallel", "offload_optimizer", "offload_params"],
    "runtime": ["engine", "cuda_context_mib", "comm_buffer_mib", "gpu_memory_utilization_pct"],
    "diffusion": ["guidance", "vae_tiling", "vae_slicing", "cpu_offload", "autocast"],
}
BODIES = st.fixed_dictionaries(
    {"model": st.sampled_from(["llama-3.1-70b", "llama-3.2-1b", "sdxl-base-1.0", "vit-base-patch16-224", "t5-3b"])},
    optional={
        **dict.fromkeys(FIELDS[1:], JSON_SCALARS),
        **{group: st.dictionaries(st.sampled_from(keys), JSON_SCALARS, max_size=4) for group, keys in NESTED.items()},
    },
)


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(body=BODIES)
def test_create_estimate_random_inputs_answer_201_or_422_never_5xx(client, demo_catalog, user, body):
    # One token for all the examples (the fixtures are made once per test): an account holds at most 20 (0291).
    if not hasattr(user, "test_bearer"):
        user.test_bearer = bearer(user)
    response = post(client, user.test_bearer, body, key=str(uuid.uuid4()))
    assert response.status_code in (201, 422), response.content


@pytest.mark.django_db(transaction=True)
def test_create_estimate_is_one_transaction_of_two_inserts(client, demo_catalog, user):
    """Decision 0205: the key is inserted already finished in the estimate's own transaction (no claim of its
    own, no update of the key, no savepoint): one COMMIT, one disk flush. Before it, 14 statements on SQLite."""
    auth = bearer(user)
    post(client, auth, SERVING_70B, key="warm-up")  # the token's last-used time is written at most once a minute
    with CaptureQueriesContext(connection) as captured:
        response = post(client, auth, SERVING_70B, key="measured")
    assert response.status_code == 201
    statements = [query["sql"] for query in captured.captured_queries]
    writes = [sql.split(" (")[0] for sql in statements if sql.startswith(("INSERT", "UPDATE", "DELETE"))]
    assert writes == ['INSERT INTO "core_idempotencykey"', 'INSERT INTO "sizing_savedestimate"'], statements
    assert sum(sql == "COMMIT" for sql in statements) == 1, statements
    assert not [sql for sql in statements if "SAVEPOINT" in sql], statements
    # The token and the catalog's version (the fit table's key) are read; the rest is BEGIN, the INSERTs and
    # COMMIT, and on PostgreSQL one statement that lets this COMMIT skip its disk flush (decision 0255) and, in
    # the same round trip, takes the key's lock, so that a retry while this runs answers 409 (decision 0295).
    unflushed = "set_config('synchronous_commit', 'off', true)"
    if connection.vendor == "postgresql":
        first_insert = next(i for i, sql in enumerate(statements) if sql.startswith(writes[0]))
        assert statements[first_insert - 2] == "BEGIN", statements
        lock = statements[first_insert - 1]
        assert lock.startswith("SELECT pg_try_advisory_xact_lock("), statements
        assert lock.endswith(unflushed), statements
    assert len([sql for sql in statements if unflushed not in sql]) <= 6, statements


def test_the_201_is_ninjas_answer(client, demo_catalog, user):
    """The answer to a new estimate is assembled from the encoded fields cached with the fit table (decision
    0255): it must be what ninja makes of the saved estimate through `EstimateOut` (the GET; PostgreSQL's jsonb
    may order the keys of `inputs` and `result` otherwise, so the JSON is compared, not the bytes)."""
    auth = bearer(user)
    for key in ("first", "second"):  # computed, then from the cache
        created = post(client, auth, SERVING_70B, key=key)
        assert created.status_code == 201
        read = client.get(f"/api/v1/estimates/{created.json()['id']}", **auth)
        assert created.json() == read.json()
        assert list(created.json()) == list(read.json())  # the schema's field order
        assert created["Content-Type"] == read["Content-Type"]
    replayed = post(client, auth, SERVING_70B, key="second")
    assert (replayed.status_code, replayed.json()) == (201, created.json())


def test_create_estimate_fit_table_is_computed_once_per_inputs_and_catalog_version(
    client, demo_catalog, user, monkeypatch
):
    from gpurent.sizing import services

    computed = []
    real = services.size_workload

    def counted(*args, **kwargs):
        computed.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(services, "size_workload", counted)
    auth = bearer(user)
    first = post(client, auth, SERVING_70B, key="a").json()
    second = post(client, auth, SERVING_70B, key="b").json()
    assert computed == [1]  # the second estimate took the stored fit table
    assert first["id"] != second["id"]
    assert first["catalog_fit"] == second["catalog_fit"]
    # A stock move (an UPDATE that does not touch updated_at) is a new catalog version: computed again.
    GpuModel.objects.filter(slug="h100-80gb").update(stock_lots=0)
    third = post(client, auth, SERVING_70B, key="c").json()
    assert computed == [1, 1]
    h100 = next(row for row in third["catalog_fit"] if row["gpu"] == "h100-80gb")
    assert (h100["stock_lots"], h100["in_stock"]) == (0, False)

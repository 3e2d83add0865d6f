"""Fixtures of the estimator tests: accounts, the two questions of the issue as engine inputs."""

from __future__ import annotations

import pytest

from conftest import make_gpu
from gpurent.accounts.models import User
from gpurent.catalog.models import GpuModel

PASSWORD = "plum orbit ferry lantern"

# "Llama-3.1-70B serving 16 concurrent 8k-token requests in bf16".
SERVING_70B = {
    "model": "llama-3.1-70b",
    "workload": "inference",
    "precision": {"weights": "bf16", "compute": "bf16", "kv_cache": "bf16"},
    "seq_len": 8192,
    "concurrent_sequences": 16,
    "runtime": {"engine": "vllm"},
}
# "QLoRA on a 70B model at 4k context" (NF4 with double quantization, paged AdamW, checkpointing, r=16).
QLORA_70B = {
    "model": "llama-3.1-70b",
    "workload": "qlora",
    "quantization": {"method": "bnb_nf4", "double_quant": True},
    "seq_len": 4096,
    "training": {"optimizer": "paged_adamw", "activation_checkpointing": True},
    "lora": {"rank": 16},
}


@pytest.fixture
def user(db) -> User:
    return User.objects.create_user("ana@example.com", PASSWORD, first_name="Ana", last_name="Souza")


@pytest.fixture
def other_user(db) -> User:
    return User.objects.create_user("bo@example.com", PASSWORD, first_name="Bo", last_name="Lind")


@pytest.fixture
def catalog_30(db) -> list[GpuModel]:
    """30 GPUs on sale, for QLoRA on a 70B model (`QLORA_70B`: 51.9 GiB expected peak on one card, 85.6 GiB high
    end since engine 0.3.1's ranges, 72.7 GiB in 0.3.0): 24, 32, 40 and 48 GiB cards do not fit, 64 GiB ones are
    tight, 128 GiB ones fit; five of each, with 7-day prices that do not follow catalog order."""
    sizes = (24, 32, 40, 48, 64, 128)
    return [
        make_gpu(
            slug=f"gpu-{n:02d}",
            name=f"GPU {n:02d}",
            memory_mib_per_card=sizes[n % len(sizes)] * 1024,
            position=n,
            price_7d_cents=10_000 + (n * 37 % 30) * 500,
        )
        for n in range(30)
    ]

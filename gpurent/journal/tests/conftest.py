"""Fixtures of the journal tests: two customers, a saved estimate and a rental of the first one."""

from __future__ import annotations

import pytest

from gpurent.accounts.models import User
from gpurent.accounts.owners import Owner
from gpurent.journal.records import EntryDraft, MeasurementDraft, RunDraft
from gpurent.journal.services import entry_create, run_create
from gpurent.orders.models import Order
from gpurent.orders.services import Contact, order_place
from gpurent.sizing.models import SavedEstimate

GIB = 1024**3
PASSWORD = "plum orbit ferry lantern"


@pytest.fixture
def user(db) -> User:
    return User.objects.create_user("ana@example.com", PASSWORD, first_name="Ana", last_name="Souza")


@pytest.fixture
def other_user(db) -> User:
    return User.objects.create_user("bo@example.com", PASSWORD, first_name="Bo", last_name="Lind")


def make_estimate(owner: User, peak_gib: int = 20) -> SavedEstimate:
    return SavedEstimate.objects.create(
        user=owner,
        title="llama-3.1-8b · LoRA · 1 card",
        inputs={"model": "llama-3.1-8b"},
        result={"peak_bytes": peak_gib * GIB, "components": [], "peak_phase": "training step"},
        engine_version="vramcalc 1.0",
        peak_bytes=peak_gib * GIB,
        usable_pct=90,
    )


@pytest.fixture
def estimate(user) -> SavedEstimate:
    """An estimate of 20 GiB per card, saved by `user`."""
    return make_estimate(user)


@pytest.fixture
def order(user, gpu) -> Order:
    return order_place(
        owner=user,
        gpu_slug=gpu.slug,
        term_days=7,
        lots=1,
        environment="pytorch",
        contact=Contact("Ana", "Souza", "ana@example.com"),
    )


def run_draft(name: str = "bf16 b16", peak_gib: float | None = 22, **overrides: object) -> RunDraft:
    fields: dict[str, object] = {
        "name": name,
        "code_version": "a1b2c3d",
        "environment": "Ubuntu 22.04, CUDA 12.4",
        "versions": {"torch": "2.4.0"},
        "parameters": {"batch": "16", "dtype": "bf16"},
        "seeds": {"torch": "0"},
        "steady": MeasurementDraft(
            peak_bytes_per_gpu=(int(peak_gib * GIB),) if peak_gib else (),
            peak_source="nvidia-smi",
            throughput=1830.0,
            throughput_unit="tokens/s",
        ),
    }
    fields.update(overrides)
    return RunDraft(**fields)  # type: ignore[arg-type]


@pytest.fixture
def entry(user, estimate):
    return entry_create(
        owner=Owner(user=user),
        draft=EntryDraft(question="bf16 vs fp8 at batch 16", estimate_id=str(estimate.public_id)),
    )


@pytest.fixture
def two_runs(entry):
    """Run 1, and run 2 changing two variables (batch and dtype)."""
    first = run_create(entry=entry, draft=run_draft())
    second = run_create(
        entry=entry, draft=run_draft("fp8 b32", peak_gib=18, parameters={"batch": "32", "dtype": "fp8"})
    )
    return first, second

"""The estimate and the catalog table on the demo catalog: the two questions of the issue, end to end."""

import pytest
from django.urls import reverse

from gpurent.catalog.models import GpuModel
from gpurent.core.money import Usd
from gpurent.sizing.calculation import MAX_PEAK_BYTES, inputs_from_payload, size_workload
from gpurent.sizing.errors import EstimateInputInvalid, EstimateTooLarge
from gpurent.sizing.fit.table import USABLE_PCT, VLLM_SHARE_MAX_PCT, plan_with_cards
from gpurent.sizing.forms.choices import EXAMPLES
from vramcalc import estimate
from vramcalc.capacity import min_cards
from vramcalc.units import GIB, MIB

from .conftest import QLORA_70B, SERVING_70B

pytestmark = pytest.mark.django_db


def rows_by_slug(sizing):
    return {row.gpu.slug: row for row in sizing.fit}


def test_size_workload_70b_bf16_serving_needs_several_lots_of_80gb_cards(demo_catalog):
    sizing = size_workload(inputs_from_payload(SERVING_70B))
    rows = rows_by_slug(sizing)

    # bf16 weights alone are 131.42 GiB: no single card of the catalog holds the whole job.
    assert sizing.result.bytes_of("weights") == 70_553_706_496 * 2
    assert sizing.result.peak_bytes > 170 * GIB  # 131 GiB weights + 40 GiB KV (16 x 8k x 320 KiB) + overheads
    assert not any(row.fits and row.cards == 1 for row in sizing.fit)
    # 80 GB cards: tensor parallel over 4 cards (3 does not divide the 64 heads), i.e. 4 lots.
    for slug in ("a100-80gb", "h100-80gb"):
        assert (rows[slug].fits, rows[slug].cards, rows[slug].lots) == (True, 4, 4)
    assert (rows["h200-141gb"].cards, rows["h200-141gb"].lots) == (2, 2)
    # One B200 lot is two cards: TP=2 fits in one lot.
    assert (rows["b200-2x180gb"].cards, rows["b200-2x180gb"].lots) == (2, 1)
    assert not rows["rtx-4090-24gb"].fits
    assert rows["rtx-4090-24gb"].prices is None


def test_size_workload_prices_are_lot_price_times_lots_for_each_term(demo_catalog):
    rows = rows_by_slug(size_workload(inputs_from_payload(SERVING_70B)))
    h100 = GpuModel.objects.get(slug="h100-80gb")
    assert rows["h100-80gb"].prices == {3: Usd(17_000 * 4), 7: Usd(37_000 * 4), 30: Usd(145_000 * 4)}
    assert rows["h100-80gb"].prices[7] == h100.lot_price(7) * 4
    # B200: one lot of two cards costs one lot price, never × cards per lot again.
    assert rows["b200-2x180gb"].prices[7] == Usd(170_000)


def test_size_workload_headroom_is_usable_share_minus_the_high_end_of_the_peak(demo_catalog):
    rows = rows_by_slug(size_workload(inputs_from_payload(SERVING_70B)))
    row = rows["h100-80gb"]
    usable = 81_559 * MIB * USABLE_PCT // 100
    assert row.usable_bytes == usable
    assert row.headroom_bytes == usable - row.peak_high_bytes  # decided on the high end of the range
    assert row.peak_high_bytes > row.peak_bytes
    assert row.headroom_bytes > 0


def test_size_workload_qlora_70b_at_4k_is_tight_on_one_80gb_lot(demo_catalog):
    """The expected peak fits an 80 GB card; the high end of the calibrated range (a quantized base widens it,
    decision 0462) does not, so the row says tight, with its one lot and its price."""
    sizing = size_workload(inputs_from_payload(QLORA_70B))
    rows = rows_by_slug(sizing)
    assert 40 * GIB < sizing.result.peak_bytes < 72 * GIB < sizing.result.peak_high_bytes
    assert (rows["a100-80gb"].tight, rows["a100-80gb"].lots) == (True, 1)
    assert (rows["h100-80gb"].tight, rows["h100-80gb"].lots) == (True, 1)
    assert rows["a100-80gb"].prices[30] == Usd(79_000)
    # 24 GB cards cannot hold the 4-bit 70B base (≈37 GiB) even with tensor parallelism over several.
    assert rows["rtx-4090-24gb"].lots is None
    assert sizing.cheapest is not None
    assert sizing.cheapest.lots == 1


def test_catalog_fit_agrees_with_the_engines_min_cards(demo_catalog):
    for payload in (SERVING_70B, QLORA_70B):
        sizing = size_workload(inputs_from_payload(payload))
        for row in sizing.fit:
            expected = min_cards(sizing.inputs, row.card_bytes, max_cards=10 * row.gpu.cards_per_lot, usable_pct=90)
            assert (row.cards if row.fits else None) == expected, row.gpu.slug


def test_catalog_fit_never_adds_cards_to_a_single_device_fine_tune(demo_catalog):
    rows = rows_by_slug(size_workload(inputs_from_payload(QLORA_70B)))
    assert rows["rtx-4090-24gb"].status == "does_not_fit"
    assert {row.cards for row in rows.values() if row.cards is not None} == {1}


def test_catalog_fit_is_tight_when_only_the_expected_peak_fits(demo_catalog):
    sizing = size_workload(inputs_from_payload(QLORA_70B))
    for row in sizing.fit:
        usable = row.usable_bytes
        if row.status == "tight":
            assert row.peak_bytes <= usable < row.peak_high_bytes
        elif row.status == "fits":
            assert row.peak_high_bytes <= usable


def test_catalog_fit_ddp_keeps_the_chosen_replicas(demo_catalog):
    payload = {"model": "llama-3.1-8b", "workload": "lora", "parallel": {"strategy": "ddp", "cards": 3}}
    rows = rows_by_slug(size_workload(inputs_from_payload(payload)))
    assert (rows["h100-80gb"].cards, rows["h100-80gb"].lots) == (3, 3)
    assert (rows["b200-2x180gb"].cards, rows["b200-2x180gb"].lots) == (3, 2)


def test_plan_with_cards_rejected_count_is_none():
    inp = inputs_from_payload({"model": "llama-3.1-70b"})
    assert plan_with_cards(inp, 3) is None
    four = plan_with_cards(inp, 4)
    assert four is not None
    assert four.parallel.tensor_parallel == 4


def test_inputs_from_payload_names_the_field():
    with pytest.raises(EstimateInputInvalid) as error:
        inputs_from_payload(
            {"model": "llama-3.1-70b", "parallel": {"strategy": "single", "cards": 3, "tensor_parallel": 3}}
        )
    assert error.value.field == "parallel.tensor_parallel"
    assert error.value.status == 422
    assert "parallel.tensor_parallel" in error.value.message


def test_size_workload_absurd_sizes_are_refused(demo_catalog):
    # Within every input's range (decision 0374), yet 16M tokens for each of 65,536 requests is far beyond any card.
    inp = inputs_from_payload({"model": "llama-3.1-70b", "seq_len": 16_777_216, "concurrent_sequences": 65_536})
    assert estimate(inp).peak_bytes > MAX_PEAK_BYTES
    with pytest.raises(EstimateTooLarge):
        size_workload(inp)


def test_an_amd_answer_says_it_runs_rocm_and_names_the_cheapest_cuda_card(demo_catalog, client):
    # Make the MI300X the cheapest card that fits the 70B serving workload.
    GpuModel.objects.filter(stack="ROCm").update(price_7d_cents=100)
    sizing = size_workload(inputs_from_payload(SERVING_70B))
    assert sizing.cheapest is not None
    assert sizing.cheapest.gpu.stack == "ROCm"
    cuda = sizing.cheapest_cuda
    assert cuda is not None
    assert cuda.gpu.stack == "CUDA"
    assert cuda.fits
    others = [row for row in sizing.fit if row.gpu.stack == "CUDA" and row.fits]
    assert cuda.week_price is not None
    assert cuda.week_price.cents == min(row.week_price.cents for row in others if row.week_price is not None)
    page = client.get(reverse("sizing:estimate"), EXAMPLES[1][1]).content.decode()
    assert 'data-testid="answer-stack"' in page
    assert "This card runs ROCm, not CUDA: check that your software supports ROCm." in page
    GpuModel.objects.filter(stack="ROCm").update(price_7d_cents=10_000_000)
    assert size_workload(inputs_from_payload(SERVING_70B)).cheapest_cuda is None
    assert 'data-testid="answer-stack"' not in client.get(reverse("sizing:estimate"), EXAMPLES[1][1]).content.decode()


def test_a_vllm_server_fits_within_the_share_of_the_card_it_is_told_to_take(demo_catalog):
    def h100(engine, share=None):
        runtime = {"engine": engine} | ({} if share is None else {"gpu_memory_utilization_pct": share})
        sizing = size_workload(inputs_from_payload({**SERVING_70B, "runtime": runtime}))
        return sizing.usable_pct, rows_by_slug(sizing)["h100-80gb"]

    assert h100("vllm")[0] == USABLE_PCT  # vLLM's own default, 0.9
    share, row = h100("vllm", 60)
    assert (share, row.usable_bytes) == (60, 81_559 * MIB * 60 // 100)
    assert row.headroom_bytes == row.usable_bytes - row.peak_high_bytes
    assert row.cards > h100("vllm")[1].cards  # less of each card: more cards to hold the same job
    # vLLM will not start on more than its process finds free after its CUDA context: a share counts up to 95 %.
    assert h100("vllm", 100)[0] == VLLM_SHARE_MAX_PCT == 95
    # Only vLLM's share is this rule: SGLang's --mem-fraction-static leaves activations outside it, and transformers
    # takes no share; both keep the table's margin whatever the share says.
    for engine in ("sglang", "transformers"):
        share, row = h100(engine, 60)
        assert (share, row.usable_bytes) == (USABLE_PCT, 81_559 * MIB * USABLE_PCT // 100)

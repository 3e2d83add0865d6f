"""Megatron distributed optimizer and contiguous grad buffer, ZeRO-3 live/prefetch limits, activation offloading."""

from __future__ import annotations

from typing import Any

import pytest

from vramcalc import EstimateInput, InvalidInput, ParallelPlan, Strategy, TrainingOptions, Workload, estimate
from vramcalc.architecture import param_counts
from vramcalc.presets import get_preset
from vramcalc.train import OFFLOAD_NOTE, ZERO3_NOTE

MODEL = get_preset("llama-3.1-8b")
P = param_counts(MODEL).total


def _full(plan: ParallelPlan, **training: Any) -> EstimateInput:
    return EstimateInput(
        model=MODEL,
        workload=Workload.FULL_FINETUNE,
        batch_size=1,
        seq_len=4096,
        parallel=plan,
        training=TrainingOptions(**training),
    )


def test_distributed_optimizer_shards_optimizer_states_over_ddp_ranks() -> None:
    ddp = estimate(_full(ParallelPlan(Strategy.DDP, cards=8)))
    dist = estimate(_full(ParallelPlan(Strategy.DDP, cards=8, distributed_optimizer=True)))
    assert dist.bytes_of("optimizer_state") == -(-ddp.bytes_of("optimizer_state") // 8)
    assert dist.bytes_of("gradients") == ddp.bytes_of("gradients")  # the gradient buffer stays whole
    state = dist.component("optimizer_state")
    assert state is not None
    assert "distributed optimizer" in state.assumption


def test_contiguous_grad_buffer_holds_fp32_main_grads_and_no_bucket_copy() -> None:
    plain = estimate(_full(ParallelPlan(Strategy.DDP, cards=2)))
    megatron = estimate(_full(ParallelPlan(Strategy.DDP, cards=2, contiguous_grad_buffer=True)))
    assert megatron.bytes_of("gradients") == 4 * P == 2 * plain.bytes_of("gradients")
    assert plain.bytes_of("ddp_buckets") > 0
    assert megatron.bytes_of("ddp_buckets") == 0
    grads = megatron.component("gradients")
    assert grads is not None
    assert grads.assumption.startswith("fp32 main_grad buffer")


def test_zero3_prefetch_bucket_and_live_cap_size_the_gathered_parameters() -> None:
    unit = param_counts(MODEL).largest_layer
    default = estimate(_full(ParallelPlan(Strategy.ZERO3, cards=8))).bytes_of("gathered_params")
    assert default == 2 * unit * 2  # current + one prefetched unit, bf16
    bucket = estimate(_full(ParallelPlan(Strategy.ZERO3, cards=8, zero3_prefetch_params=500_000_000)))
    assert bucket.bytes_of("gathered_params") == (unit + 500_000_000) * 2
    capped = estimate(
        _full(ParallelPlan(Strategy.ZERO3, cards=8, zero3_prefetch_params=500_000_000, zero3_max_live_params=1))
    )
    assert capped.bytes_of("gathered_params") == unit * 2  # the unit being computed is always live
    component = capped.component("gathered_params")
    assert component is not None
    assert component.assumption == ZERO3_NOTE
    everything = estimate(_full(ParallelPlan(Strategy.ZERO3, cards=8, zero3_prefetch_params=10**12)))
    assert everything.bytes_of("gathered_params") == P * 2  # never more than the whole model


def test_zero2_reduce_buffers_are_held_in_backward_and_replace_the_bucket_widening() -> None:
    """Engine 0.3.26: DeepSpeed 0.3's ZeRO-2 ``backward`` allocates two ``int(reduce_bucket_size * 4.5)`` fp16
    buffers with ``overlap_comm``; stated, they are counted in the forward/backward phase, and the bucket widening,
    which guessed their size, is no longer added."""
    plain = estimate(_full(ParallelPlan(Strategy.ZERO2, cards=8)))
    stated = estimate(_full(ParallelPlan(Strategy.ZERO2, cards=8, zero2_reduce_buffer_params=1_800_000_000)))
    assert plain.bytes_of("zero2_reduce_buffers") == 0
    assert stated.bytes_of("zero2_reduce_buffers") == 3_600_000_000
    buffers = stated.component("zero2_reduce_buffers")
    assert buffers is not None
    assert buffers.phases == ("forward_backward",)
    assert buffers.formula.startswith("1,800,000,000 elements x 2 B")
    assert "4.5 x reduce_bucket_size" in buffers.assumption
    assert "deepspeed_buffers" in {n.key for n in plain.not_modelled}
    assert "deepspeed_buffers" not in {n.key for n in stated.not_modelled}
    assert stated.peak_bytes > plain.peak_bytes


def test_activation_offloading_keeps_two_layers_on_the_card() -> None:
    single = ParallelPlan()
    kept = estimate(_full(single)).bytes_of("activations")
    offloaded = estimate(_full(single, activation_offloading=True))
    assert offloaded.bytes_of("activations") < kept / 8  # 2 of 32 layers' saved tensors
    component = offloaded.component("activations")
    assert component is not None
    assert OFFLOAD_NOTE in component.assumption
    checkpointed = estimate(_full(single, activation_checkpointing=True)).bytes_of("activations")
    both = estimate(_full(single, activation_checkpointing=True, activation_offloading=True)).bytes_of("activations")
    layer_input = 4096 * MODEL.hidden_size * 2
    assert checkpointed - both == (MODEL.num_layers - 2) * layer_input  # 30 of the 32 layer inputs on the host


@pytest.mark.parametrize(
    ("plan", "field"),
    [
        ({"strategy": Strategy.ZERO1, "cards": 2, "distributed_optimizer": True}, "parallel.distributed_optimizer"),
        ({"strategy": Strategy.FSDP, "cards": 2, "contiguous_grad_buffer": True}, "parallel.contiguous_grad_buffer"),
        ({"strategy": Strategy.ZERO2, "cards": 2, "zero3_prefetch_params": 10}, "parallel.zero3_prefetch_params"),
        ({"strategy": Strategy.ZERO3, "cards": 2, "zero3_max_live_params": -1}, "parallel.zero3_max_live_params"),
        (
            {"strategy": Strategy.ZERO3, "cards": 2, "zero2_reduce_buffer_params": 10},
            "parallel.zero2_reduce_buffer_params",
        ),
    ],
)
def test_plans_refuse_options_of_another_framework(plan: dict[str, Any], field: str) -> None:
    with pytest.raises(InvalidInput) as err:
        ParallelPlan(**plan)
    assert err.value.field == field

"""Hypothesis strategies for vramcalc inputs."""

from __future__ import annotations

from hypothesis import strategies as st

from vramcalc import EstimateInput, ModelKind, ModelSpec, MoESpec, ParallelPlan, Strategy, Workload


@st.composite
def decoder_models(draw: st.DrawFn) -> ModelSpec:
    """Small-to-large decoder architectures with GQA/MQA, optional sliding window and MoE."""
    head_dim = draw(st.sampled_from([64, 80, 128, 256]))
    kv_heads = draw(st.sampled_from([1, 2, 4, 8]))
    groups = draw(st.integers(1, 8))
    heads = kv_heads * groups
    layers = draw(st.integers(1, 96))
    window = draw(st.none() | st.integers(16, 8192))
    sliding_layers = None if window is None else draw(st.none() | st.integers(0, layers))
    moe = None
    if draw(st.booleans()):
        experts = draw(st.integers(2, 64))
        moe = MoESpec(experts, draw(st.integers(1, experts)), draw(st.integers(64, 4096)))
    return ModelSpec(
        name="hypothesis-decoder",
        kind=ModelKind.DECODER,
        num_layers=layers,
        hidden_size=heads * head_dim,
        num_attention_heads=heads,
        num_kv_heads=kv_heads,
        intermediate_size=draw(st.integers(64, 32768)),
        vocab_size=draw(st.integers(1000, 262144)),
        gated_mlp=draw(st.booleans()),
        tie_word_embeddings=draw(st.booleans()),
        sliding_window=window,
        sliding_window_layers=sliding_layers,
        moe=moe,
    )


@st.composite
def inference_inputs(draw: st.DrawFn) -> EstimateInput:
    """Inference inputs on a single card."""
    return EstimateInput(
        model=draw(decoder_models()),
        workload=Workload.INFERENCE,
        seq_len=draw(st.integers(1, 8192)),
        context_len=draw(st.integers(1, 131072)),
        concurrent_sequences=draw(st.integers(1, 64)),
        flash_attention=draw(st.booleans()),
    )


@st.composite
def training_inputs(draw: st.DrawFn, strategy: Strategy = Strategy.SINGLE, cards: int = 1) -> EstimateInput:
    """Full fine-tuning or LoRA inputs under ``strategy`` over ``cards`` cards."""
    return EstimateInput(
        model=draw(decoder_models()),
        workload=draw(st.sampled_from([Workload.FULL_FINETUNE, Workload.LORA])),
        batch_size=draw(st.integers(1, 8)),
        seq_len=draw(st.integers(1, 4096)),
        parallel=ParallelPlan(strategy=strategy, cards=cards),
    )

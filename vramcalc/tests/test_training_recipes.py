"""Training recipes of issue 31 (decision 0464): selective checkpointing, sequence parallelism inside tensor
parallelism, ring attention, pipeline-parallel training, Float8 and FSDP's mixed precision."""

from __future__ import annotations

from typing import Any

import pytest

from vramcalc import InvalidInput, estimate
from vramcalc.architecture import param_counts
from vramcalc.components.activations import layer_activation, op_checkpoint_activation, sequence_tokens
from vramcalc.serialize import inputs_from_dict
from vramcalc.train import stage_params
from vramcalc.train_activations import in_flight, logits_bytes, stage_layers

B, S = 2, 4096


def _train(model: Any = "llama-3.1-8b", **fields: Any) -> Any:
    data = {"model": model, "workload": "full_finetune", "batch_size": B, "seq_len": S, **fields}
    return inputs_from_dict(data)


def _acts(**fields: Any) -> int:
    return estimate(_train(**fields)).bytes_of("activations")


def test_op_selective_checkpointing_keeps_the_input_attention_output_and_every_other_matmul() -> None:
    inp = _train(training={"selective_op_checkpointing": True})
    h, ad, kd, f = 4096, 4096, 1024, 14336
    op = op_checkpoint_activation(inp, S, B)
    assert op.linear == B * S * (h + ad + ad + kd + f + h) * 2  # input, attention out; q, v, gate, down
    assert op.scores == 4 * 32 * B * S
    full = layer_activation(inp, S, B)
    assert _acts(training={"selective_op_checkpointing": True}) == 32 * op.total + B * S * h * 2 + full.total
    none, ckpt = _acts(), _acts(training={"activation_checkpointing": True})
    assert ckpt < _acts(training={"selective_op_checkpointing": True}) < none
    assert "every other matmul" in str(estimate(inp).component("activations").assumption)  # type: ignore[union-attr]


def test_op_checkpointing_of_a_two_matrix_mlp_and_of_mla() -> None:
    bert = _train(model="bert-base-cased", seq_len=512, training={"selective_op_checkpointing": True})
    op = op_checkpoint_activation(bert, 512, B)
    assert op.linear == B * 512 * (768 + 768 + 768 + 768 + 3072) * 2  # input, attention out; q, v, up
    mla = _train(model="deepseek-v3", training={"selective_op_checkpointing": True})
    assert op_checkpoint_activation(mla, S, B).total > 0


def test_layer_selective_checkpointing_checkpoints_one_layer_in_n() -> None:
    inp = _train(training={"activation_checkpointing": True, "checkpoint_every": 2})
    layer = layer_activation(inp, S, B)
    inputs = B * S * 4096 * 2
    assert _acts(training={"activation_checkpointing": True, "checkpoint_every": 2}) == (
        16 * inputs + 16 * layer.total + layer.total
    )
    assert "one layer in 2" in str(estimate(inp).component("activations").assumption)  # type: ignore[union-attr]


def test_sequence_parallelism_inside_tensor_parallelism_splits_what_tp_replicates() -> None:
    plan = {"strategy": "fsdp", "cards": 8, "tensor_parallel": 4}
    plain = _train(parallel=plan)
    split = _train(parallel={**plan, "tp_sequence_parallel": True})
    assert layer_activation(split, S, B).linear == layer_activation(plain, S, B).linear - B * S * 4 * 4096 * 2 * 3 // 4
    ckpt = {"activation_checkpointing": True}
    plain_ckpt = _acts(parallel=plan, training=ckpt)
    split_ckpt = _acts(parallel={**plan, "tp_sequence_parallel": True}, training=ckpt)
    assert split_ckpt < plain_ckpt
    assert (
        "2h masks"
        in layer_activation(
            _train(model="bert-base-cased", seq_len=512, parallel={**plan, "tp_sequence_parallel": True}), 512, B
        ).expression
    )


def test_linears_that_save_their_gathered_input_keep_the_two_norm_outputs_whole() -> None:
    plan = {"strategy": "fsdp", "cards": 8, "tensor_parallel": 4, "tp_sequence_parallel": True}
    split = _train(parallel=plan)
    gathered = _train(parallel={**plan, "tp_gathered_inputs_saved": True})
    # nanotron's column_linear: all-gather, then F.linear saves the whole-sequence input of q/k/v and the MLP's up
    extra = B * S * 2 * 4096 * 2 * 3 // 4
    assert layer_activation(gathered, S, B).linear == layer_activation(split, S, B).linear + extra
    assert "2h/4 + 2h gathered" in layer_activation(gathered, S, B).expression
    said = str(estimate(gathered).component("activations").assumption)  # type: ignore[union-attr]
    assert "keep the whole gathered sequence for backward" in said
    compiled = {"compiled": True}
    assert layer_activation(
        _train(parallel={**plan, "tp_gathered_inputs_saved": True}, training=compiled), S, B
    ).linear == (layer_activation(_train(parallel=plan, training=compiled), S, B).linear + B * S * 2 * 4096 * 2)


def test_ring_attention_gathers_the_whole_sequence_keys_and_values_of_one_layer() -> None:
    plan = {"strategy": "fsdp", "cards": 8, "sequence_parallel": 4, "context_parallel_ring": True}
    result = estimate(_train(parallel=plan))
    assert result.bytes_of("context_parallel_buffers") == 4 * B * S * 1024 * 2
    ulysses = estimate(_train(parallel={**plan, "context_parallel_ring": False}))
    assert ulysses.bytes_of("context_parallel_buffers") == 0


def test_pipeline_stages_hold_their_layers_for_every_micro_batch_in_flight() -> None:
    def plan(**more: Any) -> dict[str, Any]:
        return {"strategy": "ddp", "cards": 8, "pipeline_parallel": 4, **more}

    one = _train(parallel=plan(), training={"activation_checkpointing": True})
    assert (stage_layers(one), in_flight(one)) == (8, 4)
    assert in_flight(_train(parallel=plan(pipeline_microbatches=2))) == 2
    assert in_flight(_train(parallel=plan(pipeline_schedule="gpipe", pipeline_microbatches=16))) == 16
    assert in_flight(_train(parallel=plan(pipeline_schedule="interleaved_1f1b"))) == 6  # 4 x (1 + 3/8), rounded up
    many = _train(
        parallel=plan(pipeline_schedule="gpipe", pipeline_microbatches=64), training={"activation_checkpointing": True}
    )
    layer = layer_activation(many, S, B)
    result = estimate(many)
    assert result.bytes_of("activations") == 64 * 8 * B * S * 4096 * 2 + layer.total
    assert result.bytes_of("logits") == 0  # the first stage, 64 micro-batches in flight, is the busiest card
    total = param_counts(one.model).total
    embedding = param_counts(one.model).embedding
    assert stage_params(one, total) == (total - embedding) * 8 // 32 + embedding // 2
    assert "Pipeline parallel over 4 stages" in str(result.component("activations").assumption)  # type: ignore[union-attr]
    assert "64 micro-batch(es) in flight" in result.component("activations").formula  # type: ignore[union-attr]


def test_the_last_stage_is_the_busiest_when_its_logits_outweigh_the_first_stages_micro_batches() -> None:
    inp = inputs_from_dict(
        {
            "model": "llama-3.1-8b",
            "workload": "full_finetune",
            "seq_len": 8192,
            "training": {"activation_checkpointing": True},
            "parallel": {"strategy": "ddp", "cards": 2, "pipeline_parallel": 2},
        }
    )
    result = estimate(inp)
    assert result.bytes_of("logits") > 0
    layer = layer_activation(inp, sequence_tokens(inp), 1)
    assert result.bytes_of("activations") == 16 * 8192 * 4096 * 2 + layer.total


def test_fsdp_with_pipeline_stages_keeps_the_stage_gathered_and_its_gradients_unsharded() -> None:
    plan = {"strategy": "fsdp", "cards": 16, "tensor_parallel": 2, "pipeline_parallel": 4}
    inp = _train(parallel=plan, training={"activation_checkpointing": True})
    result = estimate(inp)
    stage = stage_params(inp, param_counts(inp.model).total)
    assert result.bytes_of("gathered_params") == stage * 2 // 2
    assert result.bytes_of("unsharded_gradients") == stage * 2 // 2
    lora = _train(workload="lora", parallel=plan)
    assert stage_params(lora, 1000) == 1000 * 8 // 32


def test_fsdp_gathers_fp32_weights_in_the_compute_precision_and_float8_in_one_byte() -> None:
    plan = {"strategy": "fsdp", "cards": 8}
    mixed = estimate(_train(precision={"weights": "fp32", "compute": "bf16"}, parallel=plan))
    assert mixed.bytes_of("autocast_copies") == 0
    counts = param_counts(_train().model)
    live = 2 * counts.largest_block
    assert mixed.bytes_of("gathered_params") == live * counts.total * 4 * 2 // 4 // counts.total
    assert mixed.bytes_of("fsdp_root") == counts.embedding * 2
    fp8 = estimate(_train(precision={"weights": "fp32", "compute": "bf16"}, parallel=plan, training={"float8": True}))
    assert fp8.bytes_of("gathered_params") == live
    ddp = estimate(_train(precision={"weights": "fp32", "compute": "bf16"}, parallel={"strategy": "ddp", "cards": 8}))
    assert ddp.bytes_of("autocast_copies") > 0
    stage = estimate(
        _train(parallel={"strategy": "fsdp", "cards": 8, "pipeline_parallel": 2}, training={"float8": True})
    )
    assert "x 1 B fp8" in stage.component("gathered_params").formula  # type: ignore[union-attr]


def test_pipeline_weights_per_card_are_a_stage_divided_by_tensor_parallelism() -> None:
    inp = _train(parallel={"strategy": "single", "cards": 8, "tensor_parallel": 2, "pipeline_parallel": 4})
    counts = param_counts(inp.model)
    linear, embedding, other = counts.linear * 2, counts.embedding * 2, counts.other * 2
    stage = (linear * 8 // 32 + embedding // 2) // 2 + other * 8 // 32
    assert estimate(inp).bytes_of("weights") == stage


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"training": {"checkpoint_every": 2}}, "training.checkpoint_every"),
        ({"training": {"chunked_loss": True, "loss_chunk_tokens": 1024}}, "training.loss_chunk_tokens"),
        (
            {"training": {"activation_checkpointing": True, "selective_op_checkpointing": True}},
            "training.selective_op_checkpointing",
        ),
        ({"parallel": {"strategy": "ddp", "cards": 6, "pipeline_parallel": 4}}, "parallel.pipeline_parallel"),
        (
            {"parallel": {"strategy": "single", "cards": 8, "tensor_parallel": 2, "pipeline_parallel": 2}},
            "parallel.cards",
        ),
        ({"parallel": {"strategy": "ddp", "cards": 4, "tp_sequence_parallel": True}}, "parallel.tp_sequence_parallel"),
        (
            {"parallel": {"strategy": "ddp", "cards": 4, "tensor_parallel": 2, "tp_gathered_inputs_saved": True}},
            "parallel.tp_gathered_inputs_saved",
        ),
        (
            {"parallel": {"strategy": "ddp", "cards": 4, "context_parallel_ring": True}},
            "parallel.context_parallel_ring",
        ),
        ({"parallel": {"strategy": "ddp", "cards": 4, "pipeline_microbatches": 8}}, "parallel.pipeline_schedule"),
        ({"parallel": {"strategy": "ddp", "cards": 8, "pipeline_parallel": 2, "sequence_parallel": 3}}, None),
        ({"parallel": {"strategy": "ddp", "cards": 64, "pipeline_parallel": 64}}, "parallel.pipeline_parallel"),
        ({"workload": "inference", "parallel": {"strategy": "pipeline", "cards": 2, "pipeline_parallel": 2}}, None),
        ({"workload": "inference", "parallel": {"strategy": "single", "cards": 2, "pipeline_parallel": 2}}, None),
        (
            {
                "workload": "inference",
                "parallel": {"strategy": "single", "cards": 2, "tensor_parallel": 2, "tp_sequence_parallel": True},
            },
            "parallel.tp_sequence_parallel",
        ),
        ({"parallel": {"strategy": "pipeline", "cards": 2}}, "parallel.strategy"),
        ({"parallel": {"strategy": "zero2", "cards": 2, "fsdp_no_sync": True}}, "parallel.fsdp_no_sync"),
        (
            {"parallel": {"strategy": "fsdp", "cards": 8, "pipeline_parallel": 2, "fsdp_no_sync": True}},
            "parallel.fsdp_no_sync",
        ),
        (
            {"training": {"gradients_freed": True}, "parallel": {"strategy": "fsdp", "cards": 2, "fsdp_no_sync": True}},
            "training.gradients_freed",
        ),
        (
            {
                "training": {"gradients_freed": True},
                "parallel": {"strategy": "ddp", "cards": 2, "pipeline_parallel": 2},
            },
            "training.gradients_freed",
        ),
        (
            {
                "training": {"gradients_freed": True},
                "parallel": {"strategy": "ddp", "cards": 2, "grad_bucket_view": True},
            },
            "training.gradients_freed",
        ),
        (
            {
                "training": {"gradients_freed": True},
                "parallel": {"strategy": "ddp", "cards": 2, "contiguous_grad_buffer": True},
            },
            "training.gradients_freed",
        ),
        ({"training": {"gradients_freed": True, "optimizer_in_backward": True}}, "training.gradients_freed"),
    ],
)
def test_impossible_recipes_are_refused_naming_the_field(fields: dict[str, Any], field: str | None) -> None:
    with pytest.raises(InvalidInput) as raised:
        _train(**fields)
    if field is not None:
        assert raised.value.field == field


def test_a_diffusion_model_is_not_split_into_pipeline_stages() -> None:
    with pytest.raises(InvalidInput) as raised:
        inputs_from_dict(
            {
                "model": "sd-1.5",
                "workload": "lora",
                "parallel": {"strategy": "single", "cards": 2, "pipeline_parallel": 2},
            }
        )
    assert raised.value.field == "parallel.pipeline_parallel"


def test_loss_over_token_chunks_keeps_one_chunk_of_logits() -> None:
    """torchtitan's ChunkedLossWrapper (decision 0500): the LM head and the loss see ``chunk`` tokens at a time."""
    vocab = 128256
    whole = estimate(_train()).bytes_of("logits")
    assert whole == B * S * vocab * (2 + 4 + 4)
    chunked = estimate(_train(training={"loss_chunk_tokens": 1024}))
    assert chunked.bytes_of("logits") == 1024 * vocab * (2 + 4 + 4)
    assert "1,024 tokens at a time" in str(chunked.component("logits").assumption)  # type: ignore[union-attr]
    # a chunk longer than the micro-batch: all of it at once
    assert estimate(_train(training={"loss_chunk_tokens": 65536})).bytes_of("logits") == whole


def test_a_compiled_loss_keeps_the_logits_and_their_gradient_in_the_compute_precision() -> None:
    """torchtitan's ``build_cross_entropy_loss`` compiles the loss (decision 0515): the fp32 upcast and its gradient
    are fused into the loss's kernels, so 2 B of logits and 2 B of gradient per entry instead of 2 + 4 + 4."""
    vocab = 128256
    compiled = estimate(_train(training={"compiled": True, "compiled_loss": True}))
    assert compiled.bytes_of("logits") == B * S * vocab * (2 + 2)
    assert "2 B logits + 2 B grad" in compiled.component("logits").formula  # type: ignore[union-attr]
    # the model alone under torch.compile keeps the eager loss (torchtitan between December 2024 and April 2025)
    assert estimate(_train(training={"compiled": True})).bytes_of("logits") == B * S * vocab * (2 + 4 + 4)
    # one chunk of tokens at a time, each chunk's loss compiled
    chunks = estimate(_train(training={"compiled_loss": True, "loss_chunk_tokens": 1024}))
    assert chunks.bytes_of("logits") == 1024 * vocab * (2 + 2)
    # torchtune's chunked loss, compiled: the 16-bit logits become their gradient one chunk (1/8) at a time
    # (decision 0595); uncompiled, its fp32 chunk and the gradient beside the logits
    torchtune = estimate(_train(training={"compiled_loss": True, "chunked_loss": True}))
    assert torchtune.bytes_of("logits") == B * S * vocab * (8 * 2 + 2) // 8
    assert "2 B grad of one chunk (1/8)" in torchtune.component("logits").formula  # type: ignore[union-attr]
    assert estimate(_train(training={"chunked_loss": True})).bytes_of("logits") == B * S * vocab * (2 + 2 + 1)
    # fp32 compute has no upcast: logits and gradient in fp32 either way
    fp32 = {"weights": "fp32", "compute": "fp32"}
    plain32 = estimate(_train(precision=fp32)).bytes_of("logits")
    assert estimate(_train(precision=fp32, training={"compiled_loss": True})).bytes_of("logits") == plain32


def test_fsdp_no_sync_holds_the_unsharded_gradients_of_whole_flat_parameters() -> None:
    """Decision 0519: under FSDP1's no_sync every flat parameter that needs a gradient keeps it unsharded until the
    synchronising micro-batch. LoRA's blocks share their flat parameters with the frozen weights (lit-gpt wraps each
    Block), so the blocks' whole parameters count, not the embedding or the untied head; a full fine-tune holds the
    gradient of every parameter. lit-gpt's Llama 2 7B LoRA on 2 cards (F7-06) rises by 12.07 GiB."""
    plan = {"strategy": "fsdp", "cards": 2}
    lora = {"workload": "lora", "lora": {"rank": 8, "targets": "qv"}, "batch_size": 4, "seq_len": 1304}
    plain = estimate(inputs_from_dict({"model": "llama-2-7b", **lora, "parallel": plan}))
    held = estimate(inputs_from_dict({"model": "llama-2-7b", **lora, "parallel": {**plan, "fsdp_no_sync": True}}))
    counts = param_counts(_train("llama-2-7b").model)
    adapters = held.bytes_of("adapter_weights") * 2  # sharded over the 2 cards, 2 B each as the gradients
    blocks = (counts.total - counts.embedding) * 2
    assert held.bytes_of("no_sync_gradients") == blocks + adapters
    assert round(held.bytes_of("no_sync_gradients") / 2**30, 2) == 12.07
    assert plain.bytes_of("no_sync_gradients") == 0
    assert held.peak_bytes > plain.peak_bytes + blocks
    full = estimate(_train(parallel={"strategy": "fsdp", "cards": 8, "tensor_parallel": 2, "fsdp_no_sync": True}))
    assert full.bytes_of("no_sync_gradients") == param_counts(_train().model).total * 2 // 2  # bf16, over TP 2
    assert "no_sync" in str(full.component("no_sync_gradients").assumption)  # type: ignore[union-attr]


def test_gradients_freed_after_each_step_are_not_held_with_the_activations() -> None:
    """Decision 0525: with one micro-batch a step and gradients set to None after it, backward fills the gradients
    as it frees the saved activations: the forward-backward phase holds the activations and not the gradients, the
    step holds the gradients; the peak is the larger of the two."""
    held = estimate(_train("llama-3.2-1b", batch_size=8, seq_len=1024))
    freed = estimate(_train("llama-3.2-1b", batch_size=8, seq_len=1024, training={"gradients_freed": True}))
    grads = freed.bytes_of("gradients")
    assert grads == held.bytes_of("gradients") > 0
    totals = {p.phase: p.bytes for p in held.phases}
    after = {p.phase: p.bytes for p in freed.phases}
    assert after["forward_backward"] < totals["forward_backward"] - grads // 2
    assert after["optimizer_step"] == totals["optimizer_step"]
    assert freed.peak_bytes < held.peak_bytes


def test_a_loss_that_sums_the_logits_keeps_them_and_their_gradient_in_the_compute_precision() -> None:
    """Decision 0526: the training benchmarks behind the transformers docs' SDPA tables take ``logits.sum()`` as the
    loss (no labels, no softmax): no fp32 upcast and no fp32 gradient, 2 B of logits and 2 B of gradient an entry."""
    vocab = 128256
    summed = estimate(_train(training={"logits_sum_loss": True}))
    assert summed.bytes_of("logits") == B * S * vocab * (2 + 2)
    assert "2 B logits + 2 B grad" in summed.component("logits").formula  # type: ignore[union-attr]
    assert estimate(_train()).bytes_of("logits") == B * S * vocab * (2 + 4 + 4)


def test_unsloths_fused_loss_writes_the_gradient_into_the_logits() -> None:
    """Engine 0.3.14: Unsloth's ``fast_cross_entropy_loss`` reads the 16-bit logits and its backward writes the
    gradient into the same tensor (``return logits, None, None``): 2 B an entry, no fp32 upcast, no separate
    gradient. The varying-lengths reserve, a multiple of the logits spike, shrinks with it."""
    vocab = 128256
    fused = estimate(_train(training={"loss_grad_in_place": True}))
    assert fused.bytes_of("logits") == B * S * vocab * 2
    assert "2 B logits, their gradient in place" in fused.component("logits").formula  # type: ignore[union-attr]
    assert estimate(_train()).bytes_of("logits") == B * S * vocab * (2 + 4 + 4)
    varying = {"loss_grad_in_place": True, "varying_lengths": True}
    reserve = {u.key: u.high_bytes for u in estimate(_train(training=varying)).not_modelled}
    assert reserve["varying_lengths_reserve"] == int(B * S * vocab * 2 * 3.5)
    chunked = estimate(_train(training={"loss_grad_in_place": True, "chunked_loss": True}))
    assert chunked.bytes_of("logits") == estimate(_train(training={"chunked_loss": True})).bytes_of("logits")


def test_a_loss_on_the_16_bit_logits_keeps_its_softmax_and_gradient_in_16_bits() -> None:
    """Engine 0.3.15: a model converted to fp16 and trained without autocast, its loss a plain
    ``nn.CrossEntropyLoss`` on the logits it returns (ColossalAI-Pytorch-lightning's ``GPTLMLoss`` under DeepSpeed's
    or Gemini's fp16): the log-softmax it saves and the logits' gradient are 2 B, not 4. In fp32 nothing changes."""
    vocab = 128256
    half = {"weights": "fp16", "compute": "fp16"}
    plain = estimate(_train(precision=half, training={"loss_in_compute_precision": True}))
    assert plain.bytes_of("logits") == B * S * vocab * (2 + 2 + 2)
    assert "2 B logits + 2 B softmax + 2 B grad" in plain.component("logits").formula  # type: ignore[union-attr]
    assert estimate(_train(precision=half)).bytes_of("logits") == B * S * vocab * (2 + 4 + 4)
    full = {"weights": "fp32", "compute": "fp32"}
    fp32 = estimate(_train(precision=full, training={"loss_in_compute_precision": True})).bytes_of("logits")
    assert fp32 == estimate(_train(precision=full)).bytes_of("logits") == B * S * vocab * (4 + 4)


def test_fp32_logits_held_through_backward_cost_16_bytes_a_logit() -> None:
    """Engine 0.3.28: prime-rl's SFT trainer gets its logits already upcast (``tensor.float().contiguous()``) and keeps
    them in ``out`` through backward (``del logits`` drops only the other name): at the cross-entropy's backward the
    fp32 logits, the saved log-softmax, the NLL gradient and the log-softmax's input gradient are alive at once,
    4 B each, whatever the compute precision. Another loss switch keeps its own figure; a token chunk bounds it."""
    vocab = 128256
    held = estimate(_train(training={"fp32_logits_held": True}))
    assert held.bytes_of("logits") == B * S * vocab * 16
    logits = held.component("logits")
    assert logits is not None
    assert "4 B fp32 logits held through backward + 4 B fp32 log-softmax + 2 x 4 B fp32 grads" in logits.formula
    assert "prime-rl" in logits.assumption
    assert estimate(_train()).bytes_of("logits") == B * S * vocab * (2 + 4 + 4)
    full = {"weights": "fp32", "compute": "fp32"}
    fp32 = estimate(_train(precision=full, training={"fp32_logits_held": True}))
    assert fp32.bytes_of("logits") == B * S * vocab * 16
    compiled = estimate(_train(training={"fp32_logits_held": True, "compiled_loss": True})).bytes_of("logits")
    assert compiled == estimate(_train(training={"compiled_loss": True})).bytes_of("logits")
    chunk = estimate(_train(training={"fp32_logits_held": True, "loss_chunk_tokens": 256}))
    assert chunk.bytes_of("logits") == min(B * S, 256) * vocab * 16
    assert "256" in chunk.component("logits").assumption  # type: ignore[union-attr]
    assert held.peak_bytes - estimate(_train()).peak_bytes >= B * S * vocab * 6


def test_an_rmsnorm_that_upcasts_keeps_an_fp32_copy_of_each_norms_input() -> None:
    """Engine 0.3.14: LitGPT's ``RMSNorm.forward`` runs ``x = x.float()`` and autograd keeps that copy for ``x * x``
    and ``x * rsqrt``; with its weight training, the normalized tensor is kept too. Per token and layer, two norms:
    2h x (4 - b + b) bytes in full training, 2h x (4 - b) under adapters (frozen norms), nothing under compile."""
    h, layers, tokens = 4096, 32, B * S
    assert _acts(training={"norm_fp32_input": True}) - _acts() == layers * tokens * 2 * 4 * h
    lora = {"workload": "lora", "lora": {"rank": 8}}
    assert _acts(training={"norm_fp32_input": True}, **lora) - _acts(**lora) == layers * tokens * 2 * 2 * h
    compiled = {"compiled": True}
    assert _acts(training={**compiled, "norm_fp32_input": True}) == _acts(training=compiled)


def test_expanded_keys_and_values_are_saved_at_every_query_heads_width() -> None:
    """Engine 0.3.14: LitGPT's attention expands grouped keys and values to every query head before
    ``scaled_dot_product_attention`` when training, which saves them: 2ad elements a token instead of 2kd."""
    a_d, k_d, layers, tokens = 32 * 128, 8 * 128, 32, B * S
    assert _acts(training={"kv_expanded": True}) - _acts() == layers * tokens * 2 * (a_d - k_d) * 2
    expanded = estimate(_train(training={"kv_expanded": True}))
    assert "keys, values expanded" in expanded.component("activations").formula  # type: ignore[union-attr]


BEIT = {
    "name": "beit-base",
    "kind": "vision",
    "num_layers": 12,
    "hidden_size": 768,
    "num_attention_heads": 12,
    "intermediate_size": 3072,
    "gated_mlp": False,
    "image_size": 224,
    "patch_size": 16,
}


def test_a_relative_position_bias_saves_its_bias_and_its_index_in_each_layer() -> None:
    """Engine 0.3.14: BEiT gathers a (1, heads, s, s) bias from its table in every layer. Training saves the gather's
    int64 index (s² x 8 B) while the table trains, and a fused kernel saves the bias (heads x s² x b); an eager
    attention adds it to the scores it stores, and adapters freeze the table."""

    def acts(model: dict[str, Any], **fields: Any) -> int:
        data = {"workload": "vision_finetune", "batch_size": 2, "image_height": 1048, "image_width": 640, **fields}
        return _acts(model=model, **data)

    s = 65 * 40 + 1
    biased = {**BEIT, "relative_position_bias": True}
    assert acts(biased) - acts(BEIT) == 12 * s * s * (12 * 2 + 8)
    eager = {"flash_attention": False}
    assert acts(biased, **eager) - acts(BEIT, **eager) == 12 * s * s * 8
    assert acts(biased, workload="lora") - acts(BEIT, workload="lora") == 12 * s * s * 12 * 2


def test_megatrons_vocab_parallel_loss_computes_the_gradient_in_place_in_its_fp32_softmax() -> None:
    """Decision 0530: Megatron-core's vocab-parallel cross-entropy upcasts the logits to fp32 once, overwrites that
    tensor with the softmax, saves it, overwrites it again with the gradient and casts that back: 2 B + 4 B an entry at
    its peak, over the tensor-parallel cards; a run with Megatron DDP's contiguous grad buffer runs it."""
    vocab, plan = 128256, {"strategy": "ddp", "cards": 2, "tensor_parallel": 2, "contiguous_grad_buffer": True}
    megatron = estimate(_train(parallel=plan))
    assert megatron.bytes_of("logits") == B * S * vocab * (2 + 4) // 2
    assert "4 B fp32 softmax, its gradient in place" in megatron.component("logits").formula  # type: ignore[union-attr]
    fp32 = estimate(_train(precision={"weights": "fp32", "compute": "fp32"}, parallel=plan))
    assert fp32.bytes_of("logits") == B * S * vocab * 4 // 2
    plain = {"strategy": "ddp", "cards": 2, "tensor_parallel": 2}
    assert estimate(_train(parallel=plain)).bytes_of("logits") == B * S * vocab * (2 + 4 + 4) // 2


def test_gradients_freed_hold_the_lm_heads_gradient_with_the_saved_activations() -> None:
    """Decision 0526: backward starts at the loss, so the LM head's weight gradient (vocab x hidden) exists while
    every layer's saved activations are still alive: it joins the logits' spike; the other gradients belong to the
    step (decision 0525)."""
    head = 128256 * 2048 * 2
    plain = estimate(_train("llama-3.2-1b"))
    freed = estimate(_train("llama-3.2-1b", training={"gradients_freed": True}))
    assert freed.bytes_of("logits") == plain.bytes_of("logits") + head
    assert "128,256 vocab x 2,048 x 2 B grad" in freed.component("logits").formula  # type: ignore[union-attr]
    assert logits_bytes(_train("llama-3.2-1b", training={"gradients_freed": True})) == plain.bytes_of("logits")
    lora = estimate(_train("llama-3.2-1b", workload="lora", training={"gradients_freed": True}))
    assert lora.bytes_of("logits") == estimate(_train("llama-3.2-1b", workload="lora")).bytes_of("logits")


def test_fsdp_keeps_its_root_unit_gathered_from_the_forward_to_the_backward() -> None:
    """Engine 0.3.18: PyTorch's FSDP does not reshard the root unit after its forward (FSDP1's _post_forward_reshard
    frees only non-root units; FSDP2 sets the root group's post_forward_mesh_info to None). With each block wrapped,
    the root holds the embeddings and the LM head: gathered beside the block being computed and the prefetched one,
    in 16 bits for a quantized base (its embeddings are not quantized) and split by tensor parallelism. DeepSpeed's
    ZeRO-3 keeps no such unit: its gathered unit stays the largest layer or embedding."""
    counts = param_counts(_train().model)
    fsdp = estimate(_train(parallel={"strategy": "fsdp", "cards": 8}))
    assert fsdp.bytes_of("fsdp_root") == counts.embedding * 2
    assert fsdp.bytes_of("gathered_params") == 2 * counts.largest_block * 2
    qlora = estimate(
        _train(workload="qlora", quantization={"method": "bnb_nf4"}, parallel={"strategy": "fsdp", "cards": 2})
    )
    assert qlora.bytes_of("fsdp_root") == counts.embedding * 2
    tp = estimate(_train(parallel={"strategy": "fsdp", "cards": 8, "tensor_parallel": 2}))
    assert tp.bytes_of("fsdp_root") == counts.embedding * 2 // 2
    zero3 = estimate(_train(parallel={"strategy": "zero3", "cards": 8}))
    assert zero3.component("fsdp_root") is None
    assert zero3.bytes_of("gathered_params") == 2 * counts.largest_layer * 2
    # torchtune's custom_sharded_layers ['tok_embeddings', 'output']: no root holds them, the largest unit is
    # the embedding matrix or a block, as under ZeRO-3.
    apart = estimate(_train(parallel={"strategy": "fsdp", "cards": 8, "fsdp_embeddings_sharded": True}))
    assert apart.component("fsdp_root") is None
    assert apart.bytes_of("gathered_params") == 2 * counts.largest_layer * 2
    with pytest.raises(InvalidInput, match=r"parallel\.fsdp_embeddings_sharded"):
        _train(parallel={"strategy": "ddp", "cards": 8, "fsdp_embeddings_sharded": True})
    with pytest.raises(InvalidInput, match=r"parallel\.fsdp_embeddings_sharded"):
        _train(parallel={"strategy": "fsdp", "cards": 8, "pipeline_parallel": 2, "fsdp_embeddings_sharded": True})


def test_a_masked_lm_head_adds_the_logits_of_every_position() -> None:
    """Engine 0.3.19: BERT pre-training (``BertForPreTraining``) computes its masked-LM scores over the whole vocabulary
    for every position and takes the cross-entropy over all of them; a fine-tuned encoder's small classifier has none.
    Fresh-20's F20-09/10 (Alibaba PAI's BERT-base pre-training rows)."""
    plain = estimate(_train("bert-base-cased", seq_len=512))
    mlm = estimate(_train("bert-base-cased", seq_len=512, training={"masked_lm_head": True}))
    assert plain.component("logits") is None
    # mixed precision (the default): 2 B logits + 4 B fp32 upcast + 4 B fp32 gradient for every token and entry
    assert mlm.bytes_of("logits") == B * 512 * 28996 * 10
    assert mlm.peak_bytes > plain.peak_bytes
    with pytest.raises(InvalidInput, match=r"training\.masked_lm_head"):
        _train(training={"masked_lm_head": True})  # a decoder has its LM head already


def test_fsdp_holds_one_units_unsharded_gradient_in_backward() -> None:
    """Decision 0589: autograd fills a unit's whole gradient before FSDP reduce-scatters it (FSDP1's
    _post_backward_hook keeps ``flat_param.grad`` until the reduce-scatter has run; FSDP2's foreach_reduce copies the
    unit's gradients into a reduce-scatter input of the same size): one block's gradient, in the dtype it is gathered
    in, beside the gathered block and the prefetch; only its trainable share with adapters; none with no_sync (whole
    gradients already counted), pipeline stages (the stage's are) or DeepSpeed's ZeRO-3 (its reduce bucket)."""
    counts = param_counts(_train().model)
    fsdp = estimate(_train(parallel={"strategy": "fsdp", "cards": 8}))
    assert fsdp.bytes_of("unit_gradient") == counts.largest_block * 2
    assert "reduce-scatters" in str(fsdp.component("unit_gradient").assumption)  # type: ignore[union-attr]
    plain = estimate(
        _train(parallel={"strategy": "fsdp", "cards": 8}, precision={"weights": "fp32", "compute": "bf16"})
    )
    assert plain.bytes_of("unit_gradient") == counts.largest_block * 2  # gathered (and differentiated) in bf16
    tp = estimate(_train(parallel={"strategy": "fsdp", "cards": 8, "tensor_parallel": 2}))
    assert tp.bytes_of("unit_gradient") == counts.largest_block * 2 // 2
    lora = estimate(
        _train(workload="lora", lora={"rank": 8, "targets": "qv"}, parallel={"strategy": "fsdp", "cards": 2})
    )
    assert 0 < lora.bytes_of("unit_gradient") < counts.largest_block * 2 // 100
    # the gradient in its parameter's dtype (decision 0593): bf16 under Float8's fp8 gather, and a quantized base's
    # adapters dense, not the average stored bytes of a 4-bit model
    fp8 = estimate(_train(parallel={"strategy": "fsdp", "cards": 8}, training={"float8": True}))
    assert fp8.bytes_of("unit_gradient") == counts.largest_block * 2
    qlora = estimate(
        _train(
            workload="qlora",
            lora={"rank": 8, "targets": "qv"},
            quantization={"method": "bnb_nf4"},
            parallel={"strategy": "fsdp", "cards": 2},
        )
    )
    assert qlora.bytes_of("unit_gradient") == lora.bytes_of("unit_gradient")
    for plan in ({"fsdp_no_sync": True}, {"pipeline_parallel": 2}):
        assert estimate(_train(parallel={"strategy": "fsdp", "cards": 8, **plan})).component("unit_gradient") is None
    assert estimate(_train(parallel={"strategy": "zero3", "cards": 8})).component("unit_gradient") is None

"""Saved activations and logits of a training step on the busiest card (decision 0464).

What a layer keeps for backward depends on the checkpointing policy: everything (none), its input (full), its
input in one layer of every ``n`` and everything in the others (layer-selective), or its input, the attention
output and every other matmul output (per-operation selective, :func:`op_checkpoint_activation`); a policy that
recomputes also holds one layer's activations while it rebuilds it. Sequence parallelism divides the tokens per
card, Megatron-style sequence parallelism inside tensor parallelism divides what tensor parallelism replicates,
ring attention adds the gathered keys and values of one layer, and under pipeline parallelism a stage holds
``ceil(layers / stages)`` layers for every micro-batch in flight (the first stage the most; the last stage holds
one micro-batch but also the logits).
"""

from __future__ import annotations

from .components.activations import (
    compute_bytes,
    layer_activation,
    op_checkpoint_activation,
    residual_bytes,
    sequence_tokens,
)
from .components.weights import dense_bytes
from .fmt import num, show
from .inputs import EstimateInput
from .options import PipelineSchedule
from .result import Component
from .text import Text, joined, text

__all__ = ["FB", "in_flight", "logits_bytes", "stage_layers", "training_activations"]

FB = "forward_backward"


def stage_layers(inp: EstimateInput) -> int:
    """Layers on one card: all of them, or ``ceil(layers / stages)`` under pipeline parallelism."""
    return -(-inp.model.total_layers // inp.parallel.pipeline_parallel)


def in_flight(inp: EstimateInput) -> int:
    """Micro-batches whose activations the first pipeline stage holds at once (1 without pipelining)."""
    plan = inp.parallel
    stages, micro = plan.pipeline_parallel, plan.microbatches
    if stages == 1:
        return 1
    if plan.pipeline_schedule is PipelineSchedule.GPIPE:
        return micro
    base = min(stages, micro)
    if plan.pipeline_schedule is PipelineSchedule.INTERLEAVED_1F1B:  # two chunks per card: 1 + (p - 1) / 2p
        return -(-base * (3 * stages - 1) // (2 * stages))
    return base


def _saved(inp: EstimateInput, tokens: int) -> tuple[int, int, str, Text]:
    """Bytes one micro-batch keeps for backward on one card, the recompute transient, the formula and the text."""
    b, h = inp.batch_size, inp.model.hidden_size
    layers = stage_layers(inp)
    layer = layer_activation(inp, tokens, b)
    # A checkpointed layer's input and the embedding output are the residual stream: fp32 under autocast (0.3.33).
    residual = residual_bytes(inp)
    t_sp = inp.parallel.tensor_parallel if inp.parallel.tp_sequence_parallel else 1
    inputs = tokens * b * h * residual // t_sp
    training = inp.training
    # Offloaded: the layer being computed and the one in transfer stay on the card, the rest is in host memory.
    kept = min(2, layers) if training.activation_offloading else layers
    shown = f"{num(tokens * b)} tokens"
    if training.selective_op_checkpointing:
        op = op_checkpoint_activation(inp, tokens, b)
        formula = f"{kept} layers x {shown} x [{op.expression}] + embedding output + one layer recomputed"
        return kept * op.total + inputs, layer.total, formula, text("train.op_checkpointing")
    if training.activation_checkpointing and training.checkpoint_every > 1:
        every = training.checkpoint_every
        checkpointed = kept // every
        formula = f"{checkpointed} layer inputs + {kept - checkpointed} layers x {shown} x [{layer.expression}]"
        saved = checkpointed * inputs + (kept - checkpointed) * layer.total
        return saved, layer.total, formula + " + one layer recomputed", text("train.layer_checkpointing", n=every)
    if training.activation_checkpointing:
        formula = f"{kept} layer inputs x {shown} x h x {residual} B + one layer recomputed"
        return kept * inputs, layer.total, formula, text("train.checkpointing")
    formula = f"{kept} layers x {shown} x [{layer.expression}] + embedding output"
    return kept * layer.total + inputs, 0, formula, text("train.saved")


def training_activations(inp: EstimateInput) -> list[Component]:
    """The activations (and the logits, on the stage that computes them) of one step on the busiest card."""
    plan = inp.parallel
    sp = plan.sequence_parallel
    tokens = sequence_tokens(inp) // sp
    saved, transient, formula, first = _saved(inp, tokens)
    sentences = [first]
    flight = in_flight(inp)
    logits = _logits(inp, tokens * inp.batch_size, head_gradient=True)
    size = flight * saved + transient
    if plan.pipeline_parallel > 1:
        last = saved + transient + (0 if logits is None else logits.bytes)
        if last > size:  # the last stage (one micro-batch and the logits) is the busiest card
            size, flight = saved + transient, 1
        else:
            logits = None
        formula = f"{flight} micro-batch(es) in flight x ({formula})"  # a counted phrase of the web's formulas
        sentences.append(text("train.pipeline", stages=plan.pipeline_parallel, layers=stage_layers(inp), flight=flight))
    if sp > 1:
        sentences.append(text("train.sequence_parallel", cards=sp, tokens=tokens, total=tokens * sp))
    if plan.tp_sequence_parallel:
        sentences.append(text("train.tp_sequence_parallel", tp=plan.tensor_parallel))
    if plan.tp_gathered_inputs_saved:
        sentences.append(text("train.tp_gathered_inputs"))
    if inp.training.activation_offloading:
        sentences.append(text("train.activation_offload"))
    if not inp.flash_attention:
        sentences.append(text("train.no_fused_attention"))
    assumption = joined(*sentences) if len(sentences) > 1 else sentences[0]
    comps = [Component("activations", "Activations", size, show(formula, size), assumption, (FB,), dynamic=True)]
    if logits is not None:
        comps.append(logits)
    if plan.context_parallel_ring:
        comps.append(_ring_buffers(inp))
    return comps


def _ring_buffers(inp: EstimateInput) -> Component:
    """Ring attention: the keys and values of the whole sequence for one layer, and their gradients in backward."""
    model, t = inp.model, inp.parallel.tensor_parallel
    kd = max(1, model.kv_heads // t) * model.dim_per_head
    tokens = sequence_tokens(inp) * inp.batch_size
    size = 4 * tokens * kd * compute_bytes(inp)
    return Component(
        "context_parallel_buffers",
        "Ring-attention key/value buffers",
        size,
        show(f"4 x {num(tokens)} tokens x {kd} x {compute_bytes(inp)} B", size),
        text("train.ring_attention", cards=inp.parallel.sequence_parallel),
        (FB,),
        dynamic=True,
    )


def logits_bytes(inp: EstimateInput) -> int:
    """The logits and loss spike of one step on a card that computes them (0 for a model without vocab logits)."""
    found = _logits(inp, sequence_tokens(inp) // inp.parallel.sequence_parallel * inp.batch_size)
    return 0 if found is None else found.bytes


def _head_gradient(inp: EstimateInput) -> tuple[int, str]:
    """The LM head's weight gradient at the start of backward when gradients are freed after each step (0526).

    Backward starts at the loss: the first gradient it fills is the LM head's (vocab x hidden, unsharded until it is
    reduced) while every layer's saved activations are still alive; the other gradients replace the activations as
    backward goes down (decision 0525). Frozen heads (adapters) have none.
    """
    if not inp.training.gradients_freed or inp.workload.is_adapter:
        return 0, ""
    model, g = inp.model, dense_bytes(inp)
    size = model.vocab_size * model.hidden_size * g // inp.parallel.tensor_parallel
    return size, f" + {num(model.vocab_size)} vocab x {num(model.hidden_size)} x {g} B grad"


def _logits(inp: EstimateInput, tokens: int, head_gradient: bool = False) -> Component | None:
    model = inp.model
    if not (model.has_vocab_logits or inp.training.masked_lm_head):  # an encoder's MLM head: every position
        return None
    b_act = compute_bytes(inp)
    t = inp.parallel.tensor_parallel
    chunk = inp.training.loss_chunk_tokens
    said = text("train.logits")
    if chunk:  # only one chunk of tokens goes through the LM head and the loss at a time
        tokens = min(tokens, chunk)
        said = text("train.logits_token_chunks", chunk=chunk)
    eighths = 0  # bytes per logit beyond per_entry, in eighths (one of torchtune's eight chunks)
    if inp.training.chunked_loss and inp.training.compiled_loss:
        # compiled, each chunk's loss keeps its 16-bit logits (no fp32 upcast), and backward turns them into their
        # gradient one chunk at a time, freeing each chunk's logits as its gradient appears (decision 0595)
        per_entry, eighths = b_act, b_act
        how = f"{b_act} B logits + {b_act} B grad of one chunk (1/8)"
    elif inp.training.chunked_loss:
        per_entry, how = 2 * b_act + 1, f"{b_act} B logits + {b_act} B grad + fp32 chunk (1/8 of the vocab rows)"
    elif inp.training.loss_grad_in_place:  # one fused kernel, the gradient written into the logits (0.3.14)
        per_entry, how = b_act, f"{b_act} B logits, their gradient in place"
    elif inp.training.compiled_loss or inp.training.logits_sum_loss:  # no fp32 upcast (decisions 0515, 0526)
        per_entry, how = 2 * b_act, f"{b_act} B logits + {b_act} B grad"
    elif inp.parallel.contiguous_grad_buffer:  # Megatron's vocab-parallel loss: gradient in place (decision 0530)
        per_entry = b_act + (4 if b_act < 4 else 0)
        how = f"{b_act} B logits" + (" + 4 B fp32 softmax, its gradient in place" if b_act < 4 else "")
    elif inp.training.loss_in_compute_precision:  # the loss on the 16-bit logits, no upcast (0.3.15)
        per_entry = b_act + (b_act if b_act < 4 else 0) + b_act
        how = f"{b_act} B logits" + (f" + {b_act} B softmax" if b_act < 4 else "") + f" + {b_act} B grad"
    elif inp.training.fp32_logits_held:  # fp32 logits returned and held through backward (0.3.28)
        per_entry, how = 16, "4 B fp32 logits held through backward + 4 B fp32 log-softmax + 2 x 4 B fp32 grads"
        said = said if chunk else text("train.logits_fp32_held")
    else:
        per_entry = b_act + (4 if b_act < 4 else 0) + 4
        how = f"{b_act} B logits" + (" + 4 B fp32 upcast" if b_act < 4 else "") + " + 4 B fp32 grad"
    head, head_how = _head_gradient(inp) if head_gradient else (0, "")
    size = tokens * model.vocab_size * (8 * per_entry + eighths) // (8 * t) + head
    return Component(
        "logits",
        "Logits / loss spike",
        size,
        show(f"{num(tokens)} tokens x {num(model.vocab_size)} vocab x ({how}) / {t}{head_how}", size),
        said,
        (FB,),
        dynamic=True,
    )

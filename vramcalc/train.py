"""Components of a training step (full fine-tuning, LoRA, QLoRA, vision fine-tuning) on one card.

Two phases: ``forward_backward`` (weights, states, gradients, saved activations, logits) and
``optimizer_step`` (weights, states, gradients and the step's temporaries). Gradients are counted
in full during backward, as most estimators do; it is an upper bound when activations are freed
while gradients fill.
"""

from __future__ import annotations

from .architecture import linear_shapes, param_counts
from .components.activations import autocast_upcasts, compute_bytes, layer_activation, sequence_tokens
from .components.training import (
    largest_tensor,
    master_bytes,
    optimizer_bytes,
    step_transient_bytes,
    trainable_params,
)
from .components.weights import (
    dense_bytes,
    model_weight_bytes,
    per_card_weights,
    vision_encoder_component,
    weights_component,
)
from .fmt import num, show
from .inputs import EstimateInput
from .options import QuantMethod, Strategy
from .parallel import ShardDivisors, shard_divisors, sharded
from .result import Component
from .text import joined, text

__all__ = ["FB", "OFFLOAD_NOTE", "STEP", "ZERO3_NOTE", "training_components"]

FB = "forward_backward"
STEP = "optimizer_step"
BOTH = (FB, STEP)
ZERO3_NOTE = str(text("train.zero3_live"))
OFFLOAD_NOTE = " " + str(text("train.activation_offload"))


def training_components(inp: EstimateInput) -> list[Component]:
    """Model states, activations and transients of one training step on the busiest card."""
    div = shard_divisors(inp.parallel)
    comps = _weights(inp, div)
    comps += _states(inp, div)
    comps += _activations(inp)
    comps += _transients(inp, div)
    return [c for c in comps if c.bytes > 0]


def _weights(inp: EstimateInput, div: ShardDivisors) -> list[Component]:
    weights = model_weight_bytes(inp.model, dense_bytes(inp), inp.quantization)
    card, _how = per_card_weights(inp, weights)
    comps = [weights_component(inp, weights, sharded(card, div.weights), BOTH)]
    vision = vision_encoder_component(inp, BOTH)
    if vision is not None:
        comps.append(vision)
    if inp.workload.is_adapter:
        params, expr = trainable_params(inp)
        size = sharded(params * dense_bytes(inp) // inp.parallel.tensor_parallel, div.weights)
        comps.append(
            Component(
                key="adapter_weights",
                label="LoRA adapter weights",
                bytes=size,
                formula=show(f"{num(params)} params ({expr}) x {dense_bytes(inp)} B", size),
                assumption=text("train.adapters"),
                phases=BOTH,
            )
        )
    return comps


def _states(inp: EstimateInput, div: ShardDivisors) -> list[Component]:
    params, expr = trainable_params(inp)
    per_tp = params // inp.parallel.tensor_parallel
    contiguous = inp.parallel.contiguous_grad_buffer and not inp.training.optimizer_in_backward
    grad_bytes = 4 if contiguous else dense_bytes(inp)
    if inp.training.optimizer_in_backward:
        grads = largest_tensor(inp) * grad_bytes
        grad_formula = show(f"largest tensor {num(largest_tensor(inp))} x {grad_bytes} B (step in backward)", grads)
    else:
        grads = sharded(per_tp * grad_bytes, div.grads)
        grad_formula = show(f"{num(per_tp)} trainable ({expr}) x {grad_bytes} B / {div.grads or 'offloaded'}", grads)
    opt = optimizer_bytes(inp, per_tp)
    optimizer = sharded(opt.bytes, div.optimizer)
    master = sharded(master_bytes(inp, per_tp), div.optimizer)
    label = div.label
    return [
        Component(
            "gradients",
            "Gradients",
            grads,
            grad_formula,
            text("train.main_grad" if contiguous else "train.gradients", plan=label),
            BOTH,
        ),
        Component(
            "master_weights",
            "Master weights (fp32)",
            master,
            show(f"4 B x {num(per_tp)} / {div.optimizer or 'offloaded'}", master),
            text("train.master", plan=label),
            BOTH,
        ),
        Component(
            "optimizer_state",
            f"Optimizer state ({inp.training.optimizer.value})",
            optimizer,
            show(f"{opt.expression}, P = {num(per_tp)} / {div.optimizer or 'offloaded'}", optimizer),
            label if opt.on_card else joined(text("train.paged"), label),
            BOTH,
        ),
    ]


def _activations(inp: EstimateInput) -> list[Component]:
    model = inp.model
    sp = inp.parallel.sequence_parallel
    tokens = sequence_tokens(inp) // sp
    b = inp.batch_size
    layer = layer_activation(inp, tokens, b)
    layers = model.total_layers
    b_act = compute_bytes(inp)
    inputs = tokens * b * model.hidden_size * b_act
    # Offloaded: the layer being computed and the one in transfer stay on the card, the rest is in host memory.
    kept = min(2, layers) if inp.training.activation_offloading else layers
    if inp.training.activation_checkpointing:
        size = kept * inputs + layer.total
        formula = f"{kept} layer inputs x {num(tokens * b)} tokens x h x {b_act} B + one layer recomputed"
        sentences = [text("train.checkpointing")]
    else:
        size = kept * layer.total + inputs
        formula = f"{kept} layers x {num(tokens * b)} tokens x [{layer.expression}] + embedding output"
        sentences = [text("train.saved")]
    if sp > 1:
        sentences.append(text("train.sequence_parallel", cards=sp, tokens=tokens, total=tokens * sp))
    if inp.training.activation_offloading:
        sentences.append(text("train.activation_offload"))
    if not inp.flash_attention:
        sentences.append(text("train.no_fused_attention"))
    assumption = joined(*sentences) if len(sentences) > 1 else sentences[0]
    comps = [Component("activations", "Activations", size, show(formula, size), assumption, (FB,), dynamic=True)]
    logits = _logits(inp, tokens * b)
    if logits is not None:
        comps.append(logits)
    return comps


def _logits(inp: EstimateInput, tokens: int) -> Component | None:
    model = inp.model
    if not model.has_vocab_logits:
        return None
    b_act = compute_bytes(inp)
    t = inp.parallel.tensor_parallel
    if inp.training.chunked_loss:
        per_entry, how = 2 * b_act + 1, f"{b_act} B logits + {b_act} B grad + fp32 chunk (1/8 of the vocab rows)"
    else:
        per_entry = b_act + (4 if b_act < 4 else 0) + 4
        how = f"{b_act} B logits" + (" + 4 B fp32 upcast" if b_act < 4 else "") + " + 4 B fp32 grad"
    size = tokens * model.vocab_size * per_entry // t
    return Component(
        "logits",
        "Logits / loss spike",
        size,
        show(f"{num(tokens)} tokens x {num(model.vocab_size)} vocab x ({how}) / {t}", size),
        text("train.logits"),
        (FB,),
        dynamic=True,
    )


def _transients(inp: EstimateInput, div: ShardDivisors) -> list[Component]:
    params, _expr = trainable_params(inp)
    t = inp.parallel.tensor_parallel
    step, how = step_transient_bytes(inp, params // t)
    step = sharded(step, div.optimizer)
    comps = [
        Component(
            "optimizer_step",
            "Optimizer-step temporaries",
            step,
            show(how, step),
            text("train.step", how=how),
            (STEP,),
            True,
        )
    ]
    counts = param_counts(inp.model)
    if inp.parallel.strategy.shard_stage == 3:
        comps.append(_gathered(inp, counts.largest_layer, counts.total))
    plan = inp.parallel
    if (
        plan.strategy is Strategy.DDP
        and plan.data_parallel > 1
        and not (plan.grad_bucket_view or plan.contiguous_grad_buffer)
    ):
        grads = params // t * dense_bytes(inp)
        comps.append(
            Component(
                "ddp_buckets",
                "DDP gradient buckets",
                grads,
                show("one more copy of the gradients", grads),
                text("train.ddp_buckets"),
                BOTH,
            )
        )
    if autocast_upcasts(inp):
        linear = counts.linear * compute_bytes(inp) // t
        comps.append(
            Component(
                "autocast_copies",
                "Autocast weight copies",
                linear,
                show(f"{num(counts.linear)} linear params x {compute_bytes(inp)} B", linear),
                text("train.autocast"),
                (FB,),
                dynamic=True,
            )
        )
    comps += _dequant(inp)
    return comps


def _gathered(inp: EstimateInput, unit: int, total: int) -> Component:
    """ZeRO-3/FSDP: the unit being computed plus the prefetch, capped by DeepSpeed's live-parameter limit."""
    plan = inp.parallel
    weights = model_weight_bytes(inp.model, dense_bytes(inp), inp.quantization)
    live = unit + (plan.zero3_prefetch_params or unit)
    expr = f"largest unit {num(unit)} + prefetch {num(plan.zero3_prefetch_params or unit)} params"
    assumption = text("train.gathered")
    if plan.zero3_prefetch_params or plan.zero3_max_live_params:
        assumption = text("train.zero3_live")
    if plan.zero3_max_live_params:
        live = min(live, max(unit, plan.zero3_max_live_params))
        expr = f"min({expr}, max live {num(plan.zero3_max_live_params)})"
    live = min(live, total)
    gathered = live * weights.total // total // plan.tensor_parallel
    return Component(
        "gathered_params",
        "Gathered parameters (ZeRO-3/FSDP)",
        gathered,
        show(f"{expr} x stored bytes", gathered),
        assumption,
        (FB,),
        dynamic=True,
    )


def _dequant(inp: EstimateInput) -> list[Component]:
    if inp.quantization.method is QuantMethod.NONE:
        return []
    biggest = max(s.d_in * s.d_out for s in linear_shapes(inp.model))
    size = biggest * compute_bytes(inp) // inp.parallel.tensor_parallel
    return [
        Component(
            "dequant_workspace",
            "Dequantization workspace",
            size,
            show(f"largest linear {num(biggest)} x {compute_bytes(inp)} B", size),
            text("train.dequant"),
            (FB,),
            dynamic=True,
        )
    ]

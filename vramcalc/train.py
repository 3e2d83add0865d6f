"""Components of a training step (full fine-tuning, LoRA, QLoRA, vision fine-tuning) on one card.

Two phases: ``forward_backward`` (weights, states, gradients, saved activations, logits) and
``optimizer_step`` (weights, states, gradients and the step's temporaries). Gradients are counted
in full during backward, as most estimators do (an upper bound when activations are freed while
gradients fill), except with ``training.gradients_freed``, where the step holds them (decision 0525).
"""

from __future__ import annotations

from .architecture import linear_shapes, param_counts
from .components.activations import autocast_upcasts, compute_bytes, layer_activation, sequence_tokens
from .components.training import (
    largest_tensor,
    master_bytes,
    master_element_bytes,
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
from .train_activations import training_activations

__all__ = ["FB", "OFFLOAD_NOTE", "STEP", "ZERO3_NOTE", "ddp_buckets", "stage_params", "training_components"]

FB = "forward_backward"
STEP = "optimizer_step"
BOTH = (FB, STEP)
ZERO3_NOTE = str(text("train.zero3_live"))
# DeepSpeed's default ZeRO-3 ``sub_group_size``: the optimizer steps its partition in sub-groups of this many
# parameters, each with its gradients in the master precision for the length of its step.
ZERO3_SUB_GROUP_SIZE = 1_000_000_000
OFFLOAD_NOTE = " " + str(text("train.activation_offload"))


def training_components(inp: EstimateInput) -> list[Component]:
    """Model states, activations and transients of one training step on the busiest card."""
    div = shard_divisors(inp.parallel)
    comps = _weights(inp, div)
    comps += _states(inp, div)
    comps += training_activations(inp)
    filled = _gradients_by_last_recompute(inp, comps)
    if filled is not None:
        comps.append(filled)
    comps += _transients(inp, div)
    return [c for c in comps if c.bytes > 0]


def _gradients_by_last_recompute(inp: EstimateInput, comps: list[Component]) -> Component | None:
    """Gradients already filled when backward rebuilds the first checkpointed layer (engine 0.3.23).

    With gradients freed after each step (decision 0525) the forward-backward phase counts the saved activations
    and the logits, not the gradients: backward fills the gradients while it frees what the layers saved. Under full
    activation checkpointing what a layer saved is only its input, and backward rebuilds each layer's activations
    (``torch.utils.checkpoint`` reruns the layer's forward) while the gradients of every later layer are held: at
    the first layer's rebuild the card holds nearly every gradient beside one layer's activations, and the inputs
    and the logits are gone. The phase's peak is then higher by what the gradients exceed those by. One card, no
    pipeline (a stage's micro-batches interleave) and no adapters (their gradients are small).
    """
    training = inp.training
    if not (training.gradients_freed and training.activation_checkpointing) or inp.workload.is_adapter:
        return None
    if training.checkpoint_every > 1 or training.selective_op_checkpointing or inp.parallel.pipeline_parallel > 1:
        return None
    found = {c.key: c for c in comps}  # `_states` and `training_activations` always give these two, if at 0 bytes
    grads, acts = found["gradients"], found["activations"]
    tokens = sequence_tokens(inp) // inp.parallel.sequence_parallel
    recompute = layer_activation(inp, tokens, inp.batch_size).total
    freed = acts.bytes - recompute + (found["logits"].bytes if "logits" in found else 0)
    size = max(0, grads.bytes - freed)
    if not size:
        return None
    return Component(
        "gradients_in_backward",
        "Gradients held at the last recompute",
        size,
        show(f"{num(grads.bytes)} B of gradients - {num(freed)} B of layer inputs and logits", size),
        text("train.gradients_last_recompute"),
        (FB,),
    )


def _weights(inp: EstimateInput, div: ShardDivisors) -> list[Component]:
    weights = model_weight_bytes(inp.model, dense_bytes(inp), inp.quantization)
    card, _how = per_card_weights(inp, weights)
    comps = [weights_component(inp, weights, sharded(card, div.weights), BOTH)]
    vision = vision_encoder_component(inp, BOTH)
    if vision is not None:
        comps.append(vision)
    if inp.workload.is_adapter:
        params, expr = trainable_params(inp)
        size = sharded(stage_params(inp, params) * dense_bytes(inp) // inp.parallel.tensor_parallel, div.weights)
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
    per_tp = stage_params(inp, params) // inp.parallel.tensor_parallel
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
    master_each = master_element_bytes(inp)
    in_16 = master_each == 2
    label = div.label
    # Freed after each step with nothing accumulated, gradients replace the saved activations as backward runs: the
    # step holds them, the forward-backward peak does not (decision 0525).
    held = (STEP,) if inp.training.gradients_freed else BOTH
    return [
        Component(
            "gradients",
            "Gradients",
            grads,
            grad_formula,
            text("train.main_grad" if contiguous else "train.gradients", plan=label),
            held,
        ),
        Component(
            "master_weights",
            "Master weights (16-bit)" if in_16 else "Master weights (fp32)",
            master,
            show(f"{master_each or 4} B x {num(per_tp)} / {div.optimizer or 'offloaded'}", master),
            text("train.master_16bit" if in_16 else "train.master", plan=label),
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


def ddp_buckets(inp: EstimateInput, trainable: int, phases: tuple[str, ...]) -> Component | None:
    """DDP's gradient buckets: the Reducer allocates flat buckets over every trainable parameter's gradient when the
    model is wrapped, one more copy of the gradients, unless ``gradient_as_bucket_view=True`` (or a contiguous
    gradient buffer) makes the gradients views into them; ``None`` when there is no such copy."""
    plan = inp.parallel
    if (
        plan.strategy is not Strategy.DDP
        or plan.data_parallel < 2
        or plan.grad_bucket_view
        or plan.contiguous_grad_buffer
    ):
        return None
    grads = trainable * dense_bytes(inp)
    return Component(
        "ddp_buckets",
        "DDP gradient buckets",
        grads,
        show("one more copy of the gradients", grads),
        text("train.ddp_buckets"),
        phases,
    )


def _zero3_master_grads(inp: EstimateInput, trainable: int, div: ShardDivisors) -> Component | None:
    """DeepSpeed ZeRO-3's step holds one sub-group's gradients in the master weights' precision: for each sub-group in
    turn, ``_prepare_fp32_grad_for_sub_group`` sets ``fp32_partitioned_groups_flat[i].grad`` to the flattened 16-bit
    gradient partition converted to the master dtype, and ``_release_sub_group`` drops it after that sub-group's step
    (``if not self.offload_optimizer``). A sub-group holds at most ``sub_group_size`` parameters (DeepSpeed's default
    1e9). Only where 16-bit weights have a master copy on the card (the DeepSpeed recipe; FSDP keeps fp32 weights)."""
    each = master_element_bytes(inp)
    if inp.parallel.strategy.shard_stage != 3 or not each or not div.optimizer:
        return None
    per_card = sharded(trainable, div.optimizer)
    held = min(per_card, ZERO3_SUB_GROUP_SIZE)
    grads = held * each
    return Component(
        "master_grads",
        "Master-precision gradients (ZeRO-3 step)",
        grads,
        show(f"min({num(per_card)}, {num(ZERO3_SUB_GROUP_SIZE)}) params x {each} B", grads),
        text("train.zero3_master_grads", bytes=each),
        (STEP,),
        True,
    )


def _zero2_reduce_buffers(elements: int) -> Component:
    """DeepSpeed ZeRO-2's contiguous gradient buffers: ``backward`` allocates ``ipg_buffer`` (two with
    ``overlap_comm``), into which each gradient is copied for its reduction; they are fp16 (``torch.half``) under
    DeepSpeed 0.3, the only versions whose buffers are 4.5 x ``reduce_bucket_size`` (removed in May 2021), and held
    until the step releases them (``_release_ipg_buffers``)."""
    size = elements * 2
    return Component(
        "zero2_reduce_buffers",
        "ZeRO-2 gradient reduce buffers",
        size,
        show(f"{num(elements)} elements x 2 B", size),
        text("train.zero2_reduce_buffers"),
        (FB,),
        True,
    )


def _transients(inp: EstimateInput, div: ShardDivisors) -> list[Component]:
    trainable, _expr = trainable_params(inp)
    params = stage_params(inp, trainable)
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
    plan = inp.parallel
    master_grads = _zero3_master_grads(inp, params // t, div)
    if master_grads is not None:
        comps.append(master_grads)
    if plan.strategy.shard_stage == 3 and plan.pipeline_parallel > 1:
        comps += _stage_gathered(inp, stage_params(inp, counts.total))
    elif plan.strategy is Strategy.FSDP and not plan.fsdp_embeddings_sharded:
        comps += [_gathered(inp, counts.largest_block, counts.total), _fsdp_root(inp, counts.embedding)]
    elif plan.strategy.shard_stage == 3:
        comps.append(_gathered(inp, counts.largest_layer, counts.total))
    if plan.fsdp_no_sync:
        comps.append(_no_sync_gradients(inp))
    elif plan.strategy is Strategy.FSDP and plan.pipeline_parallel == 1:
        comps.append(_unit_gradient(inp, counts.largest_block, counts.total))
    buckets = ddp_buckets(inp, params // t, BOTH)
    if buckets is not None:
        comps.append(buckets)
    if plan.zero2_reduce_buffer_params:
        comps.append(_zero2_reduce_buffers(plan.zero2_reduce_buffer_params))
    # FSDP/ZeRO-3 gather the parameters in the compute precision (FSDP2's MixedPrecisionPolicy param_dtype,
    # DeepSpeed bf16): there is no separate autocast copy of fp32 weights. A quantized base's linears are not cast
    # by autocast either: each dequantizes its own weight into the compute precision (the dequantization
    # workspace) and keeps only the quantized weight for backward; fp32 then holds only the modules left
    # unquantized (decision 0524).
    quantized = inp.quantization.method is not QuantMethod.NONE or inp.model.checkpoint_prequantized
    if autocast_upcasts(inp) and plan.strategy.shard_stage != 3 and not quantized:
        # A trained vision tower's weights are fp32 leaves that require grad, which autocast caches its casts of
        # (PyTorch's ``cached_cast``: ``arg.requires_grad() && arg.is_leaf()``); a frozen one passes no gradient back
        # and saves none. Its linears hold nearly all of its parameters (decision 0535), not split by tensor
        # parallelism (engine 0.3.21).
        vision = inp.model.vision_encoder_params if inp.training.vision_encoder_trained else 0
        linear = stage_params(inp, counts.linear) * compute_bytes(inp) // t + vision * compute_bytes(inp)
        shown = f"{num(counts.linear)} linear params" + (f" + {num(vision)} vision encoder params" if vision else "")
        comps.append(
            Component(
                "autocast_copies",
                "Autocast weight copies",
                linear,
                show(f"{shown} x {compute_bytes(inp)} B", linear),
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
    gathered = live * _gathered_bytes(inp, weights.total, total) // total // plan.tensor_parallel
    return Component(
        "gathered_params",
        "Gathered parameters (ZeRO-3/FSDP)",
        gathered,
        show(f"{expr} x {_gathered_how(inp)}", gathered),
        assumption,
        (FB,),
        dynamic=True,
    )


def _fsdp_root(inp: EstimateInput, embedding: int) -> Component:
    """FSDP's root unit, gathered from its forward to its backward: PyTorch does not reshard the root after the forward
    (FSDP1's ``_post_forward_reshard`` frees only ``not state._is_root``; FSDP2's lazy init sets the root group's
    ``post_forward_mesh_info = None``). Wrapping each block, as the auto-wrap policies do, leaves the token embedding,
    the LM head and the final norm to the root, in the precision the units are gathered in (16-bit for a quantized
    base, whose embeddings stay unquantized)."""
    per = _dense_param_bytes(inp)
    size = embedding * per // inp.parallel.tensor_parallel
    return Component(
        "fsdp_root",
        "FSDP root unit kept gathered",
        size,
        show(f"{num(embedding)} params x {per} B", size),
        text("train.fsdp_root"),
        (FB,),
    )


def _dense_param_bytes(inp: EstimateInput) -> int:
    """Bytes of an unquantized parameter, or of its gradient, as FSDP holds it unsharded: the compute dtype under a
    mixed-precision policy, the stored dtype otherwise."""
    return compute_bytes(inp) if autocast_upcasts(inp) else dense_bytes(inp)


def _gathered_bytes(inp: EstimateInput, stored: int, total: int) -> int:
    """Bytes of the whole model as gathered: stored bytes, fp32 weights in the compute precision, fp8 with Float8."""
    if inp.training.float8 and inp.quantization.method is QuantMethod.NONE:
        return total
    if autocast_upcasts(inp):
        return stored * compute_bytes(inp) // dense_bytes(inp)
    return stored


def _gathered_how(inp: EstimateInput) -> str:
    if inp.training.float8 and inp.quantization.method is QuantMethod.NONE:
        return "1 B fp8"
    if autocast_upcasts(inp):
        return f"{compute_bytes(inp)} B {inp.precision.compute.value}"
    return "stored bytes"


def _stage_gathered(inp: EstimateInput, stage: int) -> list[Component]:
    """FSDP with pipeline stages (torchtitan): a stage's parameters stay gathered between its micro-batches
    (``reshard_after_forward`` is off) and its gradients accumulate unsharded until the last micro-batch."""
    t = inp.parallel.tensor_parallel
    weights = model_weight_bytes(inp.model, dense_bytes(inp), inp.quantization)
    total = param_counts(inp.model).total
    gathered = stage * _gathered_bytes(inp, weights.total, total) // total // t
    trainable, _expr = trainable_params(inp)
    grads = stage_params(inp, trainable) * compute_bytes(inp) // t
    return [
        Component(
            "gathered_params",
            "Gathered parameters (ZeRO-3/FSDP)",
            gathered,
            show(f"{num(stage)} params / {t} x {_gathered_how(inp)}", gathered),
            text("train.stage_gathered"),
            BOTH,
        ),
        Component(
            "unsharded_gradients",
            "Unsharded gradients of the stage",
            grads,
            show(f"{num(stage_params(inp, trainable))} trainable / {t} x {compute_bytes(inp)} B", grads),
            text("train.stage_gradients"),
            (FB,),
        ),
    ]


def _unit_gradient(inp: EstimateInput, unit: int, total: int) -> Component:
    """FSDP's unsharded gradient of the unit in backward (decision 0589).

    Autograd fills a unit's whole gradient before FSDP reduce-scatters it: FSDP1's ``_post_backward_hook`` takes
    ``unsharded_grad = flat_param.grad.data`` and keeps it (``_no_dispatch_record_stream``) until the
    reduce-scatter on the post-backward stream has run; FSDP2's ``foreach_reduce`` copies the unit's gradients into
    a reduce-scatter input of the same size. So one unit's gradient is live beside the gathered unit and the
    prefetch. Only the trainable share of the unit has one. Not with ``no_sync``
    (every unit's unsharded gradient is already counted) nor with pipeline stages (the stage's are).

    A gradient takes its parameter's dtype, the compute dtype under a mixed-precision policy and the stored one
    otherwise: a Float8 linear's weight gradient is in its high-precision dtype though the gather is fp8, and a
    quantized base's adapters are dense (decision 0593).
    """
    trainable, _expr = trainable_params(inp)
    params = unit * min(trainable, total) // total
    per_param = _dense_param_bytes(inp)
    size = params * per_param // inp.parallel.tensor_parallel
    return Component(
        "unit_gradient",
        "Unsharded gradient of one unit (FSDP)",
        size,
        show(f"{num(params)} trainable x {per_param} B", size),
        text("train.unit_gradient"),
        (FB,),
        dynamic=True,
    )


def _no_sync_gradients(inp: EstimateInput) -> Component:
    """FSDP1's ``no_sync()``: each flat parameter that requires a gradient keeps it unsharded until the synchronising
    micro-batch. An adapter's blocks share their flat parameters with the frozen weights, so the blocks' whole
    parameters count; the embedding and an untied head hold no adapter and need none (decision 0519)."""
    trainable, _expr = trainable_params(inp)
    counts = param_counts(inp.model)
    blocks = counts.total - counts.embedding if inp.workload.is_adapter else 0
    params = blocks + trainable
    size = params * dense_bytes(inp) // inp.parallel.tensor_parallel
    counted = f"{num(blocks)} + {num(trainable)}" if blocks else num(trainable)
    return Component(
        "no_sync_gradients",
        "Unsharded gradients (FSDP no_sync)",
        size,
        show(f"{counted} params / {inp.parallel.tensor_parallel} x {dense_bytes(inp)} B", size),
        text("train.no_sync_gradients"),
        (FB,),
    )


def stage_params(inp: EstimateInput, params: int) -> int:
    """The share of ``params`` on one pipeline stage: ``ceil(layers / stages)`` of the blocks plus the larger of
    the embedding and the LM head (all of ``params`` without pipeline parallelism)."""
    stages = inp.parallel.pipeline_parallel
    if stages == 1:
        return params
    layers = inp.model.total_layers
    share = -(-layers // stages)
    if inp.workload.is_adapter:
        return params * share // layers
    embedding = min(params, param_counts(inp.model).embedding)
    head = embedding // (1 if inp.model.tie_word_embeddings else 2)
    return (params - embedding) * share // layers + head


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

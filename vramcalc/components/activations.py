"""Activations: tensors saved for backward (training) and the per-layer working set (inference).

Training follows Korthikanti et al. 2022 generalised to GQA, gated MLPs and dtypes (estimator.md §4.2):
per layer and token, elements saved are ``4h`` (two norm inputs, the attention and MLP inputs;
replicated under TP) plus ``2ad + 2kd`` (q, k, v, attention output) and ``4f`` (gated MLP) or ``2f``
(GeLU MLP), divided by ``t``; dropout adds 1-byte masks; without fused attention the score matrices
``a·s²`` are stored. For a GPT block at 16 bits this is exactly ``s·b·h·(34 + 5as/h)``.

Under AMP autocast (fp32 weights, 16-bit compute; engine 0.3.32, decision 0585) PyTorch's autocast op reference
lists ``matmul`` and ``linear`` as ops that autocast to float16 and ``softmax`` and ``layer_norm`` as ops that
autocast to float32. So an eager attention (timm's ``attn = (q @ k.transpose(-2, -1)) * self.scale``, ``attn =
attn.softmax(dim=-1)``, ``x = (attn @ v)``) saves the softmax's fp32 output and the matmul's 16-bit cast of it
(4 + b bytes a score), and the two norms of a layer save the fp32 residual stream they read (the embedding's output
is fp32 and a residual add of fp32 and 16-bit tensors promotes to fp32): 4 B where 16-bit training saves b.

Engine 0.3.33 (decision 0587): the matmul's copy is in the compute dtype (a quantized base under autocast, whose
other saved tensors the engine counts at 4 B, saves 4 + 2 B a score), every saved element of the residual stream is
fp32 (checkpointed layer inputs, the embedding output, op-SAC's kept input, LoRA dropout's copies of the norm
outputs; :func:`residual_bytes`), the residual term stays under compile (the two saved norm inputs) while the score's
16-bit copy does not (Inductor recomputes the cast), and none of it applies under FSDP/ZeRO-3, where "fp32 weights,
16-bit compute" is a mixed-precision policy that gathers the parameters in the compute dtype and runs no autocast
(as :mod:`vramcalc.train` reads it for the weight copies).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..architecture import linear_shapes
from ..dtypes import DType, dtype_bytes
from ..inputs import EstimateInput
from ..model import ModelKind, ModelSpec
from ..options import LoRATargets, QuantMethod

__all__ = [
    "LayerActivation",
    "autocast_residual_fp32",
    "autocast_runs",
    "autocast_upcasts",
    "compute_bytes",
    "layer_activation",
    "op_checkpoint_activation",
    "residual_bytes",
    "saved_bytes",
    "sequence_tokens",
]


@dataclass(frozen=True)
class LayerActivation:
    """Bytes saved for backward by one transformer layer for one micro-batch.

    Attributes:
        linear: the part linear in sequence length.
        scores: the attention-score part (``s²``), 0 with fused attention except logsumexp.
        expression: the per-token expression in elements.
    """

    linear: int
    scores: int
    expression: str

    @property
    def total(self) -> int:
        """All bytes of the layer."""
        return self.linear + self.scores


def compute_bytes(inp: EstimateInput) -> int:
    """Bytes per activation element (``precision.compute``)."""
    return dtype_bytes(inp.precision.compute)


def autocast_upcasts(inp: EstimateInput) -> bool:
    """AMP autocast (fp32 weights, 16-bit compute): softmax and norms run in fp32."""
    return inp.precision.weights is DType.FP32 and inp.precision.compute is not DType.FP32


def autocast_runs(inp: EstimateInput) -> bool:
    """``torch.autocast`` runs over fp32 weights: "fp32 weights, 16-bit compute" without FSDP/ZeRO-3. Under shard
    stage 3 the same inputs mean a mixed-precision policy (FSDP2's ``MixedPrecisionPolicy``, FSDP1's
    ``MixedPrecision``, DeepSpeed bf16) that gathers the parameters in the compute dtype and runs no autocast, as
    ``train.py`` reads them for the weight copies (decision 0587). Lightning's FSDP ``bf16-mixed`` (fp32 parameters
    under autocast) is not told apart by the inputs and is counted as the policy."""
    return autocast_upcasts(inp) and inp.parallel.strategy.shard_stage != 3


def autocast_residual_fp32(inp: EstimateInput) -> bool:
    """Autocast (:func:`autocast_runs`) with activations saved below 4 B: the residual stream stays fp32 (the
    embedding's output is fp32 and each residual add of an fp32 and a 16-bit tensor promotes to fp32), and the norms
    (``layer_norm`` on autocast's fp32 list) save that fp32 input, where the 16-bit linears save their cast copies."""
    return autocast_runs(inp) and saved_bytes(inp) < 4


def residual_bytes(inp: EstimateInput) -> int:
    """Bytes of a saved residual-stream element (a layer's input, the embedding output, a norm's input or output):
    4 under autocast (:func:`autocast_residual_fp32`), else :func:`saved_bytes` (decision 0587)."""
    return 4 if autocast_residual_fp32(inp) else saved_bytes(inp)


def saved_bytes(inp: EstimateInput) -> int:
    """Bytes per saved activation element: the compute precision, except a quantized base under autocast with its
    unquantized modules in fp32 (peft's ``prepare_model_for_kbit_training``, lit-gpt's ``bf16-mixed``): the
    residual stream is fp32 from the embedding on, and bitsandbytes' 4-bit linears return their output in their
    input's dtype (``Linear4bit.forward``: ``out.to(inp_dtype)``), so the layers' tensors stay fp32 (decision 0524).
    An upper bound: attention under autocast saves its q, k, v and output in the compute precision, and a frozen
    4-bit linear saves no input at all; the engine counts every saved tensor at 4 B."""
    quantized = inp.quantization.method is not QuantMethod.NONE or inp.model.checkpoint_prequantized
    return 4 if quantized and autocast_upcasts(inp) else compute_bytes(inp)


def sequence_tokens(inp: EstimateInput) -> int:
    """Tokens per sequence: ``seq_len``, or image patches (+1 class token) for vision models."""
    model = inp.model
    if model.kind is not ModelKind.VISION:
        return inp.seq_len + inp.image_tokens
    height = inp.image_height or model.image_size
    width = inp.image_width or model.image_size
    return (height // model.patch_size) * (width // model.patch_size) + 1


def _mlp_elements(model: ModelSpec, per_matrix: int) -> tuple[int, str]:
    """MLP elements saved per token: ``per_matrix`` tensors of width f per expert path."""
    moe = model.moe
    if moe is None:
        return per_matrix * model.intermediate_size, f"{per_matrix}f"
    active = moe.experts_per_token + moe.num_shared_experts
    return per_matrix * moe.expert_intermediate_size * active, f"{per_matrix}·{active}·f_expert"


def _lora_dropout_elements(inp: EstimateInput) -> tuple[int, int]:
    """LoRA dropout keeps a dropped-out copy of each distinct adapted input per token: the elements that copy norm
    outputs (the q/k/v and gate/up inputs, residual-stream bytes) and the others (o and down inputs)."""
    if not (inp.workload.is_adapter and inp.lora.dropout):
        return 0, 0
    model = inp.model
    h, ad = model.hidden_size, model.num_attention_heads * model.dim_per_head
    targets = inp.lora.targets
    norm_outputs, others = h, 0  # the q/k/v input (shared by q, k, v adapters)
    if targets is not LoRATargets.QV:
        others += ad  # o-projection input
    if targets is LoRATargets.ALL_LINEAR:
        down = next((s.d_in for s in linear_shapes(model) if s.role in ("down", "expert_down")), 0)
        norm_outputs += h
        others += down
    return norm_outputs, others


def _relative_position_bias(inp: EstimateInput, heads: int, tokens_per_seq: int, b_act: int) -> int:
    """Bytes one layer saves for its relative position bias (BEiT, engine 0.3.14), once per micro-batch.

    transformers' ``BeitRelativePositionBias.forward`` gathers ``new_relative_position_bias_table[
    self.relative_position_indices[key].view(-1)]`` into a ``(1, heads, s, s)`` bias: the gather saves its int64
    index of ``s²`` entries while the table trains (not under adapters), and a fused attention kernel saves the
    bias it is given as its mask (backward recomputes the probabilities from it); an eager attention adds it to
    the scores it already stores.
    """
    if not inp.model.relative_position_bias:
        return 0
    squared = tokens_per_seq * tokens_per_seq
    index = 0 if inp.workload.is_adapter else 8 * squared
    return index + (heads * squared * b_act if inp.flash_attention else 0)


def layer_activation(inp: EstimateInput, tokens_per_seq: int, batch: int) -> LayerActivation:
    """Bytes one layer saves for backward for ``batch`` sequences of ``tokens_per_seq`` tokens."""
    model = inp.model
    t = inp.parallel.tensor_parallel
    b_act = saved_bytes(inp)
    residual = residual_bytes(inp)
    h, a, k, d = model.hidden_size, model.num_attention_heads, model.kv_heads, model.dim_per_head
    if model.mla is not None:
        d = model.mla.qk_nope_head_dim + model.mla.qk_rope_head_dim
        k = a
    compiled = inp.training.compiled
    if inp.training.kv_expanded:  # keys and values copied to every query head before the kernel (0.3.14)
        k = a
    per_matrix = 4 if model.gated_mlp else 2
    mlp, mlp_expr = _mlp_elements(model, per_matrix // 2 if compiled else per_matrix)
    split = 2 * a * d + 2 * k * d + mlp
    tokens = tokens_per_seq * batch
    replicated = 2 if compiled else 4  # norm inputs (+ norm outputs unless recomputed by the compiler)
    # Megatron-style sequence parallelism splits what tensor parallelism replicates (norms, dropout) over t.
    t_sp = t if inp.parallel.tp_sequence_parallel else 1
    # Column-parallel linears that save their all-gathered input (nanotron without async communication, 0.3.24)
    # keep the two norm outputs they read whole; only the norms' own inputs stay split.
    whole = 2 if inp.parallel.tp_gathered_inputs_saved else 0
    sharded = replicated - (0 if compiled else whole)
    lora_norm_outputs, lora_others = _lora_dropout_elements(inp)
    lora = lora_norm_outputs * residual + lora_others * b_act
    per_token = (sharded * h * b_act + lora) // t_sp + whole * h * b_act + split * b_act // t
    shown = f"{sharded}h/{t_sp}" if t_sp > 1 else f"{sharded}h"
    if whole:
        shown += f" + {whole}h gathered"
    expression = f"({shown} + (2ad + 2kd + {mlp_expr})/{t}) x {b_act} B"
    if inp.training.kv_expanded:
        expression += " (k = a: keys, values expanded)"
    if model.dropout:
        per_token += 2 * h // t_sp  # 1-byte dropout masks after attention and MLP
        expression += " + 2h masks"
    if inp.training.norm_fp32_input and not compiled:  # each norm's input kept as an fp32 copy (0.3.14)
        # 4 B in place of the b counted for the norm's input; a norm whose weight trains also keeps the normalized
        # tensor it multiplies by that weight (b more; under autocast ``hidden_states.to(input_dtype)`` is fp32,
        # 4 B, 0.3.33); adapters freeze the norms.
        extra = 4 - b_act + (0 if inp.workload.is_adapter else residual)
        per_token += 2 * extra * h // t_sp
        expression += f" + 2h x {extra} B fp32 norms"
    elif residual > b_act:  # the norms read the fp32 residual stream (0.3.32), under compile too (0.3.33)
        per_token += 2 * (residual - b_act) * h // t_sp
        expression += f" + 2h x {residual - b_act} B fp32 norms"
    heads = max(1, a // t)
    bias = _relative_position_bias(inp, heads, tokens_per_seq, b_act)
    if bias:
        expression += " + relative position bias"
    if inp.flash_attention:
        scores = 4 * heads * tokens + bias  # fp32 logsumexp per head and token
        expression += " + fp32 logsumexp"
    else:
        # The softmax saves its output (fp32 under autocast); the probabilities @ v matmul saves what it reads: with
        # dropout the dropped tensor (after a 1-byte mask; autocast's cast of it, in the compute dtype, 0.3.33),
        # without it under autocast the softmax's output cast to the compute dtype (0.3.32; not under compile, where
        # Inductor recomputes the cast from the saved fp32 output, 0.3.33), else the softmax's own output.
        upcast = autocast_runs(inp)
        copy = compute_bytes(inp) if upcast else b_act
        softmax = 4 if upcast else b_act
        per_score = softmax + (1 + copy if model.dropout else copy if upcast and not compiled else 0)
        scores = heads * tokens_per_seq * tokens_per_seq * batch * per_score + bias
        expression += f" + a·s² x {per_score} B scores"
    return LayerActivation(tokens * per_token, scores, expression)


def op_checkpoint_activation(inp: EstimateInput, tokens_per_seq: int, batch: int) -> LayerActivation:
    """Bytes one layer keeps under per-operation selective checkpointing (torchtitan's ``op`` policy).

    The policy saves the outputs of matmuls and of the attention kernel and recomputes the rest, but recomputes
    every second matmul of a layer (counted in forward order: q, k, v, o, then the MLP's). Kept per token: the
    layer input, the attention output and the 1st, 3rd, 5th and 7th matmul outputs (gated MLP: q, v, gate, down;
    two-matrix MLP: q, v, up), column-parallel outputs divided by ``t``.
    """
    model = inp.model
    t = inp.parallel.tensor_parallel
    t_sp = t if inp.parallel.tp_sequence_parallel else 1
    h, a, k, d = model.hidden_size, model.num_attention_heads, model.kv_heads, model.dim_per_head
    if model.mla is not None:
        d = model.mla.qk_nope_head_dim + model.mla.qk_rope_head_dim
        k = a
    mlp, _expr = _mlp_elements(model, 1)
    matmuls = [a * d * t_sp // t, k * d * t_sp // t, k * d * t_sp // t, h * t_sp]
    matmuls += [mlp * t_sp // t, mlp * t_sp // t, h * t_sp] if model.gated_mlp else [mlp * t_sp // t, h * t_sp]
    kept = a * d * t_sp // t + sum(matmuls[0::2])
    b_act = saved_bytes(inp)
    residual = residual_bytes(inp)  # the kept layer input is the residual stream (fp32 under autocast, 0.3.33)
    tokens = tokens_per_seq * batch
    scores = 4 * max(1, a // t) * tokens  # fp32 logsumexp of the saved attention output
    outputs = "2ad/{t} + kd/{t} + f/{t} + h" if model.gated_mlp else "2ad/{t} + kd/{t} + f/{t}"
    expression = f"(h + {outputs.format(t=t)})/{t_sp} x {b_act} B"
    if residual != b_act:
        expression = f"(h x {residual} B + ({outputs.format(t=t)}) x {b_act} B)/{t_sp}"
    size = tokens * (h * residual + kept * b_act) // t_sp
    return LayerActivation(size, scores, expression + " + fp32 logsumexp")

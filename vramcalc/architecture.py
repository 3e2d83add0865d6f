"""Parameter counts derived from a :class:`~vramcalc.model.ModelSpec` (transformers only).

Linear layers are listed by role and shape because quantization metadata (group scales, zero points)
depends on each matrix's input width, and LoRA adapters depend on which roles are targeted.
"""

from __future__ import annotations

from dataclasses import dataclass

from .model import ModelKind, ModelSpec

__all__ = ["LinearShape", "ParamCounts", "linear_shapes", "param_counts"]


@dataclass(frozen=True)
class LinearShape:
    """``count`` matrices of ``d_in x d_out`` with the same role.

    Roles: ``q k v o`` (attention), ``gate up down`` (MLP), ``expert`` (routed/shared MoE experts,
    all three projections), ``router``, ``cross`` (decoder cross-attention), ``mla`` (latent projections).
    """

    role: str
    d_in: int
    d_out: int
    count: int

    @property
    def params(self) -> int:
        """Weights in all ``count`` matrices."""
        return self.d_in * self.d_out * self.count


@dataclass(frozen=True)
class ParamCounts:
    """Parameter totals.

    Attributes:
        total: all parameters (``ModelSpec.param_count`` when given).
        linear: parameters in linear layers (what weight quantizers convert).
        embedding: token embedding plus an untied LM head (kept 16-bit by most quantizers).
        other: the rest (norms, biases, position embeddings, routers), never quantized.
        largest_layer: parameters of the largest transformer block or embedding (ZeRO-3/FSDP gather unit).
        per_layer: average parameters of one transformer block.
        largest_block: parameters of the largest transformer block (FSDP's unit when it wraps each block).
    """

    total: int
    linear: int
    embedding: int
    other: int
    largest_layer: int
    per_layer: int
    largest_block: int


def _attention(model: ModelSpec, layers: int) -> list[LinearShape]:
    h, a, k, d = model.hidden_size, model.num_attention_heads, model.kv_heads, model.dim_per_head
    mla = model.mla
    if mla is None:
        return [
            LinearShape("q", h, a * d, layers),
            LinearShape("k", h, k * d, layers),
            LinearShape("v", h, k * d, layers),
            LinearShape("o", a * d, h, layers),
        ]
    qk = mla.qk_nope_head_dim + mla.qk_rope_head_dim
    shapes = [
        LinearShape("kv_a", h, mla.kv_lora_rank + mla.qk_rope_head_dim, layers),
        LinearShape("kv_b", mla.kv_lora_rank, a * (mla.qk_nope_head_dim + mla.v_head_dim), layers),
        LinearShape("o", a * mla.v_head_dim, h, layers),
    ]
    if mla.q_lora_rank:
        shapes += [
            LinearShape("q_a", h, mla.q_lora_rank, layers),
            LinearShape("q", mla.q_lora_rank, a * qk, layers),
        ]
    else:
        shapes.append(LinearShape("q", h, a * qk, layers))
    return shapes


def _mlp(model: ModelSpec, width: int, layers: int, role_prefix: str = "") -> list[LinearShape]:
    h = model.hidden_size
    if layers == 0:
        return []
    shapes = [LinearShape(role_prefix + "up", h, width, layers), LinearShape(role_prefix + "down", width, h, layers)]
    if model.gated_mlp:
        shapes.insert(0, LinearShape(role_prefix + "gate", h, width, layers))
    return shapes


def _mlps(model: ModelSpec, layers: int) -> list[LinearShape]:
    moe = model.moe
    if moe is None:
        return _mlp(model, model.intermediate_size, layers)
    moe_layers = layers - moe.dense_layers
    experts = moe.num_experts + moe.num_shared_experts
    shapes = _mlp(model, model.intermediate_size, moe.dense_layers)
    shapes += _mlp(model, moe.expert_intermediate_size, moe_layers * experts, role_prefix="expert_")
    shapes.append(LinearShape("router", model.hidden_size, moe.num_experts, moe_layers))
    return shapes


def linear_shapes(model: ModelSpec) -> tuple[LinearShape, ...]:
    """All linear matrices of the transformer blocks (not embeddings or the LM head).

    Encoder-decoder models add ``num_decoder_layers`` blocks with an extra cross-attention.
    """
    layers = model.num_layers + model.num_decoder_layers
    shapes = _attention(model, layers) + _mlps(model, layers)
    if model.kind is ModelKind.ENCODER_DECODER:
        h, inner = model.hidden_size, model.num_attention_heads * model.dim_per_head
        dec = model.num_decoder_layers
        shapes += [LinearShape("cross", h, inner, 3 * dec), LinearShape("cross", inner, h, dec)]
    return tuple(shapes)


def _embedding_params(model: ModelSpec) -> int:
    if model.kind is ModelKind.VISION:
        return 3 * model.patch_size**2 * model.hidden_size
    heads = 1 if model.tie_word_embeddings or model.kind is ModelKind.ENCODER else 2
    return heads * model.vocab_size * model.hidden_size


def param_counts(model: ModelSpec) -> ParamCounts:
    """Count parameters of a transformer ``model`` (see :class:`ParamCounts`).

    Norm weights are counted as ``2h`` per block plus ``h``; anything else a real checkpoint holds
    (biases, position embeddings, pooler) appears only through ``ModelSpec.param_count``.
    """
    shapes = linear_shapes(model)
    router = sum(s.params for s in shapes if s.role == "router")
    linear = sum(s.params for s in shapes) - router
    embedding = _embedding_params(model)
    layers = model.total_layers
    norms = (2 * layers + 1) * model.hidden_size
    derived = linear + router + embedding + norms
    total = model.param_count if model.param_count is not None else derived
    other = max(0, total - linear - embedding)
    per_layer = (linear + router + 2 * layers * model.hidden_size) // layers
    one_matrix = embedding if model.kind is ModelKind.VISION else model.vocab_size * model.hidden_size
    block = _largest_block(model, shapes)
    return ParamCounts(total, linear, embedding, other, max(block, one_matrix), per_layer, block)


def _largest_block(model: ModelSpec, shapes: tuple[LinearShape, ...]) -> int:
    """Parameters of the biggest block: a MoE block if any, else the average block."""
    layers = model.total_layers
    dense = sum(s.params for s in shapes) // layers
    moe = model.moe
    if moe is None:
        return dense
    attn = sum(s.params for s in shapes if s.role in ("q", "k", "v", "o", "kv_a", "kv_b", "q_a")) // layers
    experts = moe.num_experts + moe.num_shared_experts
    width = moe.expert_intermediate_size
    per_expert = (3 if model.gated_mlp else 2) * model.hidden_size * width
    return attn + experts * per_expert + model.hidden_size * moe.num_experts

"""KV cache: MHA/GQA/MQA, multi-head latent attention, sliding-window and hybrid layers, KV precision.

Formula (estimator.md §2): ``2 (K and V) x sum over layers of tokens_cached(layer) x k x d x bytes``;
MLA caches one latent of ``kv_lora_rank + qk_rope_head_dim`` per token and layer, without the 2.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..dtypes import KVDType, bytes_for, kv_storage
from ..fmt import num, show
from ..inputs import EstimateInput
from ..model import ModelKind, ModelSpec
from ..options import Engine, Strategy
from ..result import Component
from ..text import joined, text

__all__ = ["KVCache", "kv_cache", "kv_component", "kv_elements_per_token_layer"]


@dataclass(frozen=True)
class KVCache:
    """KV cache on one card.

    Attributes:
        bytes: total for all resident sequences.
        per_token_layer: bytes per token per full-attention layer on this card.
        layers: layers whose cache sits on this card.
        per_sequence: bytes for one sequence at the requested context.
        formula: the arithmetic.
    """

    bytes: int
    per_token_layer: int
    layers: int
    per_sequence: int
    formula: str


def kv_elements_per_token_layer(model: ModelSpec, tensor_parallel: int) -> tuple[int, str]:
    """Elements cached per token per layer on one card, and the expression.

    Under tensor parallelism KV heads are split (``max(1, k/t)`` per card: replicated when ``t > k``);
    the MLA latent is replicated on every rank.
    """
    if model.mla is not None:
        width = model.mla.kv_lora_rank + model.mla.qk_rope_head_dim
        return width, f"MLA latent ({model.mla.kv_lora_rank} + {model.mla.qk_rope_head_dim})"
    k, d = model.kv_heads, model.dim_per_head
    heads = max(1, k // tensor_parallel)
    shown = f"{k}" if heads == k else f"max(1, {k}/{tensor_parallel})"
    return 2 * heads * d, f"2 x {shown} KV heads x {d}"


def _layers_on_card(inp: EstimateInput, layers: int) -> int:
    plan = inp.parallel
    if plan.strategy is Strategy.PIPELINE:
        return -(-layers // plan.data_parallel)
    return layers


def kv_cache(inp: EstimateInput) -> KVCache:
    """KV cache per card for ``concurrent_sequences`` sequences of ``context_tokens`` tokens."""
    model = inp.model
    elements, shown = kv_elements_per_token_layer(model, inp.parallel.tensor_parallel)
    block = kv_storage(inp.precision.kv_cache)
    per_token_layer = bytes_for(elements, *block)
    ctx = inp.context_tokens
    layers = model.num_decoder_layers if model.kind is ModelKind.ENCODER_DECODER else model.num_layers
    card_layers = _layers_on_card(inp, layers)
    sliding = 0
    if model.sliding_window is not None:
        sliding = layers if model.sliding_window_layers is None else model.sliding_window_layers
    card_sliding = sliding * card_layers // layers
    full = card_layers - card_sliding
    tokens = full * ctx + card_sliding * min(ctx, model.sliding_window or ctx)
    expr = f"{full} layers x {num(ctx)} tokens"
    if card_sliding:
        expr += f" + {card_sliding} sliding layers x min({model.sliding_window}, {num(ctx)})"
    dtype = inp.precision.kv_cache.value
    seqs = inp.concurrent_sequences
    cross = card_layers * inp.seq_len if model.kind is ModelKind.ENCODER_DECODER else 0
    cross_expr = f"{card_layers} cross-attention layers x {num(inp.seq_len)} encoder tokens"
    sources = _cross_attention_sources(inp)
    per_sequence = (tokens + cross) * per_token_layer
    if cross and sources < seqs:
        total = tokens * per_token_layer * seqs + cross * per_token_layer * sources
        formula = show(
            f"({expr}) x {shown} x {dtype} ({per_token_layer} B per token-layer) x {seqs} seqs"
            f" + ({cross_expr}) x {shown} x {dtype} x {sources} seqs",
            total,
        )
        return KVCache(total, per_token_layer, card_layers, per_sequence, formula)
    if cross:
        expr += f" + {cross_expr}"
    total = per_sequence * seqs
    formula = show(f"({expr}) x {shown} x {dtype} ({per_token_layer} B per token-layer) x {seqs} seqs", total)
    return KVCache(total, per_token_layer, card_layers, per_sequence, formula)


def _cross_attention_sources(inp: EstimateInput) -> int:
    """Inputs whose cross-attention K/V an encoder-decoder keeps.

    transformers' generate expands the encoder output to every beam before decoding, so each resident sequence
    projects and caches its own cross-attention keys and values. CTranslate2's beam search replicates the decoder
    state over the beam except the projected memory ("No need to replicate projected memory keys and values as they
    are the same for each beam", ``TransformerDecoder::replicate_state``), so it keeps them once per input of the
    batch (decision 0568).
    """
    if inp.runtime.engine is Engine.CTRANSLATE2:
        return min(inp.batch_size, inp.concurrent_sequences)
    return inp.concurrent_sequences


def kv_component(inp: EstimateInput, kv: KVCache) -> Component:
    """The ``kv_cache`` line."""
    kind = "MLA" if inp.model.mla is not None else _attention_kind(inp.model)
    return Component(
        key="kv_cache",
        label="KV cache",
        bytes=kv.bytes,
        formula=kv.formula,
        assumption=joined(text("kv.assumption", kind=kind), text("kv.blocks"))
        if inp.precision.kv_cache in (KVDType.Q8_0, KVDType.Q4_0)
        else text("kv.assumption", kind=kind),
        phases=("serving",),
    )


def _attention_kind(model: ModelSpec) -> str:
    if model.kv_heads == model.num_attention_heads:
        return "MHA"
    return "MQA" if model.kv_heads == 1 else "GQA"

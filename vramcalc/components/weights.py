"""Weights of a transformer model: whole-model bytes by part, then per card under the plan."""

from __future__ import annotations

from dataclasses import dataclass

from ..architecture import LinearShape, linear_shapes, param_counts
from ..dtypes import bytes_for, dtype_bytes
from ..fmt import num, show
from ..inputs import EstimateInput
from ..model import ModelSpec
from ..options import Quantization, QuantMethod, Strategy
from ..quant import GGUF_BLOCKS, linear_bytes, quantized_role_bytes, storage_note
from ..result import Component
from ..text import text

__all__ = [
    "WeightBytes",
    "dense_bytes",
    "gguf_token_embedding",
    "model_weight_bytes",
    "per_card_weights",
    "weights_component",
]


@dataclass(frozen=True)
class WeightBytes:
    """Whole-model weight bytes split by how they are divided under tensor/pipeline parallelism.

    Attributes:
        linear: transformer-block linear layers (split by TP, by PP stage).
        embedding: token embedding and LM head (vocab-parallel under TP).
        other: norms, biases, routers, position embeddings (replicated under TP).
        note: storage assumption.
    """

    linear: int
    embedding: int
    other: int
    note: str

    @property
    def total(self) -> int:
        """All weight bytes of the model."""
        return self.linear + self.embedding + self.other


def _gguf_base_type(quant: Quantization) -> str:
    """A GGUF mix's base type (``q4_k_m`` -> ``q4_k``); a plain type is its own."""
    return quant.gguf_type.split("_m")[0] if quant.gguf_type.endswith("_m") else quant.gguf_type


def _gguf_vocab_matrix(model: ModelSpec, gguf_type: str) -> int:
    """The bytes of one vocabulary x hidden matrix (token embedding or LM head) stored as ``gguf_type``."""
    return bytes_for(model.vocab_size * model.hidden_size, *GGUF_BLOCKS[gguf_type])


def gguf_token_embedding(model: ModelSpec, quant: Quantization) -> int:
    """The GGUF token embedding's bytes, stored in the mix's base type."""
    return _gguf_vocab_matrix(model, _gguf_base_type(quant))


def _gguf_embedding(model: ModelSpec, quant: Quantization) -> int:
    token = gguf_token_embedding(model, quant)
    if model.tie_word_embeddings:
        return token
    head_type = "q6_k" if quant.gguf_type.endswith("_m") else _gguf_base_type(quant)
    return token + _gguf_vocab_matrix(model, head_type)


def model_weight_bytes(model: ModelSpec, dense: int, quant: Quantization) -> WeightBytes:
    """Whole-model weight bytes of ``model`` stored with ``dense`` bytes per weight or ``quant``.

    Quantizers convert only the linear layers; embeddings, LM head, norms and routers stay 16-bit
    (GGUF quantizes the embeddings too). A pre-quantized checkpoint's header bytes are used as-is.
    """
    counts = param_counts(model)
    if model.checkpoint_prequantized and model.checkpoint_bytes is not None:
        return WeightBytes(model.checkpoint_bytes, 0, 0, "exact bytes from the checkpoint header")
    if quant.method is QuantMethod.NONE:
        return WeightBytes(
            counts.linear * dense, counts.embedding * dense, counts.other * dense, f"{dense} B per parameter"
        )
    linear = quantized_role_bytes(linear_shapes(model), quant, dense)
    embedding = _gguf_embedding(model, quant) if quant.method is QuantMethod.GGUF else counts.embedding * dense
    note = f"{storage_note(quant)}; embeddings/LM head, norms and routers {dense}-byte"
    return WeightBytes(linear, embedding, counts.other * dense, note)


def per_card_weights(inp: EstimateInput, weights: WeightBytes) -> tuple[int, str]:
    """Weights on the busiest card under tensor or pipeline parallelism (before ZeRO-3 sharding).

    TP splits block linears and the vocab-parallel embedding/LM head by ``t`` and replicates the rest;
    a pipeline stage holds ``ceil(L/p)`` blocks plus the larger of embedding and LM head.
    """
    plan = inp.parallel
    t = plan.tensor_parallel
    if plan.strategy is Strategy.PIPELINE:
        p = plan.data_parallel
        layers = inp.model.total_layers
        stage_layers = -(-layers // p)
        per_layer = weights.linear + weights.other
        stage = per_layer * stage_layers // layers + weights.embedding // (1 if inp.model.tie_word_embeddings else 2)
        return stage, f"ceil({layers}/{p}) of {layers} blocks + embedding on the first stage"
    stages = plan.pipeline_parallel
    if stages > 1:
        layers = inp.model.total_layers
        share = -(-layers // stages)
        head = weights.embedding // (1 if inp.model.tie_word_embeddings else 2)
        stage = (weights.linear * share // layers + head) // t + weights.other * share // layers
        return stage, f"ceil({layers}/{stages}) of {layers} blocks + embedding on the first stage, / {t}"
    if t == 1:
        return weights.total, "whole model"
    split = (weights.linear + weights.embedding) // t + weights.other
    return split, f"(linear + embedding)/{t} + replicated norms/biases"


def weights_component(
    inp: EstimateInput, weights: WeightBytes, card_bytes: int, phases: tuple[str, ...], host_bytes: int = 0
) -> Component:
    """The ``weights`` line for ``card_bytes`` bytes already divided for this card, ``host_bytes`` of the card's
    share kept in host memory instead (llama.cpp's token embedding, :func:`vramcalc.infer.host_token_embedding`)."""
    counts = param_counts(inp.model)
    frozen = " (frozen base)" if inp.workload.is_adapter else ""
    formula = show(f"{num(counts.total)} params: {weights.note}", weights.total)
    on_card = card_bytes - host_bytes
    where = "per card" if inp.parallel.cards > 1 else "on the card"
    if host_bytes:
        formula += f"; {where} {on_card:,} B (token embedding on the host)"
    elif card_bytes != weights.total:
        formula += f"; per card {card_bytes:,} B"
    return Component(
        key="weights",
        label="Weights" + frozen,
        bytes=on_card,
        formula=formula,
        assumption=text("weights.resident_but_embedding" if host_bytes else "weights.resident"),
        phases=phases,
    )


# bitsandbytes quantizes while transformers loads the model: it replaces every ``nn.Linear`` outside the modules it
# is told to skip (by default only the output head), so a vision-language model's vision tower and projector are
# quantized with the language model (transformers issue #28435: no way to keep a LLaVA's or BLIP-2's image encoder in
# 16 bit under ``load_in_8bit``). Checkpoints quantized beforehand (GPTQ, AWQ, GGUF …) quantize the language model only.
_QUANTIZED_AT_LOAD = (QuantMethod.BNB_NF4, QuantMethod.BNB_INT8)


def vision_encoder_component(inp: EstimateInput, phases: tuple[str, ...]) -> Component | None:
    """A vision-language model's vision tower and projector (not split by tensor parallelism): in the weights dtype,
    or stored as bitsandbytes stores a linear when it quantizes the model at load (its linears hold nearly all of
    a vision transformer's parameters; decision 0535)."""
    params = inp.model.vision_encoder_params
    if not params:
        return None
    quant = inp.quantization
    if quant.method in _QUANTIZED_AT_LOAD:
        size = linear_bytes(LinearShape("vision", params, 1, 1), quant, dense_bytes(inp))
        formula, note = f"{num(params)} params: {storage_note(quant)}", "weights.vision_quantized"
    else:
        size = params * dense_bytes(inp)
        formula, note = f"{num(params)} params x {dense_bytes(inp)} B", "weights.vision"
    return Component(
        key="vision_encoder_weights",
        label="Vision encoder + projector weights",
        bytes=size,
        formula=show(formula, size),
        assumption=text(note, tokens=inp.model.image_tokens),
        phases=phases,
    )


def dense_bytes(inp: EstimateInput) -> int:
    """Bytes per unquantized weight: ``precision.weights``."""
    return dtype_bytes(inp.precision.weights)

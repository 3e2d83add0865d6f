"""Build a :class:`~vramcalc.model.ModelSpec` from a pasted Hugging Face ``config.json``.

Field names differ between model families (``n_layer``/``num_hidden_layers``, ``n_embd``/``hidden_size``
…); the first present alias wins. Vision-language configs use their ``text_config``. Nothing is
downloaded: the caller passes the parsed JSON.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from .errors import InvalidInput
from .model import MLASpec, ModelKind, ModelSpec, MoESpec
from .options import Quantization, QuantMethod

__all__ = ["model_from_hf_config", "parse_hf_config", "quantization_from_hf_config"]

_ENCODERS = ("bert", "roberta", "deberta", "deberta-v2", "distilbert", "electra", "xlm-roberta", "modernbert")
_ENCODER_DECODERS = ("t5", "mt5", "umt5", "bart", "mbart", "pegasus")
_VISION = ("vit", "deit", "beit", "dinov2", "siglip_vision_model", "clip_vision_model")
_UNGATED = ("gpt2", "gptj", "gpt_neox", "opt", "gpt_bigcode", "falcon", "bloom", "phi", "starcoder2", "vit", "t5")
_TIED_BY_DEFAULT = ("gpt2", "gpt_bigcode", "opt", "t5", "gemma", "gemma2", "gemma3_text", "bloom")

_ALIASES = {
    "num_layers": ("num_hidden_layers", "n_layer", "num_layers"),
    "hidden_size": ("hidden_size", "n_embd", "d_model"),
    "num_attention_heads": ("num_attention_heads", "n_head", "num_heads"),
    "intermediate_size": ("intermediate_size", "n_inner", "d_ff", "ffn_dim"),
}


def parse_hf_config(text: str) -> dict[str, Any]:
    """Parse pasted ``config.json`` text.

    Raises:
        InvalidInput: not JSON or not an object (field ``config``).
    """
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidInput("config", f"not valid JSON ({exc.msg} at line {exc.lineno})") from None
    if not isinstance(data, dict):
        raise InvalidInput("config", "must be a JSON object")
    return data


def _pick(config: Mapping[str, Any], key: str, default: int | None = None) -> int:
    for alias in _ALIASES[key]:
        value = config.get(alias)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    if default is not None:
        return default
    raise InvalidInput(f"config.{_ALIASES[key][0]}", "missing or not an integer")


def _kind(model_type: str) -> ModelKind:
    if model_type in _ENCODERS:
        return ModelKind.ENCODER
    if model_type in _ENCODER_DECODERS:
        return ModelKind.ENCODER_DECODER
    if model_type in _VISION:
        return ModelKind.VISION
    return ModelKind.DECODER


def _kv_heads(config: Mapping[str, Any], heads: int) -> int:
    if config.get("multi_query") is True:
        return 1
    value = config.get("num_key_value_heads", config.get("num_kv_heads"))
    return value if isinstance(value, int) and value > 0 else heads


def _sliding(config: Mapping[str, Any], layers: int, model_type: str) -> tuple[int | None, int | None]:
    window = config.get("sliding_window")
    if not isinstance(window, int) or config.get("use_sliding_window") is False:
        return None, None
    layer_types = config.get("layer_types")
    if isinstance(layer_types, list):
        return window, sum(1 for t in layer_types if t == "sliding_attention")
    pattern = config.get("sliding_window_pattern")
    if isinstance(pattern, int) and pattern > 1:
        return window, layers - layers // pattern
    if model_type == "gemma2":
        return window, layers // 2
    return window, None


def _moe(config: Mapping[str, Any], intermediate: int) -> MoESpec | None:
    experts = config.get("num_local_experts", config.get("n_routed_experts", config.get("num_experts")))
    if not isinstance(experts, int) or experts <= 1:
        return None
    return MoESpec(
        num_experts=experts,
        experts_per_token=int(config.get("num_experts_per_tok", config.get("experts_per_token", 2))),
        expert_intermediate_size=int(config.get("moe_intermediate_size") or intermediate),
        num_shared_experts=int(config.get("n_shared_experts") or 0),
        dense_layers=int(config.get("first_k_dense_replace") or 0),
    )


def _mla(config: Mapping[str, Any]) -> MLASpec | None:
    rank = config.get("kv_lora_rank")
    if not isinstance(rank, int):
        return None
    return MLASpec(
        kv_lora_rank=rank,
        qk_rope_head_dim=int(config["qk_rope_head_dim"]),
        qk_nope_head_dim=int(config["qk_nope_head_dim"]),
        v_head_dim=int(config["v_head_dim"]),
        q_lora_rank=int(config.get("q_lora_rank") or 0),
    )


def model_from_hf_config(config: Mapping[str, Any], name: str | None = None) -> ModelSpec:
    """A :class:`ModelSpec` from a parsed ``config.json``.

    Args:
        config: the parsed JSON (VLM configs: ``text_config`` is used).
        name: display name; defaults to ``_name_or_path`` or the model type.

    Raises:
        InvalidInput: a required field is missing or inconsistent (``config.<field>``, or ``config``).
    """
    try:
        return _build(config, name)
    except InvalidInput:
        raise
    except (KeyError, TypeError, ValueError) as exc:
        raise InvalidInput("config", f"incomplete or inconsistent config ({exc!r})") from None


def _build(config: Mapping[str, Any], name: str | None) -> ModelSpec:
    text = config.get("text_config")
    if isinstance(text, Mapping) and "num_hidden_layers" not in config:
        config = {**text, "_name_or_path": config.get("_name_or_path")}
    model_type = str(config.get("model_type", "")).lower()
    layers = _pick(config, "num_layers")
    hidden = _pick(config, "hidden_size")
    heads = _pick(config, "num_attention_heads")
    intermediate = _pick(config, "intermediate_size", default=4 * hidden)
    kind = _kind(model_type)
    window, window_layers = _sliding(config, layers, model_type)
    ff_proj = str(config.get("feed_forward_proj", ""))
    gated = model_type not in _UNGATED or ff_proj.startswith("gated")
    head_dim = config.get("head_dim") if isinstance(config.get("head_dim"), int) else None
    if model_type in _ENCODER_DECODERS and isinstance(config.get("d_kv"), int):
        head_dim = config["d_kv"]
    tied = config.get("tie_word_embeddings", model_type in _TIED_BY_DEFAULT)
    label = name or str(config.get("_name_or_path") or model_type or "custom model")
    return ModelSpec(
        name=label,
        kind=kind,
        num_layers=layers,
        hidden_size=hidden,
        num_attention_heads=heads,
        num_kv_heads=_kv_heads(config, heads),
        head_dim=head_dim,
        intermediate_size=intermediate,
        vocab_size=int(config.get("vocab_size") or 0),
        gated_mlp=gated,
        tie_word_embeddings=bool(tied),
        num_decoder_layers=int(config.get("num_decoder_layers") or layers) if kind is ModelKind.ENCODER_DECODER else 0,
        sliding_window=window,
        sliding_window_layers=window_layers,
        moe=_moe(config, intermediate),
        mla=_mla(config),
        image_size=int(config.get("image_size") or 0),
        patch_size=int(config.get("patch_size") or 0),
        dropout=float(config.get("hidden_dropout_prob") or config.get("dropout_rate") or 0) > 0,
        relative_position_bias=bool(
            config.get("use_relative_position_bias") or config.get("use_shared_relative_position_bias")
        ),
    )


def quantization_from_hf_config(config: Mapping[str, Any]) -> Quantization:
    """The weight quantization a ``quantization_config`` block declares (``none`` if absent)."""
    block = config.get("quantization_config")
    if not isinstance(block, Mapping):
        return Quantization()
    method = str(block.get("quant_method", "")).lower()
    if method in ("gptq", "awq"):
        group = block.get("group_size", 128)
        return Quantization(
            method=QuantMethod(method),
            bits=int(block.get("bits", 4)),
            group_size=group if isinstance(group, int) and group > 0 else None,
        )
    if method == "bitsandbytes":
        if block.get("load_in_8bit"):
            return Quantization(method=QuantMethod.BNB_INT8)
        return Quantization(method=QuantMethod.BNB_NF4, double_quant=bool(block.get("bnb_4bit_use_double_quant")))
    simple = {"fp8": QuantMethod.FP8, "fbgemm_fp8": QuantMethod.FP8, "mxfp4": QuantMethod.MXFP4}
    if method in simple:
        return Quantization(method=simple[method])
    raise InvalidInput("config.quantization_config.quant_method", f"unsupported method {method!r}")

"""Pasted Hugging Face config.json files become ModelSpecs."""

from __future__ import annotations

import json
from typing import Any

import pytest

from vramcalc import InvalidInput, ModelKind, QuantMethod
from vramcalc.architecture import param_counts
from vramcalc.hf_config import model_from_hf_config, parse_hf_config, quantization_from_hf_config

LLAMA_31_8B = {
    "_name_or_path": "meta-llama/Llama-3.1-8B",
    "architectures": ["LlamaForCausalLM"],
    "model_type": "llama",
    "hidden_size": 4096,
    "intermediate_size": 14336,
    "num_attention_heads": 32,
    "num_hidden_layers": 32,
    "num_key_value_heads": 8,
    "vocab_size": 128256,
    "tie_word_embeddings": False,
    "torch_dtype": "bfloat16",
}


def test_llama_config_reproduces_parameter_count() -> None:
    model = model_from_hf_config(parse_hf_config(json.dumps(LLAMA_31_8B)))
    assert model.name == "meta-llama/Llama-3.1-8B"
    assert model.kv_heads == 8
    assert model.gated_mlp
    assert param_counts(model).total == 8_030_261_248


def test_gpt2_aliases_and_default_tied_embeddings() -> None:
    config = {"model_type": "gpt2", "n_layer": 48, "n_embd": 1600, "n_head": 25, "vocab_size": 50257}
    model = model_from_hf_config(config, name="gpt2-xl")
    assert (model.num_layers, model.hidden_size, model.intermediate_size) == (48, 1600, 6400)
    assert model.tie_word_embeddings
    assert not model.gated_mlp


def test_multi_query_and_bert_and_vit_kinds() -> None:
    bigcode = {
        "model_type": "gpt_bigcode",
        "n_layer": 2,
        "n_embd": 256,
        "n_head": 8,
        "multi_query": True,
        "vocab_size": 100,
    }
    assert model_from_hf_config(bigcode).kv_heads == 1
    bert = {
        "model_type": "bert",
        "num_hidden_layers": 2,
        "hidden_size": 64,
        "num_attention_heads": 4,
        "intermediate_size": 256,
        "vocab_size": 100,
        "hidden_dropout_prob": 0.1,
    }
    encoder = model_from_hf_config(bert)
    assert encoder.kind is ModelKind.ENCODER
    assert encoder.dropout
    vit = {
        "model_type": "vit",
        "num_hidden_layers": 2,
        "hidden_size": 64,
        "num_attention_heads": 4,
        "intermediate_size": 256,
        "image_size": 224,
        "patch_size": 16,
    }
    assert model_from_hf_config(vit).kind is ModelKind.VISION


def test_t5_encoder_decoder_with_gated_ff() -> None:
    config = {
        "model_type": "t5",
        "num_layers": 24,
        "num_decoder_layers": 24,
        "d_model": 2048,
        "num_heads": 32,
        "d_kv": 64,
        "d_ff": 5120,
        "vocab_size": 32128,
        "feed_forward_proj": "gated-gelu",
        "tie_word_embeddings": False,
    }
    model = model_from_hf_config(config)
    assert model.kind is ModelKind.ENCODER_DECODER
    assert model.gated_mlp
    assert model.dim_per_head == 64
    assert abs(param_counts(model).total - 2_849_757_184) / 2_849_757_184 < 1e-4


@pytest.mark.parametrize(
    ("extra", "window", "sliding_layers"),
    [
        ({"model_type": "mistral", "sliding_window": 4096}, 4096, None),
        ({"model_type": "qwen2", "sliding_window": 4096, "use_sliding_window": False}, None, None),
        ({"model_type": "gemma2", "sliding_window": 4096}, 4096, 21),
        ({"model_type": "gemma3_text", "sliding_window": 1024, "sliding_window_pattern": 6}, 1024, 35),
        (
            {
                "model_type": "gpt_oss",
                "sliding_window": 128,
                "layer_types": ["sliding_attention", "full_attention"] * 21,
            },
            128,
            21,
        ),
    ],
)
def test_sliding_window_layer_counts(extra: dict[str, Any], window: int | None, sliding_layers: int | None) -> None:
    config = {
        "num_hidden_layers": 42,
        "hidden_size": 1024,
        "num_attention_heads": 8,
        "intermediate_size": 4096,
        "vocab_size": 1000,
        **extra,
    }
    model = model_from_hf_config(config)
    assert model.sliding_window == window
    assert model.sliding_window_layers == sliding_layers


def test_deepseek_mla_and_moe() -> None:
    config = {
        "model_type": "deepseek_v3",
        "num_hidden_layers": 61,
        "hidden_size": 7168,
        "num_attention_heads": 128,
        "num_key_value_heads": 128,
        "intermediate_size": 18432,
        "moe_intermediate_size": 2048,
        "n_routed_experts": 256,
        "n_shared_experts": 1,
        "num_experts_per_tok": 8,
        "first_k_dense_replace": 3,
        "kv_lora_rank": 512,
        "q_lora_rank": 1536,
        "qk_rope_head_dim": 64,
        "qk_nope_head_dim": 128,
        "v_head_dim": 128,
        "vocab_size": 129280,
    }
    model = model_from_hf_config(config)
    assert model.mla is not None
    assert model.mla.kv_lora_rank == 512
    assert model.moe is not None
    assert (model.moe.num_experts, model.moe.dense_layers) == (256, 3)
    assert abs(param_counts(model).total - 671_026_419_200) / 671e9 < 1e-3


def test_mixtral_moe_uses_intermediate_size_for_experts() -> None:
    config = {
        "model_type": "mixtral",
        "num_hidden_layers": 32,
        "hidden_size": 4096,
        "num_attention_heads": 32,
        "num_key_value_heads": 8,
        "intermediate_size": 14336,
        "num_local_experts": 8,
        "num_experts_per_tok": 2,
        "vocab_size": 32000,
    }
    model = model_from_hf_config(config)
    assert model.moe is not None
    assert model.moe.expert_intermediate_size == 14336


def test_vlm_uses_text_config() -> None:
    config = {"model_type": "llava", "_name_or_path": "llava", "text_config": LLAMA_31_8B}
    model = model_from_hf_config(config)
    assert model.name == "llava"
    assert model.num_layers == 32


@pytest.mark.parametrize(
    ("block", "method", "bits", "group", "double"),
    [
        ({"quant_method": "gptq", "bits": 4, "group_size": 128}, QuantMethod.GPTQ, 4, 128, False),
        ({"quant_method": "awq", "bits": 4, "group_size": -1}, QuantMethod.AWQ, 4, None, False),
        ({"quant_method": "bitsandbytes", "load_in_8bit": True}, QuantMethod.BNB_INT8, 4, 128, False),
        (
            {"quant_method": "bitsandbytes", "load_in_4bit": True, "bnb_4bit_use_double_quant": True},
            QuantMethod.BNB_NF4,
            4,
            128,
            True,
        ),
        ({"quant_method": "fp8"}, QuantMethod.FP8, 4, 128, False),
        ({"quant_method": "mxfp4"}, QuantMethod.MXFP4, 4, 128, False),
    ],
)
def test_quantization_config_blocks(
    block: dict[str, Any], method: QuantMethod, bits: int, group: int | None, double: bool
) -> None:
    quant = quantization_from_hf_config({"quantization_config": block})
    assert (quant.method, quant.bits, quant.group_size, quant.double_quant) == (method, bits, group, double)


def test_quantization_absent_or_unsupported() -> None:
    assert quantization_from_hf_config({}).method is QuantMethod.NONE
    with pytest.raises(InvalidInput) as info:
        quantization_from_hf_config({"quantization_config": {"quant_method": "hqq"}})
    assert info.value.field == "config.quantization_config.quant_method"


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("{not json", "config"),
        ("[1, 2]", "config"),
        ('{"model_type": "llama"}', "config.num_hidden_layers"),
        ('{"num_hidden_layers": 2, "hidden_size": 64, "num_attention_heads": "8"}', "config.num_attention_heads"),
    ],
)
def test_bad_configs_name_the_field(text: str, field: str) -> None:
    with pytest.raises(InvalidInput) as info:
        model_from_hf_config(parse_hf_config(text))
    assert info.value.field == field


def test_incomplete_mla_block_is_reported() -> None:
    config = {"num_hidden_layers": 2, "hidden_size": 64, "num_attention_heads": 4, "vocab_size": 10, "kv_lora_rank": 16}
    with pytest.raises(InvalidInput) as info:
        model_from_hf_config(config)
    assert info.value.field == "config"


def test_beit_reads_its_relative_position_bias() -> None:
    """Engine 0.3.14: BEiT's config says whether every layer builds a relative position bias (per-layer tables or
    one shared table); a ViT's has no such key."""
    beit = {
        "model_type": "beit",
        "num_hidden_layers": 12,
        "hidden_size": 768,
        "num_attention_heads": 12,
        "intermediate_size": 3072,
        "image_size": 224,
        "patch_size": 16,
        "use_relative_position_bias": True,
        "use_shared_relative_position_bias": False,
    }
    assert model_from_hf_config(beit).relative_position_bias
    shared = {**beit, "use_relative_position_bias": False, "use_shared_relative_position_bias": True}
    assert model_from_hf_config(shared).relative_position_bias
    plain = {k: v for k, v in beit.items() if "relative" not in k}
    assert not model_from_hf_config({**plain, "model_type": "vit"}).relative_position_bias

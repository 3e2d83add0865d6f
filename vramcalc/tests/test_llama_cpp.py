"""llama.cpp: the compute buffer it reserves for a micro-batch of n_ubatch tokens, the token embedding on the host
(engine 0.3.30, decision 0580)."""

from __future__ import annotations

from typing import Any

from vramcalc import estimate
from vramcalc.components.weights import gguf_token_embedding
from vramcalc.infer import LLAMA_CPP_UBATCH, host_token_embedding
from vramcalc.serialize import inputs_from_dict
from vramcalc.text import Text
from vramcalc.units import MIB


def _llama_cpp(model: str = "qwen3-8b", **over: Any) -> dict[str, Any]:
    return {
        "model": model,
        "workload": "inference",
        "quantization": {"method": "gguf", "gguf_type": "q4_k_m"},
        "seq_len": 2750,
        "context_len": 8192,
        "flash_attention": False,
        "runtime": {"engine": "llama_cpp"},
        **over,
    }


def test_without_flash_attention_the_scores_of_a_micro_batch_over_the_whole_cache_set_the_buffer() -> None:
    inp = inputs_from_dict(_llama_cpp())
    work = estimate(inp).component("workspace")
    assert work is not None
    m = inp.model
    layer = LLAMA_CPP_UBATCH * (2 * m.hidden_size + 3 * m.intermediate_size) * 4
    scores = m.num_attention_heads * LLAMA_CPP_UBATCH * 8192 * 4
    assert work.bytes == layer + scores
    assert work.bytes == 600 * MIB  # Qwen3-8B: 88 MiB of intermediates and 512 MiB of fp32 scores
    assert "32 heads x 512 x 8,192 scores x 4 B" in work.formula
    assert work.assumption.startswith("llama.cpp reserves its compute buffer when the context is created")
    # the prompt's length does not move it: the buffer is reserved for n_ubatch tokens when the context is created
    short = estimate(inputs_from_dict(_llama_cpp(seq_len=20))).component("workspace")
    assert short is not None
    assert short.bytes == work.bytes


def test_with_flash_attention_or_a_short_context_the_logits_of_the_micro_batch_set_it() -> None:
    flash = estimate(inputs_from_dict(_llama_cpp(flash_attention=True))).component("workspace")
    assert flash is not None
    assert flash.bytes == LLAMA_CPP_UBATCH * (4096 + 151_936) * 4
    # a context shorter than n_ubatch: as many tokens as the context, padded to 256 cells
    small = inputs_from_dict(_llama_cpp(model="llama-3.2-3b", seq_len=12, context_len=300))
    work = estimate(small).component("workspace")
    assert work is not None
    assert work.bytes == 512 * (small.model.hidden_size + small.model.vocab_size) * 4
    assert "512 tokens x (h + 128,256 vocab) x 4 B" in work.formula


def test_ggml_allocates_its_buffers_whole_so_no_allocator_slack_and_no_logits_line_on_the_card() -> None:
    # Decision 0582: the compute buffer is reserved once by ggml-backend, not churned through PyTorch's caching
    # allocator; the logits are the graph's output inside it, copied to a host buffer (output_reserve).
    served = estimate(inputs_from_dict(_llama_cpp()))
    work = served.component("workspace")
    assert work is not None
    assert not work.dynamic
    assert served.component("logits") is None
    assert served.component("fragmentation") is None
    assert served.peak_reserved_bytes == served.peak_allocated_bytes
    assert "expandable_segments" not in {n.key for n in served.not_modelled}
    # the same model under transformers keeps its logits line and the allocator's slack
    same = estimate(inputs_from_dict(_llama_cpp(runtime={"engine": "transformers"}, quantization={})))
    assert same.component("logits") is not None
    assert same.bytes_of("fragmentation") > 0


def test_an_untied_models_token_embedding_stays_on_the_host() -> None:
    inp = inputs_from_dict(_llama_cpp())
    host = host_token_embedding(inp)
    assert host == gguf_token_embedding(inp.model, inp.quantization) > 300 * MIB
    served = estimate(inp)
    weights = served.component("weights")
    assert weights is not None
    assert f"; on the card {weights.bytes:,} B (token embedding on the host)" in weights.formula
    assert "per card" not in weights.formula
    assert isinstance(weights.assumption, Text)
    assert weights.assumption.key == "weights.resident_but_embedding"  # says what the formula does
    same = estimate(inputs_from_dict(_llama_cpp(runtime={"engine": "transformers"})))
    assert same.bytes_of("weights") == served.bytes_of("weights") + host
    # a tied model loads the embedding again for its output layer: one vocabulary matrix on the card either way
    tied = inputs_from_dict(_llama_cpp(model="llama-3.2-3b"))
    assert host_token_embedding(tied) == 0
    tied_weights = estimate(tied).component("weights")
    assert tied_weights is not None
    assert "on the host" not in tied_weights.formula
    assert isinstance(tied_weights.assumption, Text)
    assert tied_weights.assumption.key == "weights.resident"
    # not llama.cpp, not GGUF: nothing moves
    assert host_token_embedding(inputs_from_dict(_llama_cpp(runtime={"engine": "vllm"}))) == 0
    plain = _llama_cpp(quantization={"method": "none"})
    assert host_token_embedding(inputs_from_dict(plain)) == 0


def test_an_encoder_under_llama_cpp_has_no_vocabulary_logits_to_reserve() -> None:
    inp = inputs_from_dict(_llama_cpp(model="bert-base-cased", seq_len=128, context_len=512, quantization={}))
    assert host_token_embedding(inp) == 0
    work = estimate(inp).component("workspace")
    assert work is not None
    assert "(h + 0 vocab)" in work.formula


def test_the_token_embedding_leaves_every_card_of_a_split() -> None:
    # Decision 0582: llama.cpp assigns the input layer to the CPU apart from the layers' split (dev_input), so under
    # tensor parallelism each card's share of it leaves; a pipeline stage's vocabulary matrix is the LM head, kept.
    host = host_token_embedding(inputs_from_dict(_llama_cpp()))
    split = _llama_cpp(parallel={"cards": 2, "tensor_parallel": 2})
    weights = estimate(inputs_from_dict(split)).component("weights")
    assert weights is not None
    plain = estimate(inputs_from_dict({**split, "runtime": {"engine": "transformers"}})).component("weights")
    assert plain is not None
    assert weights.bytes == plain.bytes - host // 2
    assert f"; per card {weights.bytes:,} B (token embedding on the host)" in weights.formula
    staged = _llama_cpp(parallel={"cards": 2, "strategy": "pipeline"})
    stage = estimate(inputs_from_dict(staged)).component("weights")
    kept = estimate(inputs_from_dict({**staged, "runtime": {"engine": "transformers"}})).component("weights")
    assert stage is not None
    assert kept is not None
    assert stage.bytes == kept.bytes
    assert "on the host" not in stage.formula

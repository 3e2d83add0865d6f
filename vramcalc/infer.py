"""Components of LLM / encoder inference and serving on one card (single phase ``serving``)."""

from __future__ import annotations

import dataclasses

from .architecture import linear_shapes, param_counts
from .components.activations import autocast_upcasts, compute_bytes, sequence_tokens
from .components.kv import KVCache, kv_cache, kv_component
from .components.weights import (
    dense_bytes,
    gguf_token_embedding,
    model_weight_bytes,
    per_card_weights,
    vision_encoder_component,
    weights_component,
)
from .fmt import num, show
from .inputs import EstimateInput
from .model import ModelSpec
from .options import Engine, QuantMethod, Strategy
from .result import Component
from .text import text
from .units import MIB

__all__ = [
    "LLAMA_CPP_UBATCH",
    "SERVING",
    "autocast_copies_component",
    "eager_score_bytes",
    "host_token_embedding",
    "inference_components",
    "prefill_workspace",
    "vision_mask_bytes",
    "vision_mask_component",
]

SERVING = "serving"
PHASES = (SERVING,)
# llama.cpp's default micro-batch (``llama_context_default_params``: ``n_ubatch`` 512; llama-cpp-python's
# ``Llama(n_ubatch=512)``): the tokens of the worst-case graph its compute buffer is reserved for (decision 0580).
LLAMA_CPP_UBATCH = 512
# llama.cpp pads the context to a multiple of 256 cells (``cparams.n_ctx = GGML_PAD(cparams.n_ctx, 256)``).
LLAMA_CPP_CTX_PAD = 256


def decodes_with_transformers(inp: EstimateInput) -> bool:
    """Generation with transformers that reaches a decoding step with a previous cache: the prefill makes the first
    new token, so such a step comes only from the second new token on."""
    return inp.runtime.engine is Engine.TRANSFORMERS and inp.context_tokens > sequence_tokens(inp) + 1


def holds_previous_cache(inp: EstimateInput) -> bool:
    """Generation with transformers that decodes with a tuple cache (``runtime.tuple_kv_cache``): the previous
    step's cache is alive while the next one is built."""
    return inp.runtime.tuple_kv_cache and decodes_with_transformers(inp)


def inference_components(inp: EstimateInput) -> tuple[list[Component], KVCache | None]:
    """Weights, KV cache, prefill working set and logits on the busiest card."""
    weights = model_weight_bytes(inp.model, dense_bytes(inp), inp.quantization)
    card, _how = per_card_weights(inp, weights)
    comps = [weights_component(inp, weights, card, PHASES, _host_share(inp, host_token_embedding(inp)))]
    vision = vision_encoder_component(inp, PHASES)
    if vision is not None:
        comps.append(vision)
        mask = vision_mask_component(inp)
        if mask is not None:
            comps.append(mask)
    kv = kv_cache(inp) if inp.model.has_kv_cache else None
    if kv is not None:
        comps.append(kv_component(inp, kv))
        if holds_previous_cache(inp):
            comps.append(
                Component(
                    "previous_kv_cache",
                    "Previous step's KV cache",
                    kv.bytes,
                    kv.formula,
                    text("infer.tuple_kv_cache"),
                    PHASES,
                    dynamic=True,
                )
            )
        if inp.runtime.kept_generate_output and inp.runtime.engine is Engine.TRANSFORMERS:
            comps.append(
                Component(
                    "kept_output_kv_cache",
                    "KV cache of a kept generate output",
                    kv.bytes,
                    kv.formula,
                    text("infer.kept_generate_output"),
                    PHASES,
                )
            )
    workspace = prefill_workspace(inp)
    comps.append(workspace)
    copies = autocast_copies_component(inp)
    if copies is not None:
        comps.append(copies)
    # llama.cpp computes the logits inside its compute buffer (the graph's output, counted there) and copies them to
    # its output buffer, which it allocates in host memory (``output_reserve``: the CPU buffer type, or the output
    # device's host buffer type for faster transfer to system memory): nothing of them is a card's own line.
    if inp.model.has_vocab_logits and inp.runtime.engine is not Engine.LLAMA_CPP:
        comps.append(_logits_component(inp, kv, workspace.bytes))
    if inp.runtime.engine.is_server:
        comps += _server_runtime(inp)
    if inp.quantization.method in (QuantMethod.BNB_NF4, QuantMethod.BNB_INT8):
        biggest = max(s.d_in * s.d_out for s in linear_shapes(inp.model))
        size = biggest * compute_bytes(inp) // inp.parallel.tensor_parallel
        comps.append(
            Component(
                "dequant_workspace",
                "Dequantization workspace",
                size,
                show(f"largest linear {num(biggest)} x {compute_bytes(inp)} B", size),
                text("infer.bnb_dequant"),
                PHASES,
                dynamic=True,
            )
        )
    return comps, kv


def _logits_component(inp: EstimateInput, kv: KVCache | None, workspace: int) -> Component:
    """The logits: the last position's in fp32, or, where the forward computes the LM head over the whole prompt
    and upcasts it (``runtime.prompt_logits``, generation with transformers), what the prefill's logits add.

    At the prefill's ``logits = logits.float()`` the compute-dtype logits and their fp32 copy of every prompt
    position are alive (``b + 4`` bytes a logit; ``4`` in fp32, where the upcast is a no-op), beside the weights and
    the prompt's cache; the layers' working set is gone, and the cache has not grown to the whole context (nor has
    a tuple cache's previous copy been made). The other components are summed over the whole generation, so the
    prefill's logits count only by what they exceed those by (decision 0573, as decision 0564 counts gradients by
    their last recompute): the peak is then the larger of the prefill's and the decoding's.
    """
    t = inp.parallel.tensor_parallel
    vocab = inp.model.vocab_size
    last = inp.batch_size * vocab * 4 // t
    last_expr = f"{inp.batch_size} seqs x {num(vocab)} vocab x 4 B (fp32, last token)"
    if not (inp.runtime.prompt_logits and inp.runtime.engine is Engine.TRANSFORMERS):
        return Component("logits", "Logits", last, show(last_expr, last), text("infer.logits"), PHASES, dynamic=True)
    b_act = compute_bytes(inp)
    per_logit = b_act + 4 if b_act < 4 else 4
    tokens = inp.batch_size * sequence_tokens(inp)
    prompt = tokens * vocab * per_logit // t
    # A model with vocabulary logits has a KV cache (decoders, encoder-decoders); ``kv`` is ``None`` for no other.
    at_prompt = 0 if kv is None else kv_cache(dataclasses.replace(inp, context_len=None)).bytes
    grown = 0 if kv is None else kv.bytes - at_prompt + (kv.bytes if holds_previous_cache(inp) else 0)
    size = max(last, prompt - workspace - grown)
    how = f"{b_act} B + 4 B fp32 upcast" if b_act < 4 else "4 B"
    expr = f"{num(tokens)} prompt tokens x {num(vocab)} vocab x ({how}) - {num(workspace)} B prefill working set"
    if grown:
        expr += f" - {num(grown)} B cache grown after the prefill"
    return Component(
        "logits",
        "Logits",
        size,
        show(f"max({last_expr}, {expr})", size),
        text("infer.prompt_logits"),
        PHASES,
        dynamic=True,
    )


def autocast_copies_component(inp: EstimateInput) -> Component | None:
    """The 16-bit copies autocast keeps of fp32 linear weights during a forward pass (engine 0.3.23).

    fp32 weights with a 16-bit compute dtype run under ``torch.autocast``, whose ``cached_cast`` (PyTorch's
    ``autocast_mode.cpp``) keeps the cast of every fp32 leaf that requires grad until the autocast region ends:
    ``can_try_cache`` asks ``arg.requires_grad() && arg.is_leaf()``, not whether grad mode is on, so a model's
    parameters are cached under ``torch.no_grad`` too (as in the CS336 benchmark's bf16 forward passes, fresh-24).
    By the end of one forward pass every linear weight has its copy. ``torch.inference_mode`` skips the cache in
    recent PyTorch, and servers and quantized weights run no autocast; ``None`` then.
    """
    quantized = inp.quantization.method is not QuantMethod.NONE or inp.model.checkpoint_prequantized
    if not autocast_upcasts(inp) or quantized or inp.runtime.engine is not Engine.TRANSFORMERS:
        return None
    linear = param_counts(inp.model).linear
    size = linear * compute_bytes(inp) // inp.parallel.tensor_parallel
    return Component(
        "autocast_copies",
        "Autocast weight copies",
        size,
        show(f"{num(linear)} linear params x {compute_bytes(inp)} B", size),
        text("infer.autocast"),
        PHASES,
        dynamic=True,
    )


def vision_mask_bytes(inp: EstimateInput) -> int:
    """The dense block mask transformers' SDPA path builds over a packed vision encoder's patches: a boolean
    ``S x S`` mask (``S``: the patches of every image in the batch) and the copy in the compute dtype that
    ``scaled_dot_product_attention`` turns it into; 0 for servers and for encoders that run images one by one."""
    packed = inp.model.vision_packed_patches
    if not packed or inp.runtime.engine.is_server or not inp.image_tokens:
        return 0
    patches = inp.batch_size * inp.image_tokens * packed
    return patches * patches * (1 + compute_bytes(inp))


def vision_mask_component(inp: EstimateInput) -> Component | None:
    """The packed vision encoder's attention mask (:func:`vision_mask_bytes`), when there is one."""
    size = vision_mask_bytes(inp)
    if not size:
        return None
    tokens = inp.batch_size * inp.image_tokens
    packed = inp.model.vision_packed_patches
    return Component(
        "vision_attention_mask",
        "Vision encoder attention mask",
        size,
        show(f"({num(tokens)} tokens x {packed})² x (1 + {compute_bytes(inp)}) B", size),
        text("infer.vision_mask", patches=tokens * packed),
        PHASES,
        dynamic=True,
    )


def _server_runtime(inp: EstimateInput) -> list[Component]:
    """vLLM/SGLang: the CUDA-graph pool and the sampler warm-up over ``max_num_seqs`` sequences."""
    rt, t = inp.runtime, inp.parallel.tensor_parallel
    graphs = rt.cuda_graph_mib * MIB
    sampler = rt.max_num_seqs * inp.model.vocab_size * 4 * 2 // t
    return [
        Component(
            "cuda_graphs",
            "CUDA graphs",
            graphs,
            show(f"{rt.cuda_graph_mib} MiB per card", graphs),
            text("infer.cuda_graphs"),
            PHASES,
        ),
        Component(
            "engine_runtime",
            "Sampler warm-up",
            sampler,
            show(f"{rt.max_num_seqs} seqs x {num(inp.model.vocab_size)} vocab x 4 B x 2 (logits + probs)", sampler),
            text("infer.sampler"),
            PHASES,
            dynamic=True,
        ),
    ]


def _mlp_working(model: ModelSpec, server: bool) -> tuple[int, str]:
    moe = model.moe
    per = 3 if model.gated_mlp else 2
    if moe is None:
        return per * model.intermediate_size, f"{per}f"
    active = moe.experts_per_token + moe.num_shared_experts
    if server:
        # vLLM/SGLang's fused MoE kernel keeps three intermediate caches per routed token and expert at once:
        # gate and up (2N), their product (N) and the down projection's output (h) before the weighted sum.
        routed = moe.experts_per_token * (3 * moe.expert_intermediate_size + model.hidden_size)
        shared = per * moe.expert_intermediate_size * moe.num_shared_experts
        return routed + shared, f"{moe.experts_per_token}·(3·f_expert + h)"
    return per * moe.expert_intermediate_size * active, f"{per}·{active}·f_expert"


def eager_score_bytes(b_act: int, softmax_in_compute_dtype: bool = False) -> int:
    """Bytes one attention score holds at an eager attention's peak: the scores in the compute dtype, the
    probabilities that the softmax computes in fp32 (transformers' ``softmax(..., dtype=torch.float32)``, AutoAWQ's
    fused attention's ``softmax(scores.float())``) and, for a 16-bit compute dtype, their copy cast back to it, made
    while both are alive; where the softmax runs in the compute dtype (``runtime.softmax_in_compute_dtype``:
    transformers' BART-family attention, Whisper's among them), the scores and the probabilities only."""
    if softmax_in_compute_dtype:
        return 2 * b_act
    return b_act + 4 + (b_act if b_act < 4 else 0)


def host_token_embedding(inp: EstimateInput) -> int:
    """The bytes of an untied GGUF model's token embedding, which llama.cpp keeps on the host (0 otherwise).

    llama.cpp places the input layer on the CPU whatever ``n_gpu_layers`` and the split mode say (``llama-model.cpp``:
    "there is very little benefit to offloading the input layer, so always keep it on the CPU", ``dev_input = {
    cpu_dev, ... }``, set before and apart from the layers' assignment by ``splits``): the token embedding is a row
    lookup. It leaves every card, one card or several (:func:`_host_share`, decision 0582). The LM head is the output
    layer's, on the card; a tied model has no ``output.weight`` and loads the embedding a second time for it
    (``TENSOR_DUPLICATED``), so the card holds one vocabulary matrix either way, and only an untied model's embedding
    leaves it (decision 0580).
    """
    untied_gguf = inp.quantization.method is QuantMethod.GGUF and not inp.model.tie_word_embeddings
    if inp.runtime.engine is not Engine.LLAMA_CPP or not untied_gguf or not inp.model.has_vocab_logits:
        return 0
    return gguf_token_embedding(inp.model, inp.quantization)


def _host_share(inp: EstimateInput, host: int) -> int:
    """What of the busiest card's weights, as :func:`vramcalc.components.weights.per_card_weights` counts them, is
    the token embedding llama.cpp keeps on the host (``host`` bytes in all). The input layer goes to the CPU apart
    from the split of the layers (``dev_input`` is set before and regardless of ``splits`` and the split mode), so it
    leaves every card: under tensor parallelism the count spreads the embedding and LM head over the ``t`` cards, and
    its ``1/t`` share leaves each; a pipeline stage's count holds one vocabulary matrix, which under llama.cpp's layer
    split is the LM head on the last layer's card (``dev_output = get_layer_buft_list(n_layer)``), so nothing leaves."""
    plan = inp.parallel
    if plan.strategy is Strategy.PIPELINE or plan.pipeline_parallel > 1:
        return 0
    return host // plan.tensor_parallel


def llama_cpp_compute_buffer(inp: EstimateInput) -> Component:
    """llama.cpp's compute buffer, reserved when the context is created for its worst-case prompt graph.

    ``llama_context::sched_reserve`` builds that graph for ``n_tokens = min(n_ctx, n_ubatch)`` tokens against the
    full cache (``memory->init_full()``) with an output for every token (``n_outputs_pp = min(n_tokens,
    n_outputs_max)``, ``n_outputs_max`` defaulting to ``n_batch``), and ggml's graph allocator sizes the buffer by the
    largest set of intermediates alive at once (decision 0580). ggml's intermediates are fp32. In a layer: the
    prefill working set of those tokens and, without flash attention, the scores ``kq = ggml_mul_mat(k, q)`` of every
    head over the cache's cells in fp32 (``ggml_mul_mat_set_prec(kq, GGML_PREC_F32)``), whose softmax the allocator
    runs in place (``ggml_op_can_inplace``: ``GGML_OP_SOFT_MAX``); at the output: the last hidden state and the
    logits of every token. The buffer is the larger of the two and is held whatever the prompt's length.
    """
    model = inp.model
    h, a, k, d = model.hidden_size, model.num_attention_heads, model.kv_heads, model.dim_per_head
    mlp, mlp_expr = _mlp_working(model, False)
    cells = -(-inp.context_tokens // LLAMA_CPP_CTX_PAD) * LLAMA_CPP_CTX_PAD
    tokens = min(cells, LLAMA_CPP_UBATCH)
    layer = tokens * (2 * h + max(2 * a * d + 2 * k * d, mlp)) * 4
    expr = f"{num(tokens)} tokens x (2h + max(2ad + 2kd, {mlp_expr})) x 4 B"
    if not inp.flash_attention:
        layer += a * tokens * cells * 4
        expr += f" + {a} heads x {num(tokens)} x {num(cells)} scores x 4 B"
    vocab = model.vocab_size if model.has_vocab_logits else 0
    output = tokens * (h + vocab) * 4
    size = max(layer, output)
    expr = f"max({expr}, {num(tokens)} tokens x (h + {num(vocab)} vocab) x 4 B)"
    return Component(
        "workspace",
        "Prefill activations / workspace",
        size,
        show(expr, size),
        text("infer.llama_cpp_compute_buffer", ubatch=LLAMA_CPP_UBATCH),
        PHASES,
        # Not PyTorch's caching allocator: ggml-backend allocates the buffer whole, once, when the context is created
        # (``sched_reserve``, decision 0580's source), and the graph allocator places every intermediate inside it,
        # so no fragmentation allowance applies (decision 0582).
        dynamic=False,
    )


def prefill_workspace(inp: EstimateInput) -> Component:
    """Working set of one layer during a prefill step of ``batch_size`` sequences (``seq_len`` tokens,
    or image patches for vision models).

    Activations are not kept across layers in inference: per token ``2h`` (residual and norm output)
    plus the larger of the attention projections ``(2ad + 2kd)/t`` and the MLP ``3f/t`` (gated: gate,
    up, product); without fused attention one layer's ``a·s²`` scores and softmax are added
    (:func:`eager_score_bytes` a score). llama.cpp's compute buffer: :func:`llama_cpp_compute_buffer`.
    """
    if inp.runtime.engine is Engine.LLAMA_CPP:
        return llama_cpp_compute_buffer(inp)
    model = inp.model
    t = inp.parallel.tensor_parallel
    h, a, k, d = model.hidden_size, model.num_attention_heads, model.kv_heads, model.dim_per_head
    mlp, mlp_expr = _mlp_working(model, inp.runtime.engine.is_server)
    per_token = 2 * h + max(2 * a * d + 2 * k * d, mlp) // t
    b_act = compute_bytes(inp)
    seq = sequence_tokens(inp)
    tokens = inp.batch_size * seq
    if inp.runtime.engine.is_server:  # the profiling run prefills max_num_batched_tokens tokens
        tokens = max(tokens, inp.runtime.max_num_batched_tokens)
    size = tokens * per_token * b_act
    expr = f"{num(tokens)} tokens x (2h + max(2ad + 2kd, {mlp_expr})/{t}) x {b_act} B"
    if not inp.flash_attention:
        # CTranslate2's dot_product_attention writes the scores and the softmax's output in the compute dtype
        # (``ops::SoftMax()(output, values_lengths, attn)`` with ``attn`` of the values' dtype; decision 0568).
        in_compute = inp.runtime.softmax_in_compute_dtype or inp.runtime.engine is Engine.CTRANSLATE2
        per_score = eager_score_bytes(b_act, in_compute)
        scores = inp.batch_size * max(1, a // t) * seq**2 * per_score
        size += scores
        expr += f" + scores and softmax a·s² x {per_score} B"
    return Component(
        "workspace",
        "Prefill activations / workspace",
        size,
        show(expr, size),
        text("infer.workspace"),
        PHASES,
        dynamic=True,
    )

"""The engine's value-built texts in the customer's language (vramcalc keeps English; DESIGN §6).

The engine gives each assumption and note as a record: a template ``key`` and the values it was built from
(``vramcalc.text``). Here each key has its English template marked for translation, with ``%(name)s``
placeholders; :func:`render` fills the translated template with the values, numbers in the locale's
conventions and nested records rendered the same way. A key this table lacks renders as the engine's English
(and ``test_engine_texts`` fails until it is added).
"""

from __future__ import annotations

from typing import Any

from django.utils.formats import number_format
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

__all__ = ["COUNTS", "TRANSLATED", "render"]

# Templates that count: the value named here picks the language's plural form (ngettext_lazy with that key).
COUNTS = {"plan.over": "cards"}

TRANSLATED: dict[str, Any] = {
    "runtime.cuda_context": _(
        "CUDA context + loaded kernels + cuBLAS workspace; 300 MiB-2 GiB depending on GPU, driver and "
        "lazy loading. Not part of PyTorch's reserved memory."
    ),
    "runtime.comm_buffers": _(
        "NCCL channels/buffers outside PyTorch's allocator (vLLM logs non-torch memory growing from TP=1 to TP=2)."
    ),
    "runtime.fragmentation": _(
        "PyTorch's caching allocator keeps freed blocks reserved and rounds requests up; "
        "expandable_segments reduces it."
    ),
    "runtime.fragmentation_training": _(
        "PyTorch's caching allocator keeps freed blocks reserved and rounds requests up; in a training step it also "
        "keeps about %(pct)s%% of what it holds cached, in blocks cut for the gradients, the optimizer step's "
        "temporaries and the communication buckets. expandable_segments reduces it."
    ),
    "weights.resident": _(
        "All weights resident on the card (MoE: every expert). Quantized formats store metadata "
        "(scales/zeros/constants), counted here."
    ),
    "weights.resident_but_embedding": _(
        "All weights resident on the card but the token embedding, which llama.cpp keeps in host memory (MoE: every "
        "expert). Quantized formats store metadata (scales/zeros/constants), counted here."
    ),
    "weights.vision": _(
        "Kept in the weights dtype on every card, frozen in fine-tuning; each image adds %(tokens)s "
        "tokens to the sequence (KV cache and activations)."
    ),
    "weights.vision_quantized": _(
        "Quantized by bitsandbytes with the language model (it converts every linear layer as it loads), on every "
        "card, frozen in fine-tuning; each image adds %(tokens)s tokens to the sequence (KV cache and activations)."
    ),
    "kv.assumption": _(
        "%(kind)s; every resident sequence holds its full context; sliding-window layers keep "
        "min(window, context) tokens; block-paging waste (<4%%) ignored."
    ),
    "kv.blocks": _("KV quantized in blocks (llama.cpp)."),
    "infer.logits": _("Only the last position's logits are computed and upcast (current generate/vLLM)."),
    "infer.prompt_logits": _(
        "The model computes the logits of every prompt position and upcasts them to fp32 in the prefill "
        "(transformers before num_logits_to_keep); counted by what they exceed the layers' working set and the "
        "cache's later growth by."
    ),
    "infer.bnb_dequant": _("bitsandbytes dequantizes one layer at a time."),
    "infer.autocast": _("Autocast keeps the 16-bit cast of each fp32 weight until its region ends, under no_grad too."),
    "infer.tuple_kv_cache": _(
        "The cache is passed as tuples (transformers before 4.36, models with their own code): the previous step's "
        "keys and values stay alive while the next step's are built with torch.cat."
    ),
    "infer.kept_generate_output": _(
        "An earlier generate's output is kept while generate runs again: with return_dict_in_generate=True it holds "
        "that run's past_key_values, its whole KV cache."
    ),
    "infer.cuda_graphs": _(
        "Graph pool captured for the decode batch sizes (vLLM prints its size after capture; "
        "--enforce-eager removes it)."
    ),
    "infer.sampler": _("The engine's dummy sampler run over max_num_seqs sequences before it sizes the KV cache."),
    "infer.vision_mask": _(
        "The vision encoder attends over all %(patches)s patches as one sequence; transformers' SDPA path masks "
        "it with a dense boolean block mask, which attention turns into a copy in the compute dtype."
    ),
    "infer.workspace": _(
        "One layer's intermediates are live at a time during prefill; engines may reserve more (CUDA "
        "graphs, llama.cpp compute buffers)."
    ),
    "infer.llama_cpp_compute_buffer": _(
        "llama.cpp reserves its compute buffer when the context is created, for a micro-batch of n_ubatch "
        "(%(ubatch)s) tokens against the whole cache: the larger of one layer's fp32 intermediates (with the attention "
        "scores over every cached token, without flash attention) and the logits of every token of the micro-batch. "
        "It is held whatever the prompt's length."
    ),
    "quant.gptq": _("GPTQ %(bits)s-bit, group %(group)s: int32-packed weights, fp16 scales, packed zeros, int32 g_idx"),
    "quant.awq": _("AWQ %(bits)s-bit, group %(group)s: packed weights, fp16 scales, packed zeros"),
    "quant.per_column": _("per-column"),
    "quant.nf4_double": _(
        "bitsandbytes NF4: 4 bits + absmax per 64 weights (double-quantized: 8-bit + fp32 per 256 blocks)"
    ),
    "quant.nf4": _("bitsandbytes NF4: 4 bits + absmax per 64 weights (fp32)"),
    "quant.bnb_int8": _("bitsandbytes LLM.int8: int8 + fp32 scale per row"),
    "quant.fp8": _("FP8 e4m3: 1 byte + fp32 scale per output channel"),
    "quant.int8_weight_only": _("int8 weight-only: 1 byte + fp32 scale per output channel"),
    "quant.int4_weight_only": _("int4 weight-only, group 128: 4 bits + bf16 scale and zero per group"),
    "quant.mxfp4": _("MXFP4: 4 bits + E8M0 scale per 32 (MoE experts only when present)"),
    "quant.nvfp4": _("NVFP4: 4 bits + FP8 scale per 16 + fp32 per tensor"),
    "quant.gguf": _("GGUF %(gguf_type)s: ggml block sizes"),
    "quant.none": _("unquantized"),
    "diffusion.resident": _("all components resident"),
    "diffusion.offload": _("resident only while used (model CPU offload)"),
    "diffusion.bytes_where": _("%(bytes)s B per parameter; %(where)s."),
    "diffusion.quantized": _("quantized: %(storage)s"),
    "diffusion.bytes": _("%(bytes)s B per parameter"),
    "diffusion.t5_fp32": _("%(params)s T5 FFN output weights (wo) stay fp32 (transformers' _keep_in_fp32_modules)"),
    "diffusion.storage_where": _("%(storage)s; %(where)s."),
    "diffusion.vae_where": _("The VAE is not quantized; %(where)s."),
    "diffusion.safety_checker": _(
        "Stable Diffusion's safety checker (CLIP ViT-L/14 vision tower) stays on the card for the whole run, with "
        "model CPU offload too (the pipeline keeps it out of the offload chain)."
    ),
    "diffusion.activations": _(
        "No gradients: only one block's intermediates are live; classifier-free guidance doubles the batch."
    ),
    "diffusion.tiled": _("Tiled decode: the peak is one tile's."),
    "diffusion.vae_decode": _("Convolutions at full output resolution; the peak grows with pixel count."),
    "video.tokens": _(
        "Video: %(frames)s frames are %(latent)s latent frames (the 3D VAE keeps the first frame and compresses "
        "%(t)s frames into one); the tokens are latent frames x latent height x latent width / patch² plus the "
        "prompt's."
    ),
    "video.decode": _(
        "3D causal VAE: it decodes %(frames)s of the %(clip)s frames per pass at full resolution (the causal "
        "convolutions carry a small cache between passes); the decoded clip stays on the card."
    ),
    "dtrain.denoiser": _("Resident for the whole step."),
    "dtrain.text_encoders": _("Frozen and resident (pre-computing the prompt embeddings removes them)."),
    "dtrain.vae": _("Encodes the training images to latents every step (cached latents remove it)."),
    "dtrain.all_params": _("all denoiser parameters"),
    "dtrain.lora_params": _("LoRA r=%(rank)s: linear weights x 2r / h_eff (%(targets)s)"),
    "dtrain.master": _("fp32 copy."),
    "dtrain.master_16bit": _("16-bit copy (DeepSpeed's 16-bit master weights)."),
    "dtrain.optimizer": _("States of the trainable part."),
    "dtrain.step": _("Chosen by the fused-optimizer switch."),
    "dtrain.activations": _(
        "Korthikanti's 34·h bytes per token per block, over the DiT blocks the model states or else the denoiser's "
        "equivalent depth; see the module notes."
    ),
    "dtrain.text_encoders_trained": _("Resident and trained with the denoiser; T5 encoders stay frozen."),
    "dtrain.plus_text_encoders": _("plus %(params)s text-encoder parameters"),
    "dtrain.unet_levels": _(
        "Counted level by level at each level's resolution: what autograd keeps for every resnet, transformer "
        "block, skip concatenation and sampler, and the attention probabilities when the attention kernel is not "
        "memory-efficient."
    ),
    "dtrain.text_encoder_activations": _(
        "The trained CLIP text encoders keep their activations for backward (77 tokens, Korthikanti's 34·h bytes "
        "per token per layer at 16-bit)."
    ),
    "dtrain.vae_encode_width": _(
        "The encoder's first level runs at full resolution with %(channels)s channels (the VAE's first width); no "
        "gradients flow through it."
    ),
    "dtrain.vae_encode": _(
        "The encoder's first level runs at full resolution with 128 channels; no gradients flow through it."
    ),
    "train.adapters": _("Adapters stored in the weights dtype."),
    "train.gradients": _("Gradients in the weights dtype; %(plan)s."),
    "train.master": _("fp32 copy of 16-bit trainable weights (mixed precision); %(plan)s."),
    "train.zero3_master_grads": _(
        "DeepSpeed ZeRO-3 converts the gradients to the master weights' precision (%(bytes)s B) for the optimizer, one "
        "sub-group at a time (at most 1e9 parameters by default), and frees them after its step."
    ),
    "train.zero2_reduce_buffers": _(
        "DeepSpeed ZeRO-2 copies each gradient into contiguous 16-bit reduce buffers allocated at every backward (two "
        "with overlap_comm; 4.5 x reduce_bucket_size each under DeepSpeed 0.3)."
    ),
    "train.master_16bit": _(
        "16-bit copy of the 16-bit trainable weights (DeepSpeed's 16-bit master weights); %(plan)s."
    ),
    "train.paged": _("Paged states can spill to host memory; not counted on the card."),
    "train.checkpointing": _("Full activation checkpointing: layer inputs kept, one layer rebuilt at a time."),
    "train.saved": _("Saved for backward per Korthikanti et al. (2022), generalised to GQA/gated MLP."),
    "train.sequence_parallel": _(
        "Sequence parallel over %(cards)s cards: each holds %(tokens)s of the %(total)s tokens (Ulysses "
        "all-to-all / ring attention buffers are in the communication allowance)."
    ),
    "train.no_fused_attention": _("Attention scores are materialised (no fused attention)."),
    "train.logits": _("Cross-entropy over the full vocabulary; chunked loss upcasts one chunk at a time."),
    "train.logits_fp32_held": _(
        "The model returns its logits upcast to fp32 and the loop keeps them through backward (prime-rl): at the "
        "loss's backward the fp32 logits, the log-softmax and both gradients are alive at once."
    ),
    "train.step": _("%(how)s."),
    "train.step_in_backward": _("optimizer fused into backward"),
    "train.step_foreach": _("foreach step: one %(bytes)s B temporary per parameter"),
    "train.step_sgd": _("plain SGD updates in place"),
    "train.step_per_tensor": _("per-tensor step: one fp32 temporary of the largest tensor"),
    "train.main_grad": _("fp32 main_grad buffer; %(plan)s."),
    "train.activation_offload": _(
        "Activations offloaded to host memory: the card keeps the layer being computed and the one in "
        "transfer (the host link must keep up)."
    ),
    "train.zero3_live": _(
        "DeepSpeed ZeRO-3: the unit being computed plus the prefetch bucket, capped by max live parameters."
    ),
    "train.gathered": _("Current + prefetched unit all-gathered (DeepSpeed: 4 B x largest layer in 16-bit)."),
    "train.fsdp_root": _(
        "FSDP keeps its root unit (the embeddings and LM head) gathered from the forward until the backward."
    ),
    "train.ddp_buckets": _("DDP reduces through bucket buffers unless gradient_as_bucket_view=True."),
    "train.gradients_last_recompute": _(
        "Under checkpointing backward rebuilds the first layer while the later layers' gradients are held."
    ),
    "train.autocast": _("AMP casts fp32 weights to 16-bit for each matmul and autograd keeps the casts for backward."),
    "train.dequant": _("Quantized layers are dequantized one at a time for the matmul."),
    "plan.over": ngettext_lazy("%(strategy)s over %(cards)s card", "%(strategy)s over %(cards)s cards", "cards"),
    "plan.single": _("single replica"),
    "plan.ddp": _("DDP (replicated)"),
    "plan.fsdp": _("FSDP full shard"),
    "plan.pipeline": _("pipeline split"),
    "plan.tp": _("TP=%(tp)s"),
    "plan.distributed_optimizer": _("distributed optimizer"),
    "plan.contiguous_grad_buffer": _("contiguous fp32 grad buffer"),
    "plan.offload_all": _("params+optimizer offloaded"),
    "plan.offload_optimizer": _("optimizer offloaded"),
    "diffusion.vae_encode.image_to_image": _(
        "Image-to-image: the input image is encoded to latents first; the encoder's first level runs at full "
        "resolution."
    ),
    "diffusion.vae_encode.inpainting": _(
        "Inpainting: the masked input image is encoded to latents first; the encoder's first level runs at full "
        "resolution."
    ),
    "train.op_checkpointing": _(
        "Per-operation selective checkpointing: each layer keeps its input, the attention output and every "
        "other matmul output; the rest is recomputed, one layer at a time."
    ),
    "train.layer_checkpointing": _(
        "Selective checkpointing: one layer in %(n)s keeps only its input, the others keep all their "
        "activations; one layer is rebuilt at a time."
    ),
    "train.pipeline": _(
        "Pipeline parallel over %(stages)s stages: this card holds %(layers)s layers and the activations of "
        "%(flight)s micro-batch(es) in flight."
    ),
    "train.tp_sequence_parallel": _(
        "Sequence parallelism inside tensor parallelism: norm and dropout activations and layer inputs are "
        "split over the %(tp)s tensor-parallel cards."
    ),
    "train.tp_gathered_inputs": _(
        "The q/k/v and MLP input projections keep the whole gathered sequence for backward instead of gathering "
        "it again."
    ),
    "train.logits_token_chunks": _(
        "The LM head and the loss run over %(chunk)s tokens at a time: only one chunk's logits, their fp32 upcast "
        "and gradient exist at once."
    ),
    "train.ring_attention": _(
        "Ring attention over %(cards)s cards: the keys and values of the whole sequence are gathered for the "
        "layer being computed, and their gradients in backward."
    ),
    "train.stage_gathered": _(
        "With pipeline stages FSDP keeps the stage's parameters gathered between micro-batches (torchtitan: "
        "no reshard after forward)."
    ),
    "train.no_sync_gradients": _(
        "FSDP accumulates gradients under no_sync: each flat parameter that needs a gradient keeps it unsharded "
        "until the last micro-batch; frozen weights wrapped with adapters need one too."
    ),
    "train.stage_gradients": _(
        "With pipeline stages gradients accumulate unsharded until the last micro-batch reduces them."
    ),
    "train.unit_gradient": _(
        "FSDP computes each unit's whole gradient before it reduce-scatters it: one unit's unsharded gradient is "
        "held beside the gathered parameters in backward."
    ),
    # The spaces before each %% are no-break spaces (U+00A0): a figure never parts from its sign at a line's end.
    "range.meaning": _(
        "The measured peak falls in this range in about 9 runs out of 10: %(low)s %% to %(high)s %% around "
        "the expected peak, how far %(cases)s published measurements of %(kind)s fell from the estimate, plus"
        " the likely size of what is not modelled."
    ),
    "range.kind.serving": _("serving"),
    "range.kind.transformers_generate": _("generation with Hugging Face transformers"),
    "range.kind.not_modelled_runtime": _("a runtime the estimate does not model (CTranslate2)"),
    "range.kind.generation": _("image and video generation"),
    "range.kind.training_one_card": _("training on one card"),
    "range.kind.training_one_card_ckpt_or_fp32": _(
        "training on one card with its activations checkpointed or all in fp32"
    ),
    "range.kind.training_several_cards": _("training on several cards"),
    "range.widened": _("Widened for what the estimate is less sure of: %(reasons)s."),
    "range.kind.quantized_base": _("a quantized base model"),
    "range.kind.offloading": _("offloading to host memory"),
    "range.kind.pipeline": _("pipeline stages"),
    "range.kind.tensor_parallel": _("tensor parallelism"),
    "range.kind.vision_language": _("images in the sequence"),
    "range.kind.vision_language_training": _("training on images (the vision encoder's own activations)"),
    "range.kind.vae_slicing": _("a VAE decode in slices"),
    "note.per_card": _("Per card, busiest card; memory is never pooled across cards."),
    "note.server": _(
        "vLLM (and SGLang) pre-allocate gpu_memory_utilization of the card for KV blocks, so the card "
        "looks full; this peak is what the workload needs, and the rest of the card holds more KV cache "
        "(more tokens or more concurrent requests)."
    ),
    "note.llama_cpp": _("llama.cpp allocates the whole n_ctx KV cache up front plus per-GPU compute buffers."),
}


def _value(value: Any) -> str:
    if isinstance(value, dict):
        rendered = render(value)
        return "" if rendered is None else rendered
    if isinstance(value, int) and not isinstance(value, bool):
        return number_format(value, force_grouping=True)
    return str(value)


def render(record: Any) -> str | None:
    """A record from ``Text.to_dict()`` in the active language; ``None`` when it is not one this table knows."""
    if not isinstance(record, dict):
        return None
    if "parts" in record:
        parts = [render(part) for part in record.get("parts") or []]
        if not parts or any(part is None for part in parts):
            return None
        return str(record.get("sep", " ")).join(part for part in parts if part is not None)
    template = TRANSLATED.get(str(record.get("key", "")))
    if template is None:
        return None
    params = record.get("params") or {}
    if not isinstance(params, dict):
        return None
    values = {name: _value(value) for name, value in params.items()}
    if any(isinstance(value, dict) and render(value) is None for value in params.values()):
        return None
    count = COUNTS.get(str(record.get("key", "")))
    if count is not None and isinstance(params.get(count), int):
        return str(template % {**values, count: params[count]}).replace(str(params[count]), values[count], 1)
    try:
        return str(template) % values if values else str(template).replace("%%", "%")
    except (KeyError, TypeError, ValueError):
        return None

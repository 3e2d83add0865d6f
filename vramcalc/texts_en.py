"""English templates of the engine's assumption texts and notes, by stable key (see :mod:`vramcalc.text`).

A key names one wording: change the English and the web layer's test asks for its translation again.
``{name}`` placeholders take the values a text was built from.
"""

from __future__ import annotations

__all__ = ["TEMPLATES"]

TEMPLATES: dict[str, str] = {
    # Runtime (components/runtime.py)
    "runtime.cuda_context": "CUDA context + loaded kernels + cuBLAS workspace; 300 MiB-2 GiB depending on GPU, "
    "driver and lazy loading. Not part of PyTorch's reserved memory.",
    "runtime.comm_buffers": "NCCL channels/buffers outside PyTorch's allocator (vLLM logs non-torch memory "
    "growing from TP=1 to TP=2).",
    "runtime.fragmentation": "PyTorch's caching allocator keeps freed blocks reserved and rounds requests up; "
    "expandable_segments reduces it.",
    "runtime.fragmentation_training": "PyTorch's caching allocator keeps freed blocks reserved and rounds requests "
    "up; in a training step it also keeps about {pct}% of what it holds cached, in blocks cut for the gradients, the "
    "optimizer step's temporaries and the communication buckets. expandable_segments reduces it.",
    # Weights (components/weights.py)
    "weights.resident": "All weights resident on the card (MoE: every expert). Quantized formats store "
    "metadata (scales/zeros/constants), counted here.",
    "weights.resident_but_embedding": "All weights resident on the card but the token embedding, which llama.cpp "
    "keeps in host memory (MoE: every expert). Quantized formats store metadata (scales/zeros/constants), counted "
    "here.",
    "weights.vision": "Kept in the weights dtype on every card, frozen in fine-tuning; each image adds "
    "{tokens} tokens to the sequence (KV cache and activations).",
    "weights.vision_quantized": "Quantized by bitsandbytes with the language model (it converts every linear layer "
    "as it loads), on every card, frozen in fine-tuning; each image adds {tokens} tokens to the sequence (KV cache and "
    "activations).",
    # KV cache (components/kv.py)
    "kv.assumption": "{kind}; every resident sequence holds its full context; sliding-window layers keep "
    "min(window, context) tokens; block-paging waste (<4%) ignored.",
    "kv.blocks": "KV quantized in blocks (llama.cpp).",
    # Inference (infer.py)
    "infer.vision_mask": "The vision encoder attends over all {patches} patches as one sequence; transformers' SDPA "
    "path masks it with a dense boolean block mask, which attention turns into a copy in the compute dtype.",
    "infer.autocast": "Autocast keeps the 16-bit cast of each fp32 weight until its region ends, under no_grad too.",
    "infer.logits": "Only the last position's logits are computed and upcast (current generate/vLLM).",
    "infer.prompt_logits": "The model computes the logits of every prompt position and upcasts them to fp32 in the "
    "prefill (transformers before num_logits_to_keep); counted by what they exceed the layers' working set and the "
    "cache's later growth by.",
    "infer.bnb_dequant": "bitsandbytes dequantizes one layer at a time.",
    "infer.tuple_kv_cache": "The cache is passed as tuples (transformers before 4.36, models with their own code): "
    "the previous step's keys and values stay alive while the next step's are built with torch.cat.",
    "infer.kept_generate_output": "An earlier generate's output is kept while generate runs again: with "
    "return_dict_in_generate=True it holds that run's past_key_values, its whole KV cache.",
    "infer.cuda_graphs": "Graph pool captured for the decode batch sizes (vLLM prints its size after capture; "
    "--enforce-eager removes it).",
    "infer.sampler": "The engine's dummy sampler run over max_num_seqs sequences before it sizes the KV cache.",
    "infer.workspace": "One layer's intermediates are live at a time during prefill; engines may reserve more "
    "(CUDA graphs, llama.cpp compute buffers).",
    "infer.llama_cpp_compute_buffer": "llama.cpp reserves its compute buffer when the context is created, for "
    "a micro-batch of n_ubatch ({ubatch}) tokens against the whole cache: the larger of one layer's fp32 "
    "intermediates (with the attention scores over every cached token, without flash attention) and the logits of "
    "every token of the micro-batch. It is held whatever the prompt's length.",
    # Quantized storage (quant.py)
    "quant.gptq": "GPTQ {bits}-bit, group {group}: int32-packed weights, fp16 scales, packed zeros, int32 g_idx",
    "quant.awq": "AWQ {bits}-bit, group {group}: packed weights, fp16 scales, packed zeros",
    "quant.per_column": "per-column",
    "quant.nf4_double": "bitsandbytes NF4: 4 bits + absmax per 64 weights "
    "(double-quantized: 8-bit + fp32 per 256 blocks)",
    "quant.nf4": "bitsandbytes NF4: 4 bits + absmax per 64 weights (fp32)",
    "quant.bnb_int8": "bitsandbytes LLM.int8: int8 + fp32 scale per row",
    "quant.fp8": "FP8 e4m3: 1 byte + fp32 scale per output channel",
    "quant.int8_weight_only": "int8 weight-only: 1 byte + fp32 scale per output channel",
    "quant.int4_weight_only": "int4 weight-only, group 128: 4 bits + bf16 scale and zero per group",
    "quant.mxfp4": "MXFP4: 4 bits + E8M0 scale per 32 (MoE experts only when present)",
    "quant.nvfp4": "NVFP4: 4 bits + FP8 scale per 16 + fp32 per tensor",
    "quant.gguf": "GGUF {gguf_type}: ggml block sizes",
    "quant.none": "unquantized",
    # Diffusion generation (diffusion.py)
    "diffusion.resident": "all components resident",
    "diffusion.offload": "resident only while used (model CPU offload)",
    "diffusion.bytes_where": "{bytes} B per parameter; {where}.",
    "diffusion.quantized": "quantized: {storage}",
    "diffusion.bytes": "{bytes} B per parameter",
    "diffusion.t5_fp32": "{params} T5 FFN output weights (wo) stay fp32 (transformers' _keep_in_fp32_modules)",
    "diffusion.storage_where": "{storage}; {where}.",
    "diffusion.vae_where": "The VAE is not quantized; {where}.",
    "diffusion.safety_checker": "Stable Diffusion's safety checker (CLIP ViT-L/14 vision tower) stays on the card for "
    "the whole run, with model CPU offload too (the pipeline keeps it out of the offload chain).",
    "diffusion.activations": "No gradients: only one block's intermediates are live; classifier-free guidance "
    "doubles the batch.",
    "diffusion.tiled": "Tiled decode: the peak is one tile's.",
    "diffusion.vae_decode": "Convolutions at full output resolution; the peak grows with pixel count.",
    "diffusion.vae_encode.image_to_image": "Image-to-image: the input image is encoded to latents first; the "
    "encoder's first level runs at full resolution.",
    "diffusion.vae_encode.inpainting": "Inpainting: the masked input image is encoded to latents first; the "
    "encoder's first level runs at full resolution.",
    # Video diffusion (video.py, decision 0223)
    "video.tokens": "Video: {frames} frames are {latent} latent frames (the 3D VAE keeps the first frame and "
    "compresses {t} frames into one); the tokens are latent frames x latent height x latent width / patch² "
    "plus the prompt's.",
    "video.decode": "3D causal VAE: it decodes {frames} of the {clip} frames per pass at full resolution (the causal "
    "convolutions carry a small cache between passes); the decoded clip stays on the card.",
    # Diffusion training (diffusion_train.py)
    "dtrain.denoiser": "Resident for the whole step.",
    "dtrain.text_encoders": "Frozen and resident (pre-computing the prompt embeddings removes them).",
    "dtrain.vae": "Encodes the training images to latents every step (cached latents remove it).",
    "dtrain.all_params": "all denoiser parameters",
    "dtrain.lora_params": "LoRA r={rank}: linear weights x 2r / h_eff ({targets})",
    "dtrain.master": "fp32 copy.",
    "dtrain.master_16bit": "16-bit copy (DeepSpeed's 16-bit master weights).",
    "dtrain.optimizer": "States of the trainable part.",
    "dtrain.step": "Chosen by the fused-optimizer switch.",
    "dtrain.activations": "Korthikanti's 34·h bytes per token per block, over the DiT blocks the model states or else "
    "the denoiser's equivalent depth; see the module notes.",
    "dtrain.text_encoders_trained": "Resident and trained with the denoiser; T5 encoders stay frozen.",
    "dtrain.plus_text_encoders": "plus {params} text-encoder parameters",
    "dtrain.unet_levels": "Counted level by level at each level's resolution: what autograd keeps for every resnet, "
    "transformer block, skip concatenation and sampler, and the attention probabilities when the attention "
    "kernel is not memory-efficient.",
    "dtrain.text_encoder_activations": "The trained CLIP text encoders keep their activations for backward "
    "(77 tokens, Korthikanti's 34·h bytes per token per layer at 16-bit).",
    "dtrain.vae_encode_width": "The encoder's first level runs at full resolution with {channels} channels (the "
    "VAE's first width); no gradients flow through it.",
    # Kept for estimates saved before engine 0.2.2 (their records name it); new estimates use the width above.
    "dtrain.vae_encode": "The encoder's first level runs at full resolution with 128 channels; no gradients "
    "flow through it.",
    # Training (train.py, components/training.py)
    "train.adapters": "Adapters stored in the weights dtype.",
    "train.gradients": "Gradients in the weights dtype; {plan}.",
    "train.master": "fp32 copy of 16-bit trainable weights (mixed precision); {plan}.",
    "train.zero3_master_grads": "DeepSpeed ZeRO-3 converts the gradients to the master weights' precision ({bytes} B) "
    "for the optimizer, one sub-group at a time (at most 1e9 parameters by default), and frees them after its step.",
    "train.master_16bit": "16-bit copy of the 16-bit trainable weights (DeepSpeed's 16-bit master weights); {plan}.",
    "train.paged": "Paged states can spill to host memory; not counted on the card.",
    "train.checkpointing": "Full activation checkpointing: layer inputs kept, one layer rebuilt at a time.",
    "train.saved": "Saved for backward per Korthikanti et al. (2022), generalised to GQA/gated MLP.",
    "train.op_checkpointing": "Per-operation selective checkpointing: each layer keeps its input, the attention "
    "output and every other matmul output; the rest is recomputed, one layer at a time.",
    "train.layer_checkpointing": "Selective checkpointing: one layer in {n} keeps only its input, the others keep "
    "all their activations; one layer is rebuilt at a time.",
    "train.pipeline": "Pipeline parallel over {stages} stages: this card holds {layers} layers and the activations "
    "of {flight} micro-batch(es) in flight.",
    "train.tp_sequence_parallel": "Sequence parallelism inside tensor parallelism: norm and dropout activations and "
    "layer inputs are split over the {tp} tensor-parallel cards.",
    "train.tp_gathered_inputs": "The q/k/v and MLP input projections keep the whole gathered sequence for backward "
    "instead of gathering it again.",
    "train.ring_attention": "Ring attention over {cards} cards: the keys and values of the whole sequence are "
    "gathered for the layer being computed, and their gradients in backward.",
    "train.stage_gathered": "With pipeline stages FSDP keeps the stage's parameters gathered between micro-batches "
    "(torchtitan: no reshard after forward).",
    "train.no_sync_gradients": "FSDP accumulates gradients under no_sync: each flat parameter that needs a gradient "
    "keeps it unsharded until the last micro-batch; frozen weights wrapped with adapters need one too.",
    "train.stage_gradients": "With pipeline stages gradients accumulate unsharded until the last micro-batch "
    "reduces them.",
    "train.unit_gradient": "FSDP computes each unit's whole gradient before it reduce-scatters it: one unit's "
    "unsharded gradient is held beside the gathered parameters in backward.",
    "train.sequence_parallel": "Sequence parallel over {cards} cards: each holds {tokens} of the {total} tokens "
    "(Ulysses all-to-all / ring attention buffers are in the communication allowance).",
    "train.no_fused_attention": "Attention scores are materialised (no fused attention).",
    "train.logits": "Cross-entropy over the full vocabulary; chunked loss upcasts one chunk at a time.",
    "train.logits_fp32_held": "The model returns its logits upcast to fp32 and the loop keeps them through backward "
    "(prime-rl): at the loss's backward the fp32 logits, the log-softmax and both gradients are alive at once.",
    "train.logits_token_chunks": (
        "The LM head and the loss run over {chunk} tokens at a time: only one chunk's logits, their fp32 upcast "
        "and gradient exist at once."
    ),
    "train.step": "{how}.",
    "train.step_in_backward": "optimizer fused into backward",
    "train.step_foreach": "foreach step: one {bytes} B temporary per parameter",
    "train.step_sgd": "plain SGD updates in place",
    "train.step_per_tensor": "per-tensor step: one fp32 temporary of the largest tensor",
    "train.main_grad": "fp32 main_grad buffer; {plan}.",
    "train.activation_offload": "Activations offloaded to host memory: the card keeps the layer being computed and "
    "the one in transfer (the host link must keep up).",
    "train.zero3_live": "DeepSpeed ZeRO-3: the unit being computed plus the prefetch bucket, capped by max live "
    "parameters.",
    "train.gathered": "Current + prefetched unit all-gathered (DeepSpeed: 4 B x largest layer in 16-bit).",
    "train.fsdp_root": "FSDP keeps its root unit (the embeddings and LM head) gathered from the forward until the "
    "backward.",
    "train.ddp_buckets": "DDP reduces through bucket buffers unless gradient_as_bucket_view=True.",
    "train.zero2_reduce_buffers": "DeepSpeed ZeRO-2 copies each gradient into contiguous 16-bit reduce buffers "
    "allocated at every backward (two with overlap_comm; 4.5 x reduce_bucket_size each under DeepSpeed 0.3).",
    "train.gradients_last_recompute": "Under checkpointing backward rebuilds the first layer while the later "
    "layers' gradients are held.",
    "train.autocast": "AMP casts fp32 weights to 16-bit for each matmul and autograd keeps the casts for backward.",
    "train.dequant": "Quantized layers are dequantized one at a time for the matmul.",
    # The parallelism plan in words (parallel.py)
    "plan.over": "{strategy} over {cards} card(s)",
    "plan.single": "single replica",
    "plan.ddp": "DDP (replicated)",
    "plan.fsdp": "FSDP full shard",
    "plan.pipeline": "pipeline split",
    "plan.tp": "TP={tp}",
    "plan.distributed_optimizer": "distributed optimizer",
    "plan.contiguous_grad_buffer": "contiguous fp32 grad buffer",
    "plan.offload_all": "params+optimizer offloaded",
    "plan.offload_optimizer": "optimizer offloaded",
    # What a range means (calibration.py, decision 0462)
    "range.meaning": "The measured peak falls in this range in about 9 runs out of 10: {low}\u00a0% to {high}\u00a0% "
    "around the expected peak, how far {cases} published measurements of {kind} fell from the estimate, plus the "
    "likely size of what is not modelled.",
    "range.kind.serving": "serving",
    "range.kind.transformers_generate": "generation with Hugging Face transformers",
    "range.kind.not_modelled_runtime": "a runtime the estimate does not model (CTranslate2)",
    "range.kind.generation": "image and video generation",
    "range.kind.training_one_card": "training on one card",
    "range.kind.training_one_card_ckpt_or_fp32": "training on one card with its activations checkpointed or all in "
    "fp32",
    "range.kind.training_several_cards": "training on several cards",
    "range.widened": "Widened for what the estimate is less sure of: {reasons}.",
    "range.kind.quantized_base": "a quantized base model",
    "range.kind.offloading": "offloading to host memory",
    "range.kind.pipeline": "pipeline stages",
    "range.kind.tensor_parallel": "tensor parallelism",
    "range.kind.vision_language": "images in the sequence",
    "range.kind.vision_language_training": "training on images (the vision encoder's own activations)",
    "range.kind.vae_slicing": "a VAE decode in slices",
    # Notes on the whole estimate (estimate.py)
    "note.per_card": "Per card, busiest card; memory is never pooled across cards.",
    "note.server": "vLLM (and SGLang) pre-allocate gpu_memory_utilization of the card for KV blocks, so the card "
    "looks full; this peak is what the workload needs, and the rest of the card holds more KV cache (more tokens "
    "or more concurrent requests).",
    "note.llama_cpp": "llama.cpp allocates the whole n_ctx KV cache up front plus per-GPU compute buffers.",
}

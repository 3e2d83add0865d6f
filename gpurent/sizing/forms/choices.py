"""The estimator form's choices, defaults, examples and field groups (what `estimate.EstimateForm` offers)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from vramcalc import Engine, ModelKind
from vramcalc.presets import list_presets

from .recipes import RECIPE_ENGINE_FIELDS, RECIPE_FIELDSET, RECIPE_OPTIONS, RECIPE_SWITCHES, RECIPE_TRAINING

FAMILY_LABELS = {
    ModelKind.DECODER: _("Language models"),
    ModelKind.ENCODER_DECODER: _("Encoder–decoder models (T5 family)"),
    ModelKind.ENCODER: _("Encoders (BERT family)"),
    ModelKind.VISION: _("Vision transformers"),
    ModelKind.DIFFUSION: _("Image generation (diffusion)"),
}


def preset_choices() -> list[tuple[str, list[tuple[str, str]]]]:
    """Presets grouped by workload family, in the order of `FAMILY_LABELS`."""
    groups: dict[ModelKind, list[tuple[str, str]]] = {kind: [] for kind in FAMILY_LABELS}
    for preset in list_presets():
        groups[preset.model.kind].append((preset.id, preset.id))
    return [(str(FAMILY_LABELS[kind]), items) for kind, items in groups.items() if items]


# Each choice is one `Quantization` as the engine takes it.
QUANTIZATIONS: dict[str, tuple[Any, dict[str, Any]]] = {
    "none": (_("Not quantized"), {}),  # short enough for a phone's select (decision 0541)
    "gptq_4": (_("GPTQ 4-bit, group 128"), {"method": "gptq", "bits": 4, "group_size": 128}),
    "awq_4": (_("AWQ 4-bit, group 128"), {"method": "awq", "bits": 4, "group_size": 128}),
    "bnb_nf4": (_("bitsandbytes NF4"), {"method": "bnb_nf4"}),
    "bnb_nf4_dq": (_("bitsandbytes NF4, double-quantized"), {"method": "bnb_nf4", "double_quant": True}),
    "bnb_int8": (_("bitsandbytes LLM.int8"), {"method": "bnb_int8"}),
    "fp8": (_("FP8 (e4m3)"), {"method": "fp8"}),
    "mxfp4": (_("MXFP4"), {"method": "mxfp4"}),
    "nvfp4": (_("NVFP4"), {"method": "nvfp4"}),
    "int8_weight_only": (_("int8 weight-only (torchao)"), {"method": "int8_weight_only"}),
    "int4_weight_only": (_("int4 weight-only (torchao)"), {"method": "int4_weight_only"}),
    "gguf_q8_0": (_("GGUF Q8_0"), {"method": "gguf", "gguf_type": "q8_0"}),
    "gguf_q5_k_m": (_("GGUF Q5_K_M"), {"method": "gguf", "gguf_type": "q5_k_m"}),
    "gguf_q4_k_m": (_("GGUF Q4_K_M"), {"method": "gguf", "gguf_type": "q4_k_m"}),
}
DTYPES = [("bf16", "bf16"), ("fp16", "fp16"), ("fp32", "fp32")]
KV_DTYPES = [
    ("bf16", "bf16"),
    ("fp16", "fp16"),
    ("fp8", "fp8"),
    ("q8_0", "q8_0 (llama.cpp)"),
    ("q4_0", "q4_0 (llama.cpp)"),
]
OPTIMIZERS = [
    ("adamw", _("AdamW")),
    ("adamw_8bit", _("AdamW 8-bit")),
    ("paged_adamw", _("Paged AdamW")),
    ("paged_adamw_8bit", _("Paged AdamW 8-bit")),
    ("adafactor", _("Adafactor")),
    ("lion", _("Lion")),
    ("sgd_momentum", _("SGD with momentum")),
    ("sgd", _("SGD")),
]
ENGINES = [
    ("vllm", _("vLLM")),
    ("sglang", _("SGLang")),
    ("transformers", _("Transformers")),
    ("llama_cpp", _("llama.cpp")),
    ("ctranslate2", _("CTranslate2 (not modelled)")),
]
STRATEGIES = [
    ("single", _("One copy, tensor parallel")),
    ("ddp", _("DDP: full copy per card")),
    ("zero1", _("ZeRO-1: shard optimizer")),
    ("zero2", _("ZeRO-2: + gradients")),
    ("fsdp", _("FSDP / ZeRO-3: shard all")),
    ("pipeline", _("Pipeline (inference)")),
]
COMPUTE_DTYPES = [("", _("Same as the weights")), *DTYPES]
STATE_DTYPES = [("fp32", "fp32"), ("bf16", "bf16"), ("fp16", "fp16")]
LORA_TARGETS = [
    ("all_linear", _("All linear layers")),
    ("attention", _("Attention projections")),
    ("qv", _("Query and value only")),
]
ATTENTION = [("fused", _("Fused (FlashAttention / SDPA)")), ("eager", _("Eager (score matrices stored)"))]
# What a choice does is the field's help text, not a part of its label: a chosen label must fit its select on a phone.
GUIDANCE = [("on", _("On")), ("off", _("Off"))]

# Advanced switches: form field -> dotted engine field (booleans are checkboxes, "on" when set).
ADVANCED_SWITCHES = {
    "master_weights": "precision.master_weights",
    "master_weights_16bit": "precision.master_weights_16bit",
    "fused_optimizer": "training.fused_optimizer",
    "optimizer_in_backward": "training.optimizer_in_backward",
    "chunked_loss": "training.chunked_loss",
    "compiled": "training.compiled",
    "compiled_loss": "training.compiled_loss",
    "tuple_kv_cache": "runtime.tuple_kv_cache",
    "kept_generate_output": "runtime.kept_generate_output",
    "softmax_in_compute_dtype": "runtime.softmax_in_compute_dtype",
    "prompt_logits": "runtime.prompt_logits",
    "varying_lengths": "training.varying_lengths",
    "gradients_freed": "training.gradients_freed",
    "logits_sum_loss": "training.logits_sum_loss",
    "loss_grad_in_place": "training.loss_grad_in_place",
    "loss_in_compute_precision": "training.loss_in_compute_precision",
    "norm_fp32_input": "training.norm_fp32_input",
    "kv_expanded": "training.kv_expanded",
    "masked_lm_head": "training.masked_lm_head",
    "vision_encoder_trained": "training.vision_encoder_trained",
    "fp32_logits_held": "training.fp32_logits_held",
    "lora_dropout": "lora.dropout",
    "offload_optimizer": "parallel.offload_optimizer",
    "offload_params": "parallel.offload_params",
    "grad_bucket_view": "parallel.grad_bucket_view",
    "activation_offloading": "training.activation_offloading",
    "distributed_optimizer": "parallel.distributed_optimizer",
    "contiguous_grad_buffer": "parallel.contiguous_grad_buffer",
    "fsdp_no_sync": "parallel.fsdp_no_sync",
    "fsdp_embeddings_sharded": "parallel.fsdp_embeddings_sharded",
    "vae_tiling": "diffusion.vae_tiling",
    "vae_slicing": "diffusion.vae_slicing",
    "cpu_offload": "diffusion.cpu_offload",
    "quantize_text_encoders": "diffusion.quantize_text_encoders",
    "diffusion_autocast": "diffusion.autocast",
    "safety_checker": "diffusion.safety_checker",
    "text_encoders_fp32": "diffusion.text_encoders_fp32",
    "train_text_encoder": "diffusion.train_text_encoder",
    "cached_latents": "diffusion.cached_latents",
    "cached_text_embeddings": "diffusion.cached_text_embeddings",
} | RECIPE_SWITCHES

# What the page shows before a customer changes anything; also the base of the "Try" links.
DEFAULTS: dict[str, str] = {
    "preset": "llama-3.1-8b",
    "workload": "inference",
    "weights": "bf16",
    "quantization": "none",
    "kv_cache": "bf16",
    "batch_size": "1",
    "seq_len": "4096",
    "concurrent": "1",
    "optimizer": "adamw",
    "lora_rank": "8",
    "engine": "vllm",
    "strategy": "single",
    "cards": "1",
    "tensor_parallel": "1",
    "sequence_parallel": "1",
    "attention": "fused",
    "guidance": "on",
    "optimizer_states": "fp32",
    "lora_targets": "all_linear",
    "gpu_memory_utilization": "90",
    "cuda_context_mib": "1024",
    "comm_buffer_mib": "512",
    "max_num_batched_tokens": "8192",
    "max_num_seqs": "256",
    "cuda_graph_mib": "768",
}

# The two questions of the issue, one click away ("Try: …" links prefill the form by query string).
EXAMPLES: list[tuple[Any, dict[str, str]]] = [
    (
        _("Llama-3.1-70B serving 16 concurrent 8k-token requests in bf16"),
        {"preset": "llama-3.1-70b", "workload": "inference", "seq_len": "8192", "concurrent": "16"},
    ),
    (
        _("QLoRA on a 70B model at 4k context"),
        {
            "preset": "llama-3.1-70b",
            "workload": "qlora",
            "quantization": "bnb_nf4_dq",
            "seq_len": "4096",
            "optimizer": "paged_adamw",
            "lora_rank": "16",
            "activation_checkpointing": "on",
        },
    ),
    (
        _("SDXL images at 1024 × 1024"),
        {"preset": "sdxl-base-1.0", "workload": "diffusion", "weights": "fp16", "image_size": "1024"},
    ),
    (
        _("SDXL LoRA training at 1024 × 1024"),
        {"preset": "sdxl-base-1.0", "workload": "lora", "image_size": "1024", "lora_rank": "16"},
    ),
    (
        _("Llama-3.1-8B at 32k context, sequence parallel over 8 cards"),
        {
            "preset": "llama-3.1-8b",
            "workload": "full_finetune",
            "seq_len": "32768",
            "strategy": "fsdp",
            "cards": "8",
            "sequence_parallel": "8",
            "activation_checkpointing": "on",
        },
    ),
]

# Engine field (dotted, or its first part) → form field that shows the message; each switch shows its own refusals.
ENGINE_FIELDS = {
    "model": "preset",
    "config": "hf_config",
    "safetensors": "header",
    "index": "header",
    "workload": "workload",
    "precision": "weights",
    "precision.kv_cache": "kv_cache",
    "quantization": "quantization",
    "batch_size": "batch_size",
    "seq_len": "seq_len",
    "context_len": "context_len",
    "concurrent_sequences": "concurrent",
    "images_per_sequence": "images_per_sequence",
    "image_height": "image_size",
    "image_width": "image_size",
    "training": "optimizer",
    "training.activation_checkpointing": "activation_checkpointing",
    "lora": "lora_rank",
    "parallel": "strategy",
    "parallel.cards": "cards",
    "parallel.tensor_parallel": "tensor_parallel",
    "parallel.sequence_parallel": "sequence_parallel",
    "parallel.zero3_prefetch_params": "zero3_prefetch_params",
    "parallel.zero3_max_live_params": "zero3_max_live_params",
    "parallel.zero2_reduce_buffer_params": "zero2_reduce_buffer_params",
    "precision.compute": "compute",
    "precision.optimizer_states": "optimizer_states",
    "runtime": "engine",
    "runtime.gpu_memory_utilization_pct": "gpu_memory_utilization",
    "runtime.cuda_context_mib": "cuda_context_mib",
    "runtime.comm_buffer_mib": "comm_buffer_mib",
}
ENGINE_FIELDS |= {path: name for name, path in ADVANCED_SWITCHES.items()} | RECIPE_ENGINE_FIELDS


# The glossary entries each field links to (anchors of `gpurent.glossary.terms`).
FIELD_TERMS: dict[str, tuple[str, ...]] = {
    "preset": ("vram",),
    "weights": ("quantization",),
    "quantization": ("quantization",),
    "kv_cache": ("kv-cache",),
    "batch_size": ("vram",),
    "seq_len": ("kv-cache",),
    "context_len": ("kv-cache",),
    "concurrent": ("kv-cache",),
    "image_size": ("vae",),
    "optimizer": ("vram",),
    "lora_rank": ("lora",),
    "activation_checkpointing": ("vram",),
    "engine": ("kv-cache",),
    "strategy": ("ddp", "fsdp"),
    "cards": ("tensor-parallelism",),
    "tensor_parallel": ("tensor-parallelism",),
    "workload": ("vram",),
    "hf_config": ("vram",),
    "header": ("vram",),
}

FIELDSETS: list[tuple[Any, str, tuple[str, ...]]] = [
    (_("Model"), "model", ("preset", "hf_config", "header")),
    (_("Workload and precision"), "workload", ("workload", "weights", "quantization", "kv_cache")),
    (
        _("Sizes"),
        "sizes",
        ("batch_size", "seq_len", "context_len", "concurrent", "image_size", "images_per_sequence"),
    ),
    (_("Fine-tuning recipe"), "training", ("optimizer", "lora_rank", "activation_checkpointing", "varying_lengths")),
    (_("Serving"), "serving", ("engine",)),
    (_("Parallelism"), "parallel", ("strategy", "cards", "tensor_parallel", "sequence_parallel")),
    RECIPE_FIELDSET,
    (
        _("Advanced"),
        "advanced",
        (
            "compute",
            "optimizer_states",
            "master_weights",
            "master_weights_16bit",
            "fused_optimizer",
            "optimizer_in_backward",
            "chunked_loss",
            "compiled",
            "compiled_loss",
            "gradients_freed",
            "logits_sum_loss",
            "loss_grad_in_place",
            "loss_in_compute_precision",
            "norm_fp32_input",
            "kv_expanded",
            "masked_lm_head",
            "vision_encoder_trained",
            "fp32_logits_held",
            "lora_targets",
            "lora_dropout",
            "attention",
            "offload_optimizer",
            "offload_params",
            "grad_bucket_view",
            "activation_offloading",
            "distributed_optimizer",
            "contiguous_grad_buffer",
            "fsdp_no_sync",
            "fsdp_embeddings_sharded",
            "zero3_prefetch_params",
            "zero3_max_live_params",
            "zero2_reduce_buffer_params",
            "guidance",
            "diffusion_task",
            "num_frames",
            "frame_width",
            "vae_tiling",
            "vae_slicing",
            "cpu_offload",
            "quantize_text_encoders",
            "diffusion_autocast",
            "safety_checker",
            "text_encoders_fp32",
            "train_text_encoder",
            "cached_latents",
            "cached_text_embeddings",
            "gpu_memory_utilization",
            "cuda_context_mib",
            "comm_buffer_mib",
            "max_num_batched_tokens",
            "max_num_seqs",
            "cuda_graph_mib",
            "tuple_kv_cache",
            "kept_generate_output",
            "softmax_in_compute_dtype",
            "prompt_logits",
        ),
    ),
]

# Every engine option (`vramcalc.option_schema`) and the form field that sets it (a test keeps them equal).
FORM_OPTIONS = {
    "workload": "workload",
    "precision.weights": "weights",
    "precision.compute": "compute",
    "precision.kv_cache": "kv_cache",
    "precision.optimizer_states": "optimizer_states",
    "precision.master_weights": "master_weights",
    "precision.master_weights_16bit": "master_weights_16bit",
    "quantization.method": "quantization",
    "quantization.bits": "quantization",
    "quantization.group_size": "quantization",
    "quantization.double_quant": "quantization",
    "quantization.gguf_type": "quantization",
    "batch_size": "batch_size",
    "seq_len": "seq_len",
    "context_len": "context_len",
    "concurrent_sequences": "concurrent",
    "image_height": "image_size",
    "image_width": "frame_width",
    "flash_attention": "attention",
    "training.optimizer": "optimizer",
    "training.activation_checkpointing": "activation_checkpointing",
    "lora.rank": "lora_rank",
    "lora.targets": "lora_targets",
    "parallel.strategy": "strategy",
    "parallel.cards": "cards",
    "parallel.tensor_parallel": "tensor_parallel",
    "parallel.sequence_parallel": "sequence_parallel",
    "runtime.engine": "engine",
    "runtime.cuda_context_mib": "cuda_context_mib",
    "runtime.comm_buffer_mib": "comm_buffer_mib",
    "runtime.gpu_memory_utilization_pct": "gpu_memory_utilization",
    "runtime.max_num_batched_tokens": "max_num_batched_tokens",
    "runtime.max_num_seqs": "max_num_seqs",
    "runtime.cuda_graph_mib": "cuda_graph_mib",
    "diffusion.guidance": "guidance",
    "diffusion.num_frames": "num_frames",
    "images_per_sequence": "images_per_sequence",
    "parallel.zero3_prefetch_params": "zero3_prefetch_params",
    "parallel.zero3_max_live_params": "zero3_max_live_params",
    "parallel.zero2_reduce_buffer_params": "zero2_reduce_buffer_params",
} | {path: name for name, path in ADVANCED_SWITCHES.items()}
FORM_OPTIONS |= RECIPE_OPTIONS

# Which field groups and fields apply to each workload (the rest are hidden, server-side).
SERVING_ONLY = (
    "concurrent",
    "context_len",
    "engine",
    "kv_cache",
    "gpu_memory_utilization",
    "max_num_batched_tokens",
    "max_num_seqs",
    "cuda_graph_mib",
    "tuple_kv_cache",
    "kept_generate_output",
    "softmax_in_compute_dtype",
    "prompt_logits",
)
# Serving fields only some engines read: hidden while another engine is chosen (their values travel and the engine
# ignores them). vLLM takes a share of the card; vLLM and SGLang profile a scheduler step with CUDA graphs; the
# switches about transformers' generate; the eager softmax's precision, which llama.cpp's graph does not run and
# CTranslate2 always takes in the compute precision (shown with eager attention only: `hidden_field_names`).
_SERVERS = tuple(engine.value for engine in Engine if engine.is_server)
FIELD_ENGINES: dict[str, tuple[str, ...]] = {
    "gpu_memory_utilization": (Engine.VLLM.value,),
    "max_num_batched_tokens": _SERVERS,
    "max_num_seqs": _SERVERS,
    "cuda_graph_mib": _SERVERS,
    "tuple_kv_cache": (Engine.TRANSFORMERS.value,),
    "kept_generate_output": (Engine.TRANSFORMERS.value,),
    "prompt_logits": (Engine.TRANSFORMERS.value,),
    "softmax_in_compute_dtype": (Engine.TRANSFORMERS.value, *_SERVERS),
}
TRAINING_ONLY = (
    "optimizer",
    "activation_checkpointing",
    "optimizer_states",
    "master_weights",
    "master_weights_16bit",
    "fused_optimizer",
    "optimizer_in_backward",
    "chunked_loss",
    "compiled",
    "compiled_loss",
    "varying_lengths",
    "gradients_freed",
    "logits_sum_loss",
    "loss_grad_in_place",
    "loss_in_compute_precision",
    "norm_fp32_input",
    "kv_expanded",
    "masked_lm_head",
    "vision_encoder_trained",
    "fp32_logits_held",
    "offload_optimizer",
    "offload_params",
    "grad_bucket_view",
    "sequence_parallel",
    "activation_offloading",
    "distributed_optimizer",
    "contiguous_grad_buffer",
    "fsdp_no_sync",
    "fsdp_embeddings_sharded",
    "zero3_prefetch_params",
    "zero3_max_live_params",
    "zero2_reduce_buffer_params",
    *RECIPE_TRAINING,
)
ADAPTER_ONLY = ("lora_rank", "lora_targets", "lora_dropout")
DIFFUSION_ONLY = (
    "guidance",
    "vae_tiling",
    "vae_slicing",
    "cpu_offload",
    "quantize_text_encoders",
    "diffusion_autocast",
    "safety_checker",
    "text_encoders_fp32",
    "diffusion_task",
)
# Shown only when a diffusion model trains (decision 0220).
DIFFUSION_TRAINING_ONLY = ("train_text_encoder", "cached_latents", "cached_text_embeddings")
# Fields that do not apply to image models (no token sequence, no KV cache).
DIFFUSION_HIDES = (
    "seq_len",
    "context_len",
    "kv_cache",
    "chunked_loss",
    "sequence_parallel",
    "images_per_sequence",
)

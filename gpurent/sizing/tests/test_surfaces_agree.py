"""The form, the CLI and the API reach the same engine input as the library, for the options added late.

Each case states one estimate three ways; the same three checks run on every case (video diffusion, decision
0223; Megatron-style DDP with activation offloading). A new option adds a case here, not a test file.
"""

import io
import json
from dataclasses import dataclass
from typing import Any

import pytest

from gpurent.accounts.services import api_token_create
from gpurent.sizing.forms.choices import DEFAULTS
from gpurent.sizing.forms.estimate import EstimateForm
from vramcalc import estimate
from vramcalc.cli import main as vramcalc_main
from vramcalc.serialize import inputs_from_dict


@dataclass(frozen=True)
class Case:
    """One estimate: `library` is the engine's input (also the API body), `form` the estimator's fields on top
    of its defaults, `cli` the `vramcalc` flags (without `--json`)."""

    name: str
    library: dict[str, Any]
    form: dict[str, str]
    cli: str


CASES = [
    Case(
        "video",
        library={
            "model": "cogvideox-2b",
            "workload": "diffusion",
            "precision": {"weights": "fp16", "compute": "fp16", "kv_cache": "bf16"},
            "seq_len": 4096,  # the form always sends one; a diffusion estimate does not use it
            "image_height": 480,
            "image_width": 720,
            "diffusion": {"guidance": True, "num_frames": 81, "cpu_offload": True},
        },
        form={
            "preset": "cogvideox-2b",
            "workload": "diffusion",
            "weights": "fp16",
            "image_size": "480",
            "frame_width": "720",
            "num_frames": "81",
            "cpu_offload": "on",
        },
        cli=(
            "--preset cogvideox-2b --workload diffusion --weights fp16 --image-height 480 --image-width 720 "
            "--diffusion-num-frames 81 --cpu-offload"
        ),
    ),
    Case(
        "megatron",
        library={
            "model": "llama-3.1-8b",
            "workload": "full_finetune",
            "seq_len": 4096,
            "training": {"optimizer": "adamw", "activation_checkpointing": True, "activation_offloading": True},
            "parallel": {
                "strategy": "ddp",
                "cards": 8,
                "tensor_parallel": 1,
                "distributed_optimizer": True,
                "contiguous_grad_buffer": True,
            },
        },
        form={
            "workload": "full_finetune",
            "activation_checkpointing": "on",
            "strategy": "ddp",
            "cards": "8",
            "activation_offloading": "on",
            "distributed_optimizer": "on",
            "contiguous_grad_buffer": "on",
        },
        cli=(
            "--preset llama-3.1-8b --workload full_finetune --seq-len 4096 --checkpointing --strategy ddp --cards 8 "
            "--training-activation-offloading --parallel-distributed-optimizer --parallel-contiguous-grad-buffer"
        ),
    ),
    # Issue 31 (decision 0464): pipeline stages with FSDP, sequence parallelism inside TP, layer-selective
    # checkpointing and Float8; then ring attention with per-operation checkpointing; then image-to-image (0465).
    Case(
        "pipeline",
        library={
            "model": "llama-3.1-8b",
            "workload": "full_finetune",
            "seq_len": 4096,
            "training": {"optimizer": "adamw", "activation_checkpointing": True, "checkpoint_every": 2, "float8": True},
            "parallel": {
                "strategy": "fsdp",
                "cards": 16,
                "tensor_parallel": 2,
                "tp_sequence_parallel": True,
                "pipeline_parallel": 4,
                "pipeline_schedule": "interleaved_1f1b",
                "pipeline_microbatches": 8,
            },
        },
        form={
            "workload": "full_finetune",
            "activation_checkpointing": "on",
            "checkpoint_every": "2",
            "float8": "on",
            "strategy": "fsdp",
            "cards": "16",
            "tensor_parallel": "2",
            "tp_sequence_parallel": "on",
            "pipeline_parallel": "4",
            "pipeline_schedule": "interleaved_1f1b",
            "pipeline_microbatches": "8",
        },
        cli=(
            "--preset llama-3.1-8b --workload full_finetune --seq-len 4096 --checkpointing "
            "--training-checkpoint-every 2 --training-float8 --strategy fsdp --cards 16 --tp 2 "
            "--parallel-tp-sequence-parallel --parallel-pipeline-parallel 4 "
            "--parallel-pipeline-schedule interleaved_1f1b --parallel-pipeline-microbatches 8"
        ),
    ),
    # Engine 0.3.24 (decision 0566): column-parallel linears that save their all-gathered input (nanotron).
    Case(
        "tp_gathered_inputs_saved",
        library={
            "model": "llama-3.2-1b",
            "workload": "full_finetune",
            "seq_len": 4096,
            "training": {"optimizer": "adamw"},
            "parallel": {
                "strategy": "single",
                "cards": 8,
                "tensor_parallel": 8,
                "tp_sequence_parallel": True,
                "tp_gathered_inputs_saved": True,
            },
        },
        form={
            "preset": "llama-3.2-1b",
            "workload": "full_finetune",
            "seq_len": "4096",
            "strategy": "single",
            "cards": "8",
            "tensor_parallel": "8",
            "tp_sequence_parallel": "on",
            "tp_gathered_inputs_saved": "on",
        },
        cli=(
            "--preset llama-3.2-1b --workload full_finetune --seq-len 4096 --strategy single --cards 8 --tp 8 "
            "--parallel-tp-sequence-parallel --parallel-tp-gathered-inputs-saved"
        ),
    ),
    # Engine 0.3.26 (decision 0570): DeepSpeed ZeRO-2's contiguous gradient reduce buffers, stated in elements.
    Case(
        "zero2_reduce_buffers",
        library={
            "model": "llama-3.2-1b",
            "workload": "full_finetune",
            "seq_len": 4096,
            "training": {"optimizer": "adamw"},
            "parallel": {"strategy": "zero2", "cards": 8, "zero2_reduce_buffer_params": 1_800_000_000},
        },
        form={
            "preset": "llama-3.2-1b",
            "workload": "full_finetune",
            "seq_len": "4096",
            "strategy": "zero2",
            "cards": "8",
            "zero2_reduce_buffer_params": "1800",
        },
        cli=(
            "--preset llama-3.2-1b --workload full_finetune --seq-len 4096 --strategy zero2 --cards 8 "
            "--parallel-zero2-reduce-buffer-params 1800000000"
        ),
    ),
    Case(
        "ring",
        library={
            "model": "llama-3.1-8b",
            "workload": "full_finetune",
            "seq_len": 16384,
            "training": {
                "optimizer": "adamw",
                "activation_checkpointing": False,
                "selective_op_checkpointing": True,
                "loss_chunk_tokens": 8192,
            },
            "parallel": {
                "strategy": "fsdp",
                "cards": 8,
                "tensor_parallel": 1,
                "sequence_parallel": 4,
                "context_parallel_ring": True,
            },
        },
        form={
            "workload": "full_finetune",
            "seq_len": "16384",
            "selective_op_checkpointing": "on",
            "loss_chunk_tokens": "8192",
            "strategy": "fsdp",
            "cards": "8",
            "sequence_parallel": "4",
            "context_parallel_ring": "on",
        },
        cli=(
            "--preset llama-3.1-8b --workload full_finetune --seq-len 16384 --training-selective-op-checkpointing "
            "--training-loss-chunk-tokens 8192 --strategy fsdp --cards 8 --parallel-sequence-parallel 4 "
            "--parallel-context-parallel-ring"
        ),
    ),
    # Engine 0.3.3 (decision 0511): samples padded to the longest of each batch.
    Case(
        "varying_lengths",
        library={
            "model": "llama-3.1-8b",
            "workload": "lora",
            "seq_len": 2048,
            "training": {"optimizer": "adamw", "activation_checkpointing": True, "varying_lengths": True},
            "lora": {"rank": 16},
        },
        form={
            "workload": "lora",
            "seq_len": "2048",
            "lora_rank": "16",
            "activation_checkpointing": "on",
            "varying_lengths": "on",
        },
        cli=(
            "--preset llama-3.1-8b --workload lora --seq-len 2048 --checkpointing --lora-rank 16 "
            "--training-varying-lengths"
        ),
    ),
    # Engine 0.3.8 (decision 0525): gradients freed after each step, one micro-batch a step.
    Case(
        "gradients_freed",
        library={
            "model": "llama-3.2-1b",
            "workload": "full_finetune",
            "seq_len": 1024,
            "batch_size": 8,
            "training": {"optimizer": "adamw", "gradients_freed": True},
        },
        form={
            "preset": "llama-3.2-1b",
            "workload": "full_finetune",
            "seq_len": "1024",
            "batch_size": "8",
            "gradients_freed": "on",
        },
        cli=("--preset llama-3.2-1b --workload full_finetune --seq-len 1024 --batch 8 --training-gradients-freed"),
    ),
    # Engine 0.3.9 (decision 0526): the loss is the sum of the logits, with gradients freed after each step.
    Case(
        "logits_sum_loss",
        library={
            "model": "llama-3.2-1b",
            "workload": "full_finetune",
            "seq_len": 1024,
            "batch_size": 8,
            "training": {"optimizer": "adamw", "gradients_freed": True, "logits_sum_loss": True},
        },
        form={
            "preset": "llama-3.2-1b",
            "workload": "full_finetune",
            "seq_len": "1024",
            "batch_size": "8",
            "gradients_freed": "on",
            "logits_sum_loss": "on",
        },
        cli=(
            "--preset llama-3.2-1b --workload full_finetune --seq-len 1024 --batch 8 --training-gradients-freed "
            "--training-logits-sum-loss"
        ),
    ),
    # Engine 0.3.14: Unsloth's fused loss writes the logits' gradient into them.
    Case(
        "loss_grad_in_place",
        library={
            "model": "llama-3.1-8b",
            "workload": "qlora",
            "seq_len": 2048,
            "batch_size": 2,
            "quantization": {"method": "bnb_nf4"},
            "training": {"optimizer": "adamw", "activation_checkpointing": True, "loss_grad_in_place": True},
        },
        form={
            "preset": "llama-3.1-8b",
            "workload": "qlora",
            "seq_len": "2048",
            "batch_size": "2",
            "quantization": "bnb_nf4",
            "activation_checkpointing": "on",
            "loss_grad_in_place": "on",
        },
        cli=(
            "--preset llama-3.1-8b --workload qlora --seq-len 2048 --batch 2 --quant bnb_nf4 --checkpointing "
            "--training-loss-grad-in-place"
        ),
    ),
    # Engine 0.3.17: DeepSpeed's 16-bit master weights (bf16_master_weights_and_grads) under ZeRO-3.
    Case(
        "master_weights_16bit",
        library={
            "model": "llama-3.2-1b",
            "workload": "full_finetune",
            "seq_len": 512,
            "batch_size": 1,
            "precision": {
                "weights": "bf16",
                "compute": "bf16",
                "optimizer_states": "bf16",
                "master_weights_16bit": True,
            },
            "training": {"optimizer": "adamw", "activation_checkpointing": True},
            "parallel": {"strategy": "fsdp", "cards": 4},
        },
        form={
            "preset": "llama-3.2-1b",
            "workload": "full_finetune",
            "seq_len": "512",
            "batch_size": "1",
            "weights": "bf16",
            "compute": "bf16",
            "optimizer_states": "bf16",
            "activation_checkpointing": "on",
            "strategy": "fsdp",
            "cards": "4",
            "master_weights_16bit": "on",
        },
        cli=(
            "--preset llama-3.2-1b --workload full_finetune --seq-len 512 --batch 1 --weights bf16 --compute bf16 "
            "--optimizer-dtype bf16 --checkpointing --strategy fsdp --cards 4 --master-weights-16bit"
        ),
    ),
    # Engine 0.3.28 (decision 0576): fp32 logits returned by the model and held by the loop through backward.
    Case(
        "fp32_logits_held",
        library={
            "model": "llama-3.2-1b",
            "workload": "full_finetune",
            "seq_len": 8192,
            "batch_size": 1,
            "training": {"optimizer": "adamw", "activation_checkpointing": True, "fp32_logits_held": True},
        },
        form={
            "preset": "llama-3.2-1b",
            "workload": "full_finetune",
            "seq_len": "8192",
            "batch_size": "1",
            "activation_checkpointing": "on",
            "fp32_logits_held": "on",
        },
        cli=(
            "--preset llama-3.2-1b --workload full_finetune --seq-len 8192 --batch 1 --checkpointing "
            "--training-fp32-logits-held"
        ),
    ),
    # Engine 0.3.15: a loss on the 16-bit logits, no fp32 upcast (DeepSpeed's and ColossalAI's fp16 engines).
    Case(
        "loss_in_compute_precision",
        library={
            "model": "gpt2-xl",
            "workload": "full_finetune",
            "seq_len": 1024,
            "batch_size": 8,
            "precision": {"weights": "fp16", "compute": "fp16"},
            "training": {"optimizer": "adamw", "activation_checkpointing": True, "loss_in_compute_precision": True},
        },
        form={
            "preset": "gpt2-xl",
            "workload": "full_finetune",
            "seq_len": "1024",
            "batch_size": "8",
            "weights": "fp16",
            "compute": "fp16",
            "activation_checkpointing": "on",
            "loss_in_compute_precision": "on",
        },
        cli=(
            "--preset gpt2-xl --workload full_finetune --seq-len 1024 --batch 8 --weights fp16 --compute fp16 "
            "--checkpointing --training-loss-in-compute-precision"
        ),
    ),
    # Engine 0.3.14: LitGPT's RMSNorm keeps an fp32 copy of its input; its attention expands grouped keys and values.
    Case(
        "litgpt_norms_and_expanded_kv",
        library={
            "model": "llama-3.2-1b",
            "workload": "full_finetune",
            "seq_len": 2048,
            "batch_size": 4,
            "training": {"optimizer": "adamw", "norm_fp32_input": True, "kv_expanded": True},
        },
        form={
            "preset": "llama-3.2-1b",
            "workload": "full_finetune",
            "seq_len": "2048",
            "batch_size": "4",
            "norm_fp32_input": "on",
            "kv_expanded": "on",
        },
        cli=(
            "--preset llama-3.2-1b --workload full_finetune --seq-len 2048 --batch 4 --training-norm-fp32-input "
            "--training-kv-expanded"
        ),
    ),
    # Engine 0.3.19: Stable Diffusion 1.x's safety checker stays on the card, with model CPU offload too.
    Case(
        "safety_checker",
        library={
            "model": "sd-1.5",
            "workload": "diffusion",
            "precision": {"weights": "fp16", "compute": "fp16"},
            "seq_len": 4096,  # the form always sends one; a diffusion estimate does not use it
            "diffusion": {"cpu_offload": True, "safety_checker": True},
        },
        form={
            "preset": "sd-1.5",
            "workload": "diffusion",
            "weights": "fp16",
            "cpu_offload": "on",
            "safety_checker": "on",
        },
        cli="--preset sd-1.5 --workload diffusion --weights fp16 --cpu-offload --diffusion-safety-checker",
    ),
    # Engine 0.3.22: the text encoders kept in fp32 beside a 16-bit denoiser and VAE (Open-Sora 1.2's T5).
    Case(
        "text_encoders_fp32",
        library={
            "model": "sd3-medium",
            "workload": "diffusion",
            "precision": {"weights": "bf16", "compute": "bf16"},
            "seq_len": 4096,  # the form always sends one; a diffusion estimate does not use it
            "diffusion": {"text_encoders_fp32": True},
        },
        form={
            "preset": "sd3-medium",
            "workload": "diffusion",
            "weights": "bf16",
            "text_encoders_fp32": "on",
        },
        cli="--preset sd3-medium --workload diffusion --weights bf16 --diffusion-text-encoders-fp32",
    ),
    # Engine 0.3.36: SDXL LoRA trained from cached latents and prompt embeddings: no VAE, no text encoder on the card.
    Case(
        "cached_latents_and_text_embeddings",
        library={
            "model": "sdxl-base-1.0",
            "workload": "lora",
            "precision": {"weights": "bf16", "compute": "bf16"},
            "seq_len": 4096,
            "image_height": 1024,
            "image_width": 1024,
            "training": {"activation_checkpointing": True},
            "lora": {"rank": 16},
            "diffusion": {"cached_latents": True, "cached_text_embeddings": True},
        },
        form={
            "preset": "sdxl-base-1.0",
            "workload": "lora",
            "weights": "bf16",
            "image_size": "1024",
            "activation_checkpointing": "on",
            "lora_rank": "16",
            "cached_latents": "on",
            "cached_text_embeddings": "on",
        },
        cli=(
            "--preset sdxl-base-1.0 --workload lora --weights bf16 --image 1024 --checkpointing --lora-rank 16 "
            "--diffusion-cached-latents --diffusion-cached-text-embeddings"
        ),
    ),
    # Engine 0.3.19: BERT pre-training's masked-LM head computes vocabulary logits for every position.
    Case(
        "masked_lm_head",
        library={
            "model": "bert-base-cased",
            "workload": "full_finetune",
            "seq_len": 512,
            "batch_size": 16,
            "training": {"optimizer": "adamw", "masked_lm_head": True},
        },
        form={
            "preset": "bert-base-cased",
            "workload": "full_finetune",
            "seq_len": "512",
            "batch_size": "16",
            "masked_lm_head": "on",
        },
        cli="--preset bert-base-cased --workload full_finetune --seq-len 512 --batch 16 --training-masked-lm-head",
    ),
    # Engine 0.3.21: a full fine-tune of a vision-language model that trains its vision encoder too (nanoVLM).
    Case(
        "vision_encoder_trained",
        library={
            "model": "llava-1.5-7b",
            "workload": "full_finetune",
            "seq_len": 512,
            "images_per_sequence": 1,
            "training": {"optimizer": "adamw", "vision_encoder_trained": True},
        },
        form={
            "preset": "llava-1.5-7b",
            "workload": "full_finetune",
            "seq_len": "512",
            "images_per_sequence": "1",
            "vision_encoder_trained": "on",
        },
        cli=(
            "--preset llava-1.5-7b --workload full_finetune --seq-len 512 --images-per-sequence 1 "
            "--training-vision-encoder-trained"
        ),
    ),
    # Engine 0.3.5 (decision 0515): torchtitan compiles the loss with the model.
    Case(
        "compiled_loss",
        library={
            "model": "llama-3.1-8b",
            "workload": "full_finetune",
            "seq_len": 8192,
            "training": {"selective_op_checkpointing": True, "compiled": True, "compiled_loss": True},
            "parallel": {"strategy": "fsdp", "cards": 8},
        },
        form={
            "workload": "full_finetune",
            "seq_len": "8192",
            "selective_op_checkpointing": "on",
            "compiled": "on",
            "compiled_loss": "on",
            "strategy": "fsdp",
            "cards": "8",
        },
        cli=(
            "--preset llama-3.1-8b --workload full_finetune --seq-len 8192 --training-selective-op-checkpointing "
            "--training-compiled --training-compiled-loss --strategy fsdp --cards 8"
        ),
    ),
    # Engine 0.3.5 (decision 0516): older transformers pass the KV cache as tuples.
    Case(
        "tuple_kv_cache",
        library={
            "model": "llama-3.1-8b",
            "workload": "inference",
            "seq_len": 512,
            "context_len": 4096,
            "runtime": {"engine": "transformers", "tuple_kv_cache": True},
        },
        form={
            "workload": "inference",
            "seq_len": "512",
            "context_len": "4096",
            "engine": "transformers",
            "tuple_kv_cache": "on",
        },
        cli="--preset llama-3.1-8b --seq-len 512 --context 4096 --engine transformers --runtime-tuple-kv-cache",
    ),
    # Engine 0.3.19: a script that keeps an earlier generate output (return_dict_in_generate=True) while it runs again.
    Case(
        "kept_generate_output",
        library={
            "model": "llama-3.1-8b",
            "workload": "inference",
            "seq_len": 512,
            "context_len": 4096,
            "runtime": {"engine": "transformers", "kept_generate_output": True},
        },
        form={
            "workload": "inference",
            "seq_len": "512",
            "context_len": "4096",
            "engine": "transformers",
            "kept_generate_output": "on",
        },
        cli="--preset llama-3.1-8b --seq-len 512 --context 4096 --engine transformers --runtime-kept-generate-output",
    ),
    # Engine 0.3.20: an eager attention whose softmax stays in the compute dtype (transformers' BART-family code).
    Case(
        "softmax_in_compute_dtype",
        library={
            "model": "llama-3.1-8b",
            "workload": "inference",
            "seq_len": 2048,
            "flash_attention": False,
            "runtime": {"engine": "transformers", "softmax_in_compute_dtype": True},
        },
        form={
            "workload": "inference",
            "seq_len": "2048",
            "engine": "transformers",
            "attention": "eager",
            "softmax_in_compute_dtype": "on",
        },
        cli="--preset llama-3.1-8b --seq-len 2048 --no-flash --engine transformers --runtime-softmax-in-compute-dtype",
    ),
    # Engine 0.3.27 (decision 0573): a forward that computes and upcasts the logits of every prompt position.
    Case(
        "prompt_logits",
        library={
            "model": "llama-3.1-8b",
            "workload": "inference",
            "seq_len": 8192,
            "context_len": 10240,
            "runtime": {"engine": "transformers", "prompt_logits": True},
        },
        form={
            "workload": "inference",
            "seq_len": "8192",
            "context_len": "10240",
            "engine": "transformers",
            "prompt_logits": "on",
        },
        cli="--preset llama-3.1-8b --seq-len 8192 --context 10240 --engine transformers --runtime-prompt-logits",
    ),
    # Engine 0.3.18 (decision 0552): FSDP with the embeddings and LM head as units of their own (torchtune).
    Case(
        "fsdp_embeddings_sharded",
        library={
            "model": "llama-3.1-8b",
            "workload": "full_finetune",
            "seq_len": 2048,
            "batch_size": 2,
            "training": {"optimizer": "adamw", "activation_checkpointing": True},
            "parallel": {"strategy": "fsdp", "cards": 8, "fsdp_embeddings_sharded": True},
        },
        form={
            "preset": "llama-3.1-8b",
            "workload": "full_finetune",
            "seq_len": "2048",
            "batch_size": "2",
            "activation_checkpointing": "on",
            "strategy": "fsdp",
            "cards": "8",
            "fsdp_embeddings_sharded": "on",
        },
        cli=(
            "--preset llama-3.1-8b --workload full_finetune --seq-len 2048 --batch 2 --checkpointing --strategy fsdp "
            "--cards 8 --parallel-fsdp-embeddings-sharded"
        ),
    ),
    # Engine 0.3.6 (decision 0519): FSDP1 accumulating gradients under no_sync (lit-gpt's LoRA recipe).
    Case(
        "fsdp_no_sync",
        library={
            "model": "llama-2-7b",
            "workload": "lora",
            "seq_len": 1304,
            "batch_size": 4,
            "training": {"optimizer": "adamw", "activation_checkpointing": True},
            "parallel": {"strategy": "fsdp", "cards": 2, "fsdp_no_sync": True},
        },
        form={
            "preset": "llama-2-7b",
            "workload": "lora",
            "seq_len": "1304",
            "batch_size": "4",
            "activation_checkpointing": "on",
            "strategy": "fsdp",
            "cards": "2",
            "fsdp_no_sync": "on",
        },
        cli=(
            "--preset llama-2-7b --workload lora --seq-len 1304 --batch 4 --checkpointing --strategy fsdp --cards 2 "
            "--parallel-fsdp-no-sync"
        ),
    ),
    Case(
        "img2img",
        library={
            "model": "sdxl-base-1.0",
            "workload": "diffusion",
            "precision": {"weights": "bf16", "compute": "bf16", "kv_cache": "bf16"},
            "seq_len": 4096,
            "image_height": 1024,
            "image_width": 1024,
            "diffusion": {"guidance": True, "task": "inpainting"},
        },
        form={"preset": "sdxl-base-1.0", "workload": "diffusion", "image_size": "1024", "diffusion_task": "inpainting"},
        cli="--preset sdxl-base-1.0 --workload diffusion --image 1024 --diffusion-task inpainting",
    ),
]


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_the_form_gives_the_library_input(case):
    form = EstimateForm({**DEFAULTS, **case.form})
    assert form.is_valid(), form.errors
    assert form.cleaned_data["inputs"] == inputs_from_dict(case.library)


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_the_cli_gives_the_library_peak(case):
    out = io.StringIO()
    assert vramcalc_main([*case.cli.split(), "--json"], out=out) == 0
    assert json.loads(out.getvalue())["estimate"]["peak_bytes"] == estimate(inputs_from_dict(case.library)).peak_bytes


@pytest.mark.django_db
@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_the_api_gives_the_library_peak(case, client, demo_catalog, user):
    _token, secret = api_token_create(user=user, name="test")
    response = client.post(
        "/api/v1/estimates",
        case.library,
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY=f"{case.name}-1",
        HTTP_AUTHORIZATION=f"Bearer {secret}",
    )
    assert response.status_code == 201, response.content
    assert response.json()["peak_bytes"] == estimate(inputs_from_dict(case.library)).peak_bytes

"""The demo catalog loaded by `manage.py load_demo`: realistic models, usable memory, per-term lot prices.

Memory is the total the driver reports for one card, in MiB (nvidia-smi / rocm-smi), which is a little less
than the marketing figure in the name. Prices are plausible market prices for a fixed term, in cents.
"""

from __future__ import annotations

from typing import Any

DEMO_GPUS: tuple[dict[str, Any], ...] = (
    {
        "slug": "rtx-4090-24gb",
        "vcpus_per_lot": 16,
        "ram_gib_per_lot": 64,
        "disk_gib_per_lot": 500,
        "network": "1 Gbit/s, public IPv4",
        "region": "EU (Frankfurt)",
        "driver_version": "570.124",
        "stack_version": "CUDA 12.8",
        "interconnect": "",
        "typical_ready_minutes": 15,
        "name": "RTX 4090 24GB",
        "vendor": "NVIDIA",
        "stack": "CUDA",
        "memory_mib_per_card": 24_564,
        "cards_per_lot": 1,
        "stock_lots": 12,
        "prices": (2_900, 6_200, 24_000),
        "summary": "Consumer Ada card: fast and cheap for models that fit in 24 GB.",
        "good_for": (
            "Inference of 7–8B models in 16-bit and up to ~30B models in 4-bit, LoRA and QLoRA fine-tuning "
            "of small models, Stable Diffusion and SDXL image generation, and experiments where price per hour "
            "matters more than memory.\n\n"
            "Not for full fine-tuning beyond ~1B parameters or long-context serving: 24 GB fills quickly."
        ),
        "glossary_terms": ["vram", "quantization", "kv-cache", "vae", "cuda"],
    },
    {
        "slug": "l40s-48gb",
        "vcpus_per_lot": 16,
        "ram_gib_per_lot": 96,
        "disk_gib_per_lot": 1000,
        "network": "10 Gbit/s, public IPv4",
        "region": "EU (Frankfurt)",
        "driver_version": "570.124",
        "stack_version": "CUDA 12.8",
        "interconnect": "",
        "typical_ready_minutes": 20,
        "name": "L40S 48GB",
        "vendor": "NVIDIA",
        "stack": "CUDA",
        "memory_mib_per_card": 46_068,
        "cards_per_lot": 1,
        "stock_lots": 6,
        "prices": (6_500, 14_000, 54_000),
        "summary": "Data-centre Ada card with 48 GB and FP8: a solid inference and diffusion workhorse.",
        "good_for": (
            "Serving 7–14B models with room for a real KV cache, 30B-class models quantized, diffusion at "
            "high resolution, and LoRA fine-tuning of mid-sized models."
        ),
        "glossary_terms": ["vram", "kv-cache", "quantization", "vae"],
    },
    {
        "slug": "a100-80gb",
        "vcpus_per_lot": 24,
        "ram_gib_per_lot": 192,
        "disk_gib_per_lot": 2000,
        "network": "10 Gbit/s, public IPv4",
        "region": "EU (Amsterdam)",
        "driver_version": "570.124",
        "stack_version": "CUDA 12.8",
        "interconnect": "",
        "typical_ready_minutes": 30,
        "name": "A100 80GB",
        "vendor": "NVIDIA",
        "stack": "CUDA",
        "memory_mib_per_card": 81_920,
        "cards_per_lot": 1,
        "stock_lots": 8,
        "prices": (9_500, 20_500, 79_000),
        "summary": "The proven Ampere training card with 80 GB of HBM2e.",
        "good_for": (
            "Full fine-tuning of models up to a few billion parameters on one card, larger ones with FSDP over "
            "several lots, QLoRA of 70B models, serving 13–34B models in 16-bit, and vision-model training.\n\n"
            "No FP8: for FP8 inference choose an H100 or newer."
        ),
        "glossary_terms": ["vram", "fsdp", "ddp", "training-checkpoint", "quantization"],
    },
    {
        "slug": "h100-80gb",
        "vcpus_per_lot": 26,
        "ram_gib_per_lot": 240,
        "disk_gib_per_lot": 3000,
        "network": "25 Gbit/s, public IPv4",
        "region": "US (Virginia)",
        "driver_version": "570.124",
        "stack_version": "CUDA 12.8",
        "interconnect": "",
        "typical_ready_minutes": 30,
        "name": "H100 80GB",
        "vendor": "NVIDIA",
        "stack": "CUDA",
        "memory_mib_per_card": 81_559,
        "cards_per_lot": 1,
        "stock_lots": 5,
        "prices": (17_000, 37_000, 145_000),
        "summary": "Hopper SXM card with 80 GB HBM3 and FP8: the reference for training and fast serving.",
        "good_for": (
            "Training and fine-tuning with FSDP across lots, FP8 inference, serving 70B models with tensor "
            "parallelism over two or more lots, and any job where time matters more than price."
        ),
        "glossary_terms": ["vram", "tensor-parallelism", "fsdp", "kv-cache", "training-checkpoint"],
    },
    {
        "slug": "h200-141gb",
        "vcpus_per_lot": 32,
        "ram_gib_per_lot": 360,
        "disk_gib_per_lot": 3800,
        "network": "25 Gbit/s, public IPv4",
        "region": "US (Virginia)",
        "driver_version": "570.124",
        "stack_version": "CUDA 12.8",
        "interconnect": "",
        "typical_ready_minutes": 45,
        "name": "H200 141GB",
        "vendor": "NVIDIA",
        "stack": "CUDA",
        "memory_mib_per_card": 143_771,
        "cards_per_lot": 1,
        "stock_lots": 3,
        "prices": (23_000, 50_000, 195_000),
        "summary": "Hopper with 141 GB of HBM3e: the same compute as H100 with far more memory.",
        "good_for": (
            "Serving 70B models in 8-bit on one card, long contexts with large KV caches, and fine-tuning "
            "that would need two H100s for memory alone."
        ),
        "glossary_terms": ["vram", "kv-cache", "tensor-parallelism", "quantization"],
    },
    {
        "slug": "b200-2x180gb",
        "vcpus_per_lot": 56,
        "ram_gib_per_lot": 720,
        "disk_gib_per_lot": 7600,
        "network": "100 Gbit/s, public IPv4",
        "region": "US (Texas)",
        "driver_version": "575.51",
        "stack_version": "CUDA 12.9",
        "interconnect": "NVLink 5 between the two cards (1.8 TB/s each way)",
        "typical_ready_minutes": 60,
        "name": "B200 (2 × 180GB)",
        "vendor": "NVIDIA",
        "stack": "CUDA",
        "memory_mib_per_card": 183_359,
        "cards_per_lot": 2,
        "stock_lots": 2,
        "prices": (78_000, 170_000, 660_000),
        "summary": "Blackwell, sold in lots of two cards with about 180 GB each, linked by NVLink.",
        "good_for": (
            "The largest open models: serving 400B-class mixture-of-experts models in FP8 or MXFP4 over a few "
            "lots, training with FSDP and tensor parallelism, and long-context work.\n\n"
            "Each lot is two cards. A model must be split across them (tensor parallelism or FSDP) to use both: "
            "two 180 GB cards are not one 360 GB card."
        ),
        "glossary_terms": ["vram", "tensor-parallelism", "fsdp", "quantization", "kv-cache"],
    },
    {
        "slug": "mi300x-192gb",
        "vcpus_per_lot": 32,
        "ram_gib_per_lot": 256,
        "disk_gib_per_lot": 3800,
        "network": "25 Gbit/s, public IPv4",
        "region": "EU (Frankfurt)",
        "driver_version": "amdgpu 6.12",
        "stack_version": "ROCm 6.4",
        "interconnect": "",
        "typical_ready_minutes": 60,
        "name": "MI300X 192GB",
        "vendor": "AMD",
        "stack": "ROCm",
        "memory_mib_per_card": 196_288,
        "cards_per_lot": 1,
        "stock_lots": 4,
        "prices": (19_000, 41_000, 160_000),
        "summary": "AMD's CDNA 3 accelerator with 192 GB HBM3, programmed with ROCm.",
        "good_for": (
            "Serving very large models from one card's memory (a 70B model in 16-bit fits), long-context "
            "inference, and PyTorch training that does not depend on CUDA-only kernels."
        ),
        "glossary_terms": ["vram", "rocm", "cuda", "kv-cache"],
    },
)

DEMO_OPERATOR_EMAIL = "operator@example.com"
# Only ever created where DEMO_OPERATOR_ENABLED is on (local settings), never in production.
DEMO_OPERATOR_PASSWORD = "demo-operator-passphrase"  # noqa: S105 (a documented demo login, not a secret)

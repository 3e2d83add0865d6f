"""What each guide assumes, as data: per workload and scope a model preset, estimator fields and a job size.

Every number a guide page shows is computed from these inputs (see `report.py`); nothing here is a result.
The estimator fields use the estimator form's vocabulary (`gpurent.sizing.forms.estimate.EstimateForm`), so the same
dictionary builds the engine inputs and the "Open in the estimator" link, and the two cannot disagree.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from .enums import GuideWorkload, Scope

__all__ = ["SCENARIOS", "Condition", "Job", "ScopeSpec", "WorkloadSpec"]


@dataclass(frozen=True)
class Job:
    """The size of the work a scope assumes; which fields apply depends on the workload's `job_kind`.

    Attributes:
        requests_per_day: serving: requests a day.
        input_tokens: serving: prompt tokens per request.
        output_tokens: serving: generated tokens per request.
        tokens: language-model training: training tokens in the whole run (all epochs).
        images: vision training: images in the data set; image generation: images a day.
        epochs: vision training: passes over the data set.
        steps: image generation: denoising steps per image.
    """

    requests_per_day: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    tokens: int = 0
    images: int = 0
    epochs: int = 1
    steps: int = 0


@dataclass(frozen=True)
class ScopeSpec:
    """One scope of one workload: the estimator fields (strings, as a query string) and the job."""

    fields: dict[str, str]
    job: Job


@dataclass(frozen=True)
class Condition:
    """A column of the decision table: estimator fields that override the scope's, and a label for people."""

    label: Promise
    fields: dict[str, str]


@dataclass(frozen=True)
class WorkloadSpec:
    """A workload: how its jobs are measured, its glossary terms, its scopes and its decision conditions.

    `job_kind` is one of `serving` (requests a day), `training` (tokens per run), `vision` (images × epochs)
    or `images` (images a day).
    """

    workload: GuideWorkload
    job_kind: str
    glossary: tuple[str, ...]
    scopes: dict[Scope, ScopeSpec]
    conditions: tuple[Condition, ...]
    extra_measurements: tuple[Promise, ...] = field(default_factory=tuple)

    def fields_for(self, scope: Scope, condition: Condition | None = None) -> dict[str, str]:
        """The estimator fields of `scope`, with `condition`'s overrides applied."""
        base = dict(self.scopes[scope].fields)
        return base | (dict(condition.fields) if condition else {})


def _serving(preset: str, context: int, concurrent: int, **extra: Any) -> dict[str, str]:
    fields = {
        "preset": preset,
        "workload": "inference",
        "engine": "vllm",
        "seq_len": str(context // 2),
        "context_len": str(context),
        "concurrent": str(concurrent),
    }
    return fields | {key: str(value) for key, value in extra.items()}


SCENARIOS: dict[GuideWorkload, WorkloadSpec] = {
    GuideWorkload.LLM_SERVING: WorkloadSpec(
        workload=GuideWorkload.LLM_SERVING,
        job_kind="serving",
        glossary=("vram", "kv-cache", "quantization", "tensor-parallelism"),
        scopes={
            Scope.PROOF_OF_CONCEPT: ScopeSpec(
                _serving("llama-3.1-8b", 4096, 4), Job(requests_per_day=1_000, input_tokens=1_500, output_tokens=300)
            ),
            Scope.PILOT: ScopeSpec(
                _serving("gemma-3-27b", 8192, 16), Job(requests_per_day=20_000, input_tokens=2_000, output_tokens=400)
            ),
            Scope.PRODUCTION: ScopeSpec(
                _serving("llama-3.1-70b", 8192, 32),
                Job(requests_per_day=200_000, input_tokens=2_000, output_tokens=500),
            ),
        },
        conditions=(
            Condition(_("4k context, 1 request"), {"seq_len": "2048", "context_len": "4096", "concurrent": "1"}),
            Condition(_("4k context, 16 at once"), {"seq_len": "2048", "context_len": "4096", "concurrent": "16"}),
            Condition(_("32k context, 1 request"), {"seq_len": "16384", "context_len": "32768", "concurrent": "1"}),
            Condition(_("32k context, 16 at once"), {"seq_len": "16384", "context_len": "32768", "concurrent": "16"}),
        ),
        extra_measurements=(
            _("time to first token and tokens per second per request, at the 50th and 99th percentile"),
        ),
    ),
    GuideWorkload.LORA_FINETUNING: WorkloadSpec(
        workload=GuideWorkload.LORA_FINETUNING,
        job_kind="training",
        glossary=("vram", "quantization", "training-checkpoint", "fsdp"),
        scopes={
            Scope.PROOF_OF_CONCEPT: ScopeSpec(
                {
                    "preset": "llama-3.1-8b",
                    "workload": "lora",
                    "lora_rank": "16",
                    "seq_len": "2048",
                    "batch_size": "4",
                    "activation_checkpointing": "on",
                },
                Job(tokens=20_000_000),
            ),
            Scope.PILOT: ScopeSpec(
                {
                    "preset": "gemma-3-27b",
                    "workload": "qlora",
                    "quantization": "bnb_nf4",
                    "optimizer": "paged_adamw",
                    "lora_rank": "16",
                    "seq_len": "4096",
                    "batch_size": "2",
                    "activation_checkpointing": "on",
                },
                Job(tokens=100_000_000),
            ),
            Scope.PRODUCTION: ScopeSpec(
                {
                    "preset": "llama-3.1-70b",
                    "workload": "qlora",
                    "quantization": "bnb_nf4_dq",
                    "optimizer": "paged_adamw",
                    "lora_rank": "32",
                    "seq_len": "4096",
                    "batch_size": "4",
                    "activation_checkpointing": "on",
                },
                Job(tokens=500_000_000),
            ),
        },
        conditions=(
            Condition(_("2k tokens, batch 1"), {"seq_len": "2048", "batch_size": "1"}),
            Condition(_("2k tokens, batch 8"), {"seq_len": "2048", "batch_size": "8"}),
            Condition(_("8k tokens, batch 1"), {"seq_len": "8192", "batch_size": "1"}),
            Condition(_("8k tokens, batch 8"), {"seq_len": "8192", "batch_size": "8"}),
        ),
        extra_measurements=(_("training loss and evaluation score per checkpoint, and whether a checkpoint reloads"),),
    ),
    GuideWorkload.FULL_FINETUNING: WorkloadSpec(
        workload=GuideWorkload.FULL_FINETUNING,
        job_kind="training",
        glossary=("vram", "fsdp", "ddp", "training-checkpoint"),
        scopes={
            Scope.PROOF_OF_CONCEPT: ScopeSpec(
                {
                    "preset": "llama-3.2-1b",
                    "workload": "full_finetune",
                    "seq_len": "2048",
                    "batch_size": "8",
                    "activation_checkpointing": "on",
                },
                Job(tokens=50_000_000),
            ),
            Scope.PILOT: ScopeSpec(
                {
                    "preset": "llama-3.2-3b",
                    "workload": "full_finetune",
                    "seq_len": "4096",
                    "batch_size": "4",
                    "activation_checkpointing": "on",
                    "strategy": "fsdp",
                },
                Job(tokens=300_000_000),
            ),
            Scope.PRODUCTION: ScopeSpec(
                {
                    "preset": "llama-3.1-8b",
                    "workload": "full_finetune",
                    "seq_len": "4096",
                    "batch_size": "4",
                    "activation_checkpointing": "on",
                    "strategy": "fsdp",
                },
                Job(tokens=2_000_000_000),
            ),
        },
        conditions=(
            Condition(_("2k tokens, checkpointing"), {"seq_len": "2048", "activation_checkpointing": "on"}),
            Condition(_("8k tokens, checkpointing"), {"seq_len": "8192", "activation_checkpointing": "on"}),
            Condition(_("2k tokens, no checkpointing"), {"seq_len": "2048", "activation_checkpointing": ""}),
            Condition(_("8k tokens, no checkpointing"), {"seq_len": "8192", "activation_checkpointing": ""}),
        ),
        extra_measurements=(_("training loss and evaluation score per checkpoint, and whether a checkpoint reloads"),),
    ),
    GuideWorkload.IMAGE_GENERATION: WorkloadSpec(
        workload=GuideWorkload.IMAGE_GENERATION,
        job_kind="images",
        glossary=("vram", "vae", "quantization"),
        scopes={
            Scope.PROOF_OF_CONCEPT: ScopeSpec(
                {
                    "preset": "sd-1.5",
                    "workload": "diffusion",
                    "weights": "fp16",
                    "image_size": "512",
                    "batch_size": "1",
                },
                Job(images=500, steps=30),
            ),
            Scope.PILOT: ScopeSpec(
                {
                    "preset": "sdxl-base-1.0",
                    "workload": "diffusion",
                    "weights": "fp16",
                    "image_size": "1024",
                    "batch_size": "1",
                },
                Job(images=10_000, steps=30),
            ),
            Scope.PRODUCTION: ScopeSpec(
                {"preset": "flux.1-dev", "workload": "diffusion", "image_size": "1024", "batch_size": "1"},
                Job(images=5_000, steps=28),
            ),
        },
        conditions=(
            Condition(_("512 px, 1 image"), {"image_size": "512", "batch_size": "1"}),
            Condition(_("1024 px, 1 image"), {"image_size": "1024", "batch_size": "1"}),
            Condition(_("1024 px, 4 images"), {"image_size": "1024", "batch_size": "4"}),
        ),
        extra_measurements=(_("seconds per image, and the share of images rejected by review"),),
    ),
    GuideWorkload.VISION_FINETUNING: WorkloadSpec(
        workload=GuideWorkload.VISION_FINETUNING,
        job_kind="vision",
        glossary=("vram", "ddp", "training-checkpoint", "cuda"),
        scopes={
            Scope.PROOF_OF_CONCEPT: ScopeSpec(
                {
                    "preset": "vit-base-patch16-224",
                    "workload": "vision_finetune",
                    "image_size": "224",
                    "batch_size": "64",
                },
                Job(images=50_000, epochs=3),
            ),
            Scope.PILOT: ScopeSpec(
                {
                    "preset": "vit-large-patch16-224",
                    "workload": "vision_finetune",
                    "image_size": "224",
                    "batch_size": "64",
                },
                Job(images=500_000, epochs=5),
            ),
            Scope.PRODUCTION: ScopeSpec(
                {
                    "preset": "vit-huge-patch14-224",
                    "workload": "vision_finetune",
                    "image_size": "224",
                    "batch_size": "128",
                    "activation_checkpointing": "on",
                },
                Job(images=1_300_000, epochs=10),
            ),
        },
        conditions=(
            Condition(_("224 px, batch 32"), {"image_size": "224", "batch_size": "32"}),
            Condition(_("224 px, batch 256"), {"image_size": "224", "batch_size": "256"}),
            Condition(_("448 px, batch 32"), {"image_size": "448", "batch_size": "32"}),
            Condition(_("448 px, batch 256"), {"image_size": "448", "batch_size": "256"}),
        ),
        extra_measurements=(_("images per second and the validation score per epoch"),),
    ),
}

"""The guides' prose per workload: summary, architecture, operations and risks, in our own words, translated with
the rest of the shop. What depends on the scope is in `scope_texts.py`; what to record and how data is handled,
in `record_texts.py`.

Texts say how to think about the decision; every figure on the page comes from `report.py`, never from here.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from .enums import GuideWorkload

__all__ = ["WORKLOAD_TEXTS", "WorkloadText"]


@dataclass(frozen=True)
class WorkloadText:
    """The sections of a guide that depend on the workload."""

    summary: Promise
    architecture: tuple[Promise, ...]
    operations: tuple[Promise, ...]
    risks: tuple[Promise, ...]


WORKLOAD_TEXTS: dict[GuideWorkload, WorkloadText] = {
    GuideWorkload.LLM_SERVING: WorkloadText(
        summary=_(
            "A language model answers requests behind an endpoint. Memory goes to the weights once and to the "
            "KV cache for every request in flight, so the context length and the number of requests at the same "
            "moment decide the card as much as the model does."
        ),
        architecture=(
            _(
                "A request first passes authentication and input limits (maximum prompt length, rate per client), "
                "then enters the serving engine's queue. The engine batches requests continuously, keeps their "
                "keys and values in the KV cache while it generates, and streams tokens back."
            ),
            _(
                "Keep retrieval, prompt building and post-processing outside the GPU process: they scale on "
                "ordinary CPUs, and the model can then be swapped or resized without rebuilding the application."
            ),
        ),
        operations=(
            _(
                "Track model version, engine version, quantization and maximum context as one release: a change "
                "to any of them changes memory and latency. Rotate access keys separately from model updates."
            ),
            _(
                "Plan capacity on peaks, not on the daily average: a quiet day and a launch day are different "
                "memory budgets, because every waiting request holds KV cache."
            ),
        ),
        risks=(
            _(
                "Long prompts are the usual surprise: the KV cache grows linearly with context, and a few very long "
                "requests can evict many short ones. Cap the context and measure its real distribution."
            ),
            _(
                "Quantization saves memory but can change answers; compare quality on your own prompts before "
                "and after, not on a public benchmark."
            ),
        ),
    ),
    GuideWorkload.LORA_FINETUNING: WorkloadText(
        summary=_(
            "Small adapter matrices are trained on top of a frozen base model. With QLoRA the base is stored in "
            "4 bits, which lets a large model train on few cards; activations and sequence length then decide "
            "how much room is left."
        ),
        architecture=(
            _(
                "Data flows from raw examples through cleaning, deduplication and a fixed train/evaluation split "
                "into tokenized shards. The trainer reads the shards, writes adapter checkpoints at intervals, and "
                "an evaluation job scores each checkpoint on the held-out split."
            ),
            _(
                "Adapters are small files: keep them, with the base model's exact revision, in storage outside the "
                "rented machine, so a finished run survives the end of the term."
            ),
        ),
        operations=(
            _(
                "Fix seeds, library versions and the data snapshot for every run you want to compare, and change one "
                "variable at a time: otherwise a difference cannot be attributed to a single cause."
            ),
            _(
                "Copy checkpoints off the machine as they are written and prove that one reloads before relying on "
                "it; the term ends on schedule whether or not the run has finished."
            ),
        ),
        risks=(
            _(
                "A 4-bit base trains well for many tasks but not all; evaluate against a 16-bit adapter on a small "
                "sample before committing to a long run."
            ),
            _(
                "Paged optimizers and gradient checkpointing trade speed for memory. If the run is too slow, more "
                "memory per card may be cheaper than more time."
            ),
        ),
    ),
    GuideWorkload.FULL_FINETUNING: WorkloadText(
        summary=_(
            "Every weight is trained, so the gradients and the optimizer state are as large as the model several "
            "times over. Sharding them across cards (FSDP or ZeRO) is what makes larger models fit."
        ),
        architecture=(
            _(
                "The same data path as any training run: cleaned, deduplicated and versioned data, tokenized into "
                "shards, read by a trainer that writes full checkpoints, with evaluation on a held-out split."
            ),
            _(
                "With more than one card, the trainer shards parameters, gradients and optimizer state; every step "
                "then exchanges data between cards, so cards in one machine are preferable to cards across machines."
            ),
        ),
        operations=(
            _(
                "Full checkpoints are large: budget the disk, and the time to copy them off the machine, before the "
                "run starts. Keep the last two, not every one."
            ),
            _(
                "Record the learning-rate schedule and the exact data snapshot with each checkpoint; a resumed run "
                "that silently changes either is a different experiment."
            ),
        ),
        risks=(
            _(
                "Full fine-tuning can erase what the base model knew. Keep a general evaluation next to your task "
                "evaluation to notice it early."
            ),
            _(
                "If memory is the only obstacle, LoRA on the same model is often close in quality for a fraction of "
                "the memory; test it before renting many cards."
            ),
        ),
    ),
    GuideWorkload.IMAGE_GENERATION: WorkloadText(
        summary=_(
            "A diffusion pipeline turns a prompt into an image in a number of denoising steps, then the VAE "
            "decodes it to pixels. Resolution and images per batch decide the memory; the decode step has its own "
            "peak."
        ),
        architecture=(
            _(
                "Requests enter a queue with their prompt and settings; a worker on the GPU takes a batch, runs the "
                "denoising steps and the VAE decode, and writes the images to storage that the application serves."
            ),
            _(
                "Keep safety filtering and storage outside the GPU worker, and make jobs idempotent: a retried job "
                "must not produce a second charge or a second copy."
            ),
        ),
        operations=(
            _(
                "Pin the pipeline, scheduler, step count and seed policy per release: images are only comparable "
                "when all of them are."
            ),
            _(
                "Watch queue length rather than GPU utilization: a full queue is the first sign that the load needs "
                "another card."
            ),
        ),
        risks=(
            _(
                "Larger images grow memory faster than linearly in the attention layers and in the VAE decode; "
                "tiled decoding helps when only the decode peak is too high."
            ),
            _(
                "Model licences differ for commercial use; check the licence of every checkpoint and adapter you "
                "deploy."
            ),
        ),
    ),
    GuideWorkload.VISION_FINETUNING: WorkloadText(
        summary=_(
            "A vision transformer is trained on your images. The model is small next to a card's memory; the "
            "batch size and the image resolution decide the activations, and so the card."
        ),
        architecture=(
            _(
                "Images move from storage through decoding and augmentation on the CPU into batches on the GPU. Data "
                "loading is often the bottleneck: plan enough CPU workers and fast local disk for the data set."
            ),
            _(
                "Keep labels, splits and the augmentation settings versioned with the data, so that a score can be "
                "traced back to exactly what the model saw."
            ),
        ),
        operations=(
            _(
                "Copy checkpoints off the machine during the run, and keep the evaluation set fixed across runs so "
                "that scores remain comparable."
            ),
            _(
                "Data-parallel training (DDP) adds cards for speed, not for memory: each card still holds the whole "
                "model and its own batch."
            ),
        ),
        risks=(
            _(
                "Higher resolution multiplies the number of patches and the activation memory; try the lower "
                "resolution first and only scale up if the score needs it."
            ),
            _(
                "Label noise limits the score more than the GPU does; measure it on a sample before buying more "
                "compute."
            ),
        ),
    ),
}

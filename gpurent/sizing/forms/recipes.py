"""Estimator form fields for the recipes of issue 31 (decision 0464, 0465): selective checkpointing, Float8,
sequence parallelism inside tensor parallelism, ring attention, pipeline-parallel training, and image-to-image or
inpainting. Each sets one engine option (`vramcalc.options`); the parity tests keep them reachable and equal to
the API's and the CLI's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from ..workloads import WorkloadKind
from .numbers import engine_number

__all__ = [
    "RECIPE_ENGINE_FIELDS",
    "RECIPE_FIELDSET",
    "RECIPE_OPTIONS",
    "RECIPE_SWITCHES",
    "RECIPE_TRAINING",
    "RecipeFields",
]

# Checkboxes: form field -> dotted engine field (set when ticked, for training workloads).
RECIPE_SWITCHES = {
    "selective_op_checkpointing": "training.selective_op_checkpointing",
    "float8": "training.float8",
    "tp_sequence_parallel": "parallel.tp_sequence_parallel",
    "tp_gathered_inputs_saved": "parallel.tp_gathered_inputs_saved",
    "context_parallel_ring": "parallel.context_parallel_ring",
}
# Every other recipe field and the engine option it sets.
RECIPE_OPTIONS = {
    "training.checkpoint_every": "checkpoint_every",
    "training.loss_chunk_tokens": "loss_chunk_tokens",
    "parallel.pipeline_parallel": "pipeline_parallel",
    "parallel.pipeline_schedule": "pipeline_schedule",
    "parallel.pipeline_microbatches": "pipeline_microbatches",
    "diffusion.task": "diffusion_task",
}
# Shown for training workloads only.
RECIPE_TRAINING = (
    "checkpoint_every",
    "selective_op_checkpointing",
    "loss_chunk_tokens",
    "float8",
    "tp_sequence_parallel",
    "tp_gathered_inputs_saved",
    "context_parallel_ring",
    "pipeline_parallel",
    "pipeline_schedule",
    "pipeline_microbatches",
)
RECIPE_FIELDSET = (_("Large-scale training"), "recipes", RECIPE_TRAINING)
# Engine field -> the form field that shows its refusal.
RECIPE_ENGINE_FIELDS = RECIPE_OPTIONS | {path: name for name, path in RECIPE_SWITCHES.items()}

SCHEDULES = [
    ("1f1b", _("1F1B")),
    ("interleaved_1f1b", _("Interleaved 1F1B")),
    ("gpipe", _("GPipe")),
]
TASKS = [
    ("text_to_image", _("Text to image")),
    ("image_to_image", _("Image to image")),
    ("inpainting", _("Inpainting")),
]


class RecipeFields(forms.Form):
    """Large-scale training and image-input fields (a base of `EstimateForm`)."""

    checkpoint_every = engine_number(
        _("Recompute one layer in every…"),
        "training.checkpoint_every",
        required=False,
        help_text=_(
            "With activation checkpointing: 2 recomputes every other layer (selective); empty or 1: every layer."
        ),
    )
    selective_op_checkpointing = forms.BooleanField(
        label=_("Per-operation selective checkpointing"),
        required=False,
        help_text=_("Keeps matmul and attention outputs, recomputes the rest (torchtitan 'op'); not with full."),
    )
    loss_chunk_tokens = engine_number(
        _("Loss over chunks of… tokens"),
        "training.loss_chunk_tokens",
        required=False,
        help_text=_(
            "The LM head and loss run over this many tokens at a time (torchtitan chunk_len, fused linear "
            "cross-entropy); not with chunked cross-entropy. Empty: all at once."
        ),
    )
    float8 = forms.BooleanField(
        label=_("Float8 training with fp8 all-gather"),
        required=False,
        help_text=_("fp8 linears; FSDP/ZeRO-3 gather weights in fp8. Without fp8 all-gather leave it off."),
    )
    tp_sequence_parallel = forms.BooleanField(
        label=_("Sequence parallel inside tensor parallel"),
        required=False,
        help_text=_("Megatron-style: norm and dropout activations split over the tensor-parallel cards."),
    )
    tp_gathered_inputs_saved = forms.BooleanField(
        label=_("Linears keep the gathered sequence"),
        required=False,
        help_text=_(
            "With sequence parallel: q/k/v and MLP input projections save the all-gathered input instead of "
            "gathering it again in backward (nanotron without async TP communication)."
        ),
    )
    context_parallel_ring = forms.BooleanField(
        label=_("Ring attention (context parallel)"),
        required=False,
        help_text=_("The sequence-parallel cards exchange keys and values in a ring instead of all-to-all."),
    )
    pipeline_parallel = engine_number(
        _("Pipeline stages"),
        "parallel.pipeline_parallel",
        required=False,
        help_text=_("Training: layers split into this many stages; the batch size is then the micro-batch."),
    )
    pipeline_schedule = forms.ChoiceField(
        label=_("Pipeline schedule"),
        choices=SCHEDULES,
        required=False,
        help_text=_(
            "Interleaved 1F1B gives each card two chunks of layers; GPipe runs every micro-batch forward first."
        ),
    )
    pipeline_microbatches = engine_number(
        _("Micro-batches per step"),
        "parallel.pipeline_microbatches",
        required=False,
        help_text=_("Empty: as many as stages."),
    )
    diffusion_task = forms.ChoiceField(label=_("Start from"), choices=TASKS, required=False)

    @staticmethod
    def recipe_inputs(cleaned: Mapping[str, Any], data: dict[str, Any], kind: WorkloadKind) -> None:
        """The recipe fields onto the engine inputs (training fields for training workloads only)."""
        if kind.generation and cleaned.get("diffusion_task"):
            data.setdefault("diffusion", {})["task"] = cleaned["diffusion_task"]
        if not kind.is_training:
            return
        if (cleaned.get("checkpoint_every") or 1) > 1:
            data.setdefault("training", {})["checkpoint_every"] = cleaned["checkpoint_every"]
        if cleaned.get("loss_chunk_tokens"):
            data.setdefault("training", {})["loss_chunk_tokens"] = cleaned["loss_chunk_tokens"]
        plan = data["parallel"]
        stages = cleaned.get("pipeline_parallel") or 1
        if stages > 1:
            plan["pipeline_parallel"] = stages
            if plan["strategy"] == "single":  # a one-copy plan splits its cards into tensor x pipeline
                plan["tensor_parallel"] = max(1, plan["cards"] // stages)
            plan["pipeline_schedule"] = cleaned.get("pipeline_schedule") or "1f1b"
            if cleaned.get("pipeline_microbatches"):
                plan["pipeline_microbatches"] = cleaned["pipeline_microbatches"]

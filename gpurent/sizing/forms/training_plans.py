"""Estimator form fields for large-scale training plans: Megatron-style DDP, DeepSpeed ZeRO-3 limits and
activation offloading (each an engine option of `vramcalc.options`; the parity test keeps them reachable)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from .numbers import engine_number

__all__ = ["MILLION_FIELDS", "TrainingPlanFields"]

MILLION = 1_000_000
# Form field (millions of parameters) → engine option (parameters).
MILLION_FIELDS = {
    "zero3_prefetch_params": "parallel.zero3_prefetch_params",
    "zero3_max_live_params": "parallel.zero3_max_live_params",
    "zero2_reduce_buffer_params": "parallel.zero2_reduce_buffer_params",
}


class TrainingPlanFields(forms.Form):
    """Advanced training-plan fields (a base of `EstimateForm`)."""

    activation_offloading = forms.BooleanField(
        label=_("Offload activations to CPU"),
        required=False,
        help_text=_(
            "Saved activations go to host memory; the card keeps the layer being computed and one in transfer."
        ),
    )
    distributed_optimizer = forms.BooleanField(
        label=_("Distributed optimizer (Megatron, with DDP)"),
        required=False,
        help_text=_("Shards fp32 master weights and optimizer states over the data-parallel cards."),
    )
    contiguous_grad_buffer = forms.BooleanField(
        label=_("Contiguous fp32 gradient buffer (Megatron DDP)"),
        required=False,
        help_text=_("Gradients accumulate in one fp32 buffer that is also the all-reduce bucket."),
    )
    fsdp_no_sync = forms.BooleanField(
        label=_("FSDP accumulates gradients under no_sync"),
        required=False,
        help_text=_(
            "Gradient accumulation with FSDP1's no_sync (Lightning Fabric, lit-gpt): full gradients are held until "
            "the last micro-batch, frozen weights wrapped with adapters included."
        ),
    )
    fsdp_embeddings_sharded = forms.BooleanField(
        label=_("FSDP shards the embeddings and LM head as their own units"),
        required=False,
        help_text=_(
            "As torchtune's custom_sharded_layers ['tok_embeddings', 'output'] does: otherwise they belong to FSDP's "
            "root unit, which stays gathered from the forward until the backward."
        ),
    )
    zero3_prefetch_params = engine_number(
        _("ZeRO-3 prefetch bucket (million parameters)"),
        MILLION_FIELDS["zero3_prefetch_params"],
        required=False,
        help_text=_("DeepSpeed stage3_prefetch_bucket_size; empty: one layer ahead, as FSDP."),
        unit=MILLION,
    )
    zero3_max_live_params = engine_number(
        _("ZeRO-3 max live parameters (millions)"),
        MILLION_FIELDS["zero3_max_live_params"],
        required=False,
        help_text=_("DeepSpeed stage3_max_live_parameters; empty: no cap beyond the prefetch."),
        unit=MILLION,
    )
    zero2_reduce_buffer_params = engine_number(
        _("ZeRO-2 gradient reduce buffers (million elements)"),
        MILLION_FIELDS["zero2_reduce_buffer_params"],
        required=False,
        help_text=_(
            "DeepSpeed ZeRO-2's contiguous gradient buffers, all of them: 2 x reduce_bucket_size with overlap_comm, "
            "9 x under DeepSpeed 0.3; empty: not counted."
        ),
        unit=MILLION,
    )

    @staticmethod
    def plan_numbers(cleaned: Mapping[str, Any], data: dict[str, Any]) -> None:
        """The ZeRO-3 limits and the ZeRO-2 reduce buffers onto the engine inputs' parallel plan (training workloads
        only)."""
        for name, path in MILLION_FIELDS.items():
            if cleaned.get(name):
                data["parallel"][path.split(".")[1]] = cleaned[name] * MILLION

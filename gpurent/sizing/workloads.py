"""The estimator's workload kinds as the web layer shows them: one entry per engine workload.

`vramcalc.Workload` is the engine's definition of a kind and the source of truth for what it computes:
`is_training` (gradients, optimizer states and saved activations) and `is_adapter` (a frozen base with LoRA
adapters). This table adds only what people see and fill in: the form's choice, the short label of a saved
estimate's title, and which of the form's workload-specific field groups a kind shows (the others are hidden,
and their sections are left out of the engine inputs). The estimator form, the saved estimates' titles and the
API's description read it; this app's `tests/test_workloads.py` keeps its keys equal to the engine's members,
in order.

Adding a kind: the engine's `Workload` member and its formulas, one entry here, the catalogs and tests
(docs/architecture.md, "How do I add a workload").
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from vramcalc import Workload

__all__ = ["FIELDSET_HELP", "WORKLOAD_CHOICES", "WORKLOAD_KINDS", "WorkloadKind", "workload_kind"]


@dataclass(frozen=True)
class WorkloadKind:
    """One estimator workload as the web layer shows it.

    The field groups it shows: `serving` (serving engine, concurrent requests, context, KV cache: the engine's
    `runtime`), `generation` (guidance, VAE, task, video frames: the engine's `diffusion`), and, read from the
    engine, training (optimizer, checkpointing, training plans: `training`) and adapter (LoRA rank, targets,
    dropout: `lora`).

    Attributes:
        workload: the engine's kind.
        label: the form's choice ("Inference / serving").
        short_label: the kind in a saved estimate's title ("llama-3.1-70b · serving · 4 cards").
        serving: shows the serving fields.
        generation: shows the image-generation fields.
    """

    workload: Workload
    label: Promise
    short_label: Promise
    serving: bool = False
    generation: bool = False

    @property
    def value(self) -> str:
        """The kind as forms, query strings and the API spell it ("qlora")."""
        return self.workload.value

    @property
    def is_training(self) -> bool:
        """Shows the training fields (the engine's `Workload.is_training`)."""
        return self.workload.is_training

    @property
    def is_adapter(self) -> bool:
        """Shows the LoRA fields (the engine's `Workload.is_adapter`)."""
        return self.workload.is_adapter


WORKLOAD_KINDS: dict[str, WorkloadKind] = {
    kind.value: kind
    for kind in (
        WorkloadKind(Workload.INFERENCE, _("Inference / serving"), _("serving"), serving=True),
        WorkloadKind(Workload.FULL_FINETUNE, _("Full fine-tuning"), _("full fine-tuning")),
        WorkloadKind(Workload.LORA, _("LoRA fine-tuning"), _("LoRA")),
        WorkloadKind(Workload.QLORA, _("QLoRA fine-tuning (4-bit base)"), _("QLoRA")),
        WorkloadKind(Workload.DIFFUSION, _("Image generation (diffusion)"), _("image generation"), generation=True),
        WorkloadKind(Workload.VISION_FINETUNE, _("Vision-model fine-tuning"), _("vision fine-tuning")),
    )
}

WORKLOAD_CHOICES: list[tuple[str, Promise]] = [(kind.value, kind.label) for kind in WORKLOAD_KINDS.values()]

# Under the training and serving field groups: which kinds use them (a test checks the training kinds are named).
FIELDSET_HELP: dict[str, Promise] = {
    "training": _("Used for full fine-tuning, LoRA, QLoRA and vision fine-tuning."),
    "serving": _("Used for inference; concurrent requests and context size the KV cache."),
}


def workload_kind(value: str) -> WorkloadKind | None:
    """The entry of `value` ("lora"); None for a value that is no kind (such a form shows no kind's fields)."""
    return WORKLOAD_KINDS.get(value)

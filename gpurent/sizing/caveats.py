"""Translated texts of the engine's caveats (vramcalc keeps English texts and stable keys; DESIGN §6)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

__all__ = ["CAVEATS", "caveat_text"]

CAVEATS: dict[str, Any] = {
    "declared_param_count": _(
        "The declared parameter count differs from the one the layer shapes give by more than 5 %: "
        "per-layer terms (activations, the largest layer) are approximate."
    ),
    "no_fused_attention": _(
        "Attention without a fused kernel: the score matrices are sized by formula; kernels may keep more."
    ),
    "moe_routing": _("MoE training: tokens per expert assume balanced routing; an unbalanced batch needs more."),
    "diffusion_training": _(
        "Diffusion training activations use a per-token allowance fitted on DiT/UNet blocks, not a "
        "tensor-by-tensor count."
    ),
    "other_processes": _("Other processes on the card (a desktop, a second job, monitoring agents)."),
    "prefix_cache": _("Prefix caching, speculative decoding (a draft model) and LoRA adapters served."),
    "framework_buffers": _("Framework-specific buffers (Megatron/DeepSpeed internals beyond those listed)."),
    "dataloader": _("Host memory: the data loader, pinned buffers and CPU-offloaded states are not on the card."),
    "adapters": _("ControlNet, IP-Adapter and other add-on networks; safety checkers."),
    "cudnn_benchmark": _("cuDNN benchmark-mode convolution workspaces (can reach GBs for VAEs)."),
    "cuda_graphs": _("CUDA graphs and torch.compile caches (not used by plain generate)."),
    "video_pipeline": _(
        "Video: sequential CPU offload, group offloading and image-to-video conditioning; the 3D VAE decode "
        "follows the model's own decoder (frames per pass, extra tensors), read from its code, not measured."
    ),
    "vision_encoder_activations": _(
        "The vision encoder's own activations (one image batch through the ViT) beyond the image tokens it adds."
    ),
}


def caveat_text(note: Any) -> str:
    """The customer's-language text of an engine caveat (a dict with ``key`` and ``text``), else its English."""
    if isinstance(note, dict):
        key, text = str(note.get("key", "")), str(note.get("text", ""))
    else:
        key, text = str(getattr(note, "key", "")), str(getattr(note, "text", note))
    return str(CAVEATS.get(key, text))

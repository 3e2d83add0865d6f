"""Translated texts of the engine's caveats (vramcalc keeps English texts and stable keys; DESIGN §6)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from gpurent.core.formats import bytes_range_text

__all__ = ["CAVEATS", "SHORT", "caveat_text", "effect_name", "effect_size", "sized_not_modelled"]

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
    "ctranslate2": _(
        "CTranslate2 runs its own allocator and kernels, which the estimate does not model: it counts the model as "
        "transformers would hold it, except that the beams of one input share their cross-attention keys and values "
        "and the attention softmax stays in the compute precision, and the range reaches as low as CTranslate2's "
        "measured peaks fell."
    ),
    "quant_kernel_buffers": _(
        "The quantized kernels' own buffers (AutoGPTQ/AutoAWQ and exllama scratch space, dequantized tiles)."
    ),
    "video_pipeline": _(
        "Video: sequential CPU offload, group offloading and image-to-video conditioning; the 3D VAE decode "
        "follows the model's own decoder (frames per pass, extra tensors), read from its code, not measured."
    ),
    "vision_encoder_activations": _(
        "The vision encoder's own activations over the image patches (before they are merged into image tokens)."
    ),
    "vision_mask_flash_attention": _(
        "The vision encoder's dense attention mask is counted (transformers' default SDPA); with "
        'attn_implementation="flash_attention_2" no mask is built and the peak is lower by up to that much.'
    ),
    "cuda_graph_pool_counted": _(
        "The CUDA-graph pool is counted in the peak; a server that captures its graphs after sizing the KV cache "
        "reports a profiled peak without it."
    ),
    "server_vision_profile": _(
        "The server's start-up profiling pass runs the vision encoder over dummy images (one scheduler step of "
        "them, or max_num_seqs of them in older versions) and reserves its activation peak before sizing the KV "
        "cache."
    ),
    "deepspeed_buffers": _(
        "DeepSpeed's communication buckets (4.5 x reduce_bucket_size + allgather_bucket_size with overlap_comm) "
        "and, under ZeRO-3, the parameters it keeps gathered because it will use them again soon "
        "(stage3_max_reuse_distance, up to stage3_max_live_parameters)."
    ),
    "varying_lengths_reserve": _(
        "Steps of different lengths (samples padded to the longest of their batch, not packed): the allocator keeps "
        "the blocks of earlier, shorter steps and reserves new ones for a longer step, so a run's reserved peak can "
        "exceed one step's by a few times the logits and loss spike."
    ),
    "tuple_kv_cache": _(
        "Older transformers (before 4.36) and models with their own code keep the previous step's key/value tuples "
        "while generate's next step builds new ones with torch.cat: up to one more KV cache at the last step."
    ),
    "kv_cache_growth_blocks": _(
        "generate builds each layer's key and value anew at every new token (torch.cat); PyTorch's allocator keeps "
        "the freed blocks of the shorter sizes (10 MiB and up, rounded to 2 MiB) reserved, so reserved memory or "
        "nvidia-smi after a long generate may be higher by up to that much or until the card is full (allocated "
        "memory is not). PyTorch frees these blocks when an allocation would not fit, so the run does not need them."
    ),
    "expandable_segments": _(
        "PyTorch's allocator slack is counted; with PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True most of it "
        "is returned and the peak is lower by up to that much."
    ),
    "autocast_norms": _(
        "Under autocast the group and layer norms return fp32 outputs, which the denoiser's working set counts in "
        "the compute dtype: the peak may be higher by up to that much."
    ),
    "vae_conv_workspace": _(
        "The VAE's working set counts the convolutions' cuDNN workspace; PyTorch passes over a convolution plan "
        "whose workspace cannot be allocated for one that needs less, so on a card with little free memory the "
        "decode's peak may be lower by up to that much."
    ),
}


# Short names of the effects whose likely size the engine states, for the line under the range (decision 0463).
SHORT: dict[str, Any] = {
    "cuda_graph_pool_counted": _("CUDA-graph pool counted"),
    "server_vision_profile": _("the vision encoder's profiling pass"),
    "vision_encoder_activations": _("vision encoder activations"),
    "deepspeed_buffers": _("DeepSpeed buckets and reused parameters"),
    "expandable_segments": _("allocator slack (expandable_segments)"),
    "varying_lengths_reserve": _("the reserve of steps of different lengths"),
    "tuple_kv_cache": _("the previous step's KV cache (older transformers)"),
    "kv_cache_growth_blocks": _("blocks kept from the KV cache's growth (generate)"),
    "vision_mask_flash_attention": _("the vision encoder's attention mask (none with FlashAttention-2)"),
    "autocast_norms": _("fp32 norm outputs under autocast"),
    "vae_conv_workspace": _("the VAE convolutions' cuDNN workspace"),
}


def sized_not_modelled(result: Any) -> list[dict[str, Any]]:
    """The effects not modelled whose likely size a stored result states (older estimates have none)."""
    notes = result.get("not_modelled") if isinstance(result, dict) else None
    return [n for n in notes or [] if isinstance(n, dict) and n.get("high_bytes")]


def effect_name(note: dict[str, Any]) -> str:
    """The short name of a sized effect in the customer's language (its full text when it has none)."""
    return str(SHORT.get(str(note.get("key", "")), caveat_text(note)))


def effect_size(note: Any) -> str:
    """ "likely up to 1.2 GiB more" / "up to 768 MiB less": a sized effect's likely size and which way it moves the
    peak, in the customer's language (empty for a note that states no size)."""
    if not isinstance(note, dict) or not note.get("high_bytes"):
        return ""
    low, high = bytes_range_text(int(note.get("low_bytes") or 0), int(note.get("high_bytes") or 0))
    direction = note.get("direction")
    if direction == 1 and note.get("low_bytes"):
        return gettext("likely %(low)s to %(high)s more") % {"low": low, "high": high}
    if direction == 1:
        return gettext("likely up to %(high)s more") % {"high": high}
    if direction == -1:
        return gettext("up to %(high)s less") % {"high": high}
    return gettext("up to %(high)s less if that setting is used") % {"high": high}


def caveat_text(note: Any) -> str:
    """The customer's-language text of an engine caveat (a dict with ``key`` and ``text``), else its English."""
    if isinstance(note, dict):
        key, text = str(note.get("key", "")), str(note.get("text", ""))
    else:
        key, text = str(getattr(note, "key", "")), str(getattr(note, "text", note))
    return str(CAVEATS.get(key, text))

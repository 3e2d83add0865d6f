"""Translated labels and assumptions of the engine's breakdown components (vramcalc keeps English; DESIGN §6).

An assumption the engine gives as a record (``assumption_text``: key and values, ``vramcalc.text``) is
rendered through :mod:`.engine`. Estimates saved before the engine gave records only have the English:
each translation below is stored with the English text it was written for, keyed by the component's stable
key, and texts that interpolate numbers are matched with a pattern and rebuilt from the captured values.
"""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from vramcalc.text import Text

from .engine import render

__all__ = ["ASSUMPTIONS", "LABELS", "component_assumption", "component_label", "estimate_notes"]

# (key, English label) -> translation
LABELS: dict[tuple[str, str], Any] = {
    ("kv_cache", "KV cache"): _("KV cache"),
    ("previous_kv_cache", "Previous step's KV cache"): _("Previous step's KV cache"),
    ("kept_output_kv_cache", "KV cache of a kept generate output"): _("KV cache of a kept generate output"),
    ("cuda_context", "CUDA context"): _("CUDA context"),
    ("comm_buffers", "Communication buffers"): _("Communication buffers"),
    ("fragmentation", "Allocator fragmentation"): _("Allocator fragmentation"),
    ("weights", "Weights"): _("Weights"),
    ("weights", "Weights (frozen base)"): _("Weights (frozen base)"),
    ("weights", "Denoiser weights"): _("Denoiser weights"),
    ("vision_encoder_weights", "Vision encoder + projector weights"): _("Vision encoder + projector weights"),
    ("vision_attention_mask", "Vision encoder attention mask"): _("Vision encoder attention mask"),
    ("text_encoder_weights", "Text encoder weights"): _("Text encoder weights"),
    ("text_encoder_weights", "Text encoder weights (frozen)"): _("Text encoder weights (frozen)"),
    ("vae_weights", "VAE weights"): _("VAE weights"),
    ("safety_checker_weights", "Safety checker weights"): _("Safety checker weights"),
    ("vae_weights", "VAE weights (frozen)"): _("VAE weights (frozen)"),
    ("activations", "Activations"): _("Activations"),
    ("activations", "Denoiser activations"): _("Denoiser activations"),
    ("activations", "Denoiser activations (saved for backward)"): _("Denoiser activations (saved for backward)"),
    ("vae_decode", "VAE decode activations"): _("VAE decode activations"),
    ("vae_encode", "VAE encode activations"): _("VAE encode activations"),
    ("text_encoder_activations", "Text encoder activations (saved for backward)"): _(
        "Text encoder activations (saved for backward)"
    ),
    ("gradients", "Gradients"): _("Gradients"),
    ("gradients_in_backward", "Gradients held at the last recompute"): _("Gradients held at the last recompute"),
    ("master_weights", "Master weights (fp32)"): _("Master weights (fp32)"),
    ("master_weights", "Master weights (16-bit)"): _("Master weights (16-bit)"),
    ("master_grads", "Master-precision gradients (ZeRO-3 step)"): _("Master-precision gradients (ZeRO-3 step)"),
    ("zero2_reduce_buffers", "ZeRO-2 gradient reduce buffers"): _("ZeRO-2 gradient reduce buffers"),
    ("optimizer_state", "Optimizer state"): _("Optimizer state"),
    ("optimizer_step", "Optimizer-step temporaries"): _("Optimizer-step temporaries"),
    ("adapter_weights", "LoRA adapter weights"): _("LoRA adapter weights"),
    ("logits", "Logits"): _("Logits"),
    ("logits", "Logits / loss spike"): _("Logits / loss spike"),
    ("dequant_workspace", "Dequantization workspace"): _("Dequantization workspace"),
    ("cuda_graphs", "CUDA graphs"): _("CUDA graphs"),
    ("engine_runtime", "Sampler warm-up"): _("Sampler warm-up"),
    ("workspace", "Prefill activations / workspace"): _("Prefill activations / workspace"),
    ("gathered_params", "Gathered parameters (ZeRO-3/FSDP)"): _("Gathered parameters (ZeRO-3/FSDP)"),
    ("fsdp_root", "FSDP root unit kept gathered"): _("FSDP root unit kept gathered"),
    ("unsharded_gradients", "Unsharded gradients of the stage"): _("Unsharded gradients of the stage"),
    ("no_sync_gradients", "Unsharded gradients (FSDP no_sync)"): _("Unsharded gradients (FSDP no_sync)"),
    ("unit_gradient", "Unsharded gradient of one unit (FSDP)"): _("Unsharded gradient of one unit (FSDP)"),
    ("context_parallel_buffers", "Ring-attention key/value buffers"): _("Ring-attention key/value buffers"),
    ("ddp_buckets", "DDP gradient buckets"): _("DDP gradient buckets"),
    ("autocast_copies", "Autocast weight copies"): _("Autocast weight copies"),
}

# (key, English assumption) -> translation
ASSUMPTIONS: dict[tuple[str, str], Any] = {
    (
        "cuda_context",
        "CUDA context + loaded kernels + cuBLAS workspace; 300 MiB-2 GiB depending on GPU, "
        "driver and lazy loading. Not part of PyTorch's reserved memory.",
    ): _(
        "CUDA context + loaded kernels + cuBLAS workspace; 300 MiB-2 GiB depending on GPU, "
        "driver and lazy loading. Not part of PyTorch's reserved memory."
    ),
    (
        "comm_buffers",
        "NCCL channels/buffers outside PyTorch's allocator (vLLM logs non-torch memory growing from TP=1 to TP=2).",
    ): _("NCCL channels/buffers outside PyTorch's allocator (vLLM logs non-torch memory growing from TP=1 to TP=2)."),
    (
        "fragmentation",
        "PyTorch's caching allocator keeps freed blocks reserved and rounds requests up; "
        "expandable_segments reduces it.",
    ): _(
        "PyTorch's caching allocator keeps freed blocks reserved and rounds requests up; "
        "expandable_segments reduces it."
    ),
    (
        "weights",
        "All weights resident on the card (MoE: every expert). Quantized formats store "
        "metadata (scales/zeros/constants), counted here.",
    ): _(
        "All weights resident on the card (MoE: every expert). Quantized formats store "
        "metadata (scales/zeros/constants), counted here."
    ),
    (
        "activations",
        "No gradients: only one block's intermediates are live; classifier-free guidance doubles the batch.",
    ): _("No gradients: only one block's intermediates are live; classifier-free guidance doubles the batch."),
    ("vae_decode", "Convolutions at full output resolution; the peak grows with pixel count."): _(
        "Convolutions at full output resolution; the peak grows with pixel count."
    ),
    (
        "vae_decode",
        "Tiled decode: the peak is one tile's. Convolutions at full output resolution; "
        "the peak grows with pixel count.",
    ): _(
        "Tiled decode: the peak is one tile's. Convolutions at full output resolution; the peak grows with pixel count."
    ),
    ("weights", "Resident for the whole step."): _("Resident for the whole step."),
    ("text_encoder_weights", "Frozen and resident (pre-computing the prompt embeddings removes them)."): _(
        "Frozen and resident (pre-computing the prompt embeddings removes them)."
    ),
    ("vae_weights", "Encodes the training images to latents every step (cached latents remove it)."): _(
        "Encodes the training images to latents every step (cached latents remove it)."
    ),
    ("master_weights", "fp32 copy."): _("fp32 copy."),
    ("optimizer_state", "States of the trainable part."): _("States of the trainable part."),
    ("optimizer_step", "Chosen by the fused-optimizer switch."): _("Chosen by the fused-optimizer switch."),
    (
        "activations",
        "Korthikanti's 34·h bytes per token per block over the denoiser's equivalent depth; see the module notes.",
    ): _("Korthikanti's 34·h bytes per token per block over the denoiser's equivalent depth; see the module notes."),
    (
        "vae_encode",
        "The encoder's first level runs at full resolution with 128 channels; no gradients flow through it.",
    ): _("The encoder's first level runs at full resolution with 128 channels; no gradients flow through it."),
    ("logits", "Only the last position's logits are computed and upcast (current generate/vLLM)."): _(
        "Only the last position's logits are computed and upcast (current generate/vLLM)."
    ),
    (
        "logits",
        "The model computes the logits of every prompt position and upcasts them to fp32 in the prefill "
        "(transformers before num_logits_to_keep); counted by what they exceed the layers' working set and the "
        "cache's later growth by.",
    ): _(
        "The model computes the logits of every prompt position and upcasts them to fp32 in the prefill "
        "(transformers before num_logits_to_keep); counted by what they exceed the layers' working set and the "
        "cache's later growth by."
    ),
    ("dequant_workspace", "bitsandbytes dequantizes one layer at a time."): _(
        "bitsandbytes dequantizes one layer at a time."
    ),
    (
        "previous_kv_cache",
        "The cache is passed as tuples (transformers before 4.36, models with their own code): the previous step's "
        "keys and values stay alive while the next step's are built with torch.cat.",
    ): _(
        "The cache is passed as tuples (transformers before 4.36, models with their own code): the previous step's "
        "keys and values stay alive while the next step's are built with torch.cat."
    ),
    (
        "safety_checker_weights",
        "Stable Diffusion's safety checker (CLIP ViT-L/14 vision tower) stays on the card for the whole run, with "
        "model CPU offload too (the pipeline keeps it out of the offload chain).",
    ): _(
        "Stable Diffusion's safety checker (CLIP ViT-L/14 vision tower) stays on the card for the whole run, with "
        "model CPU offload too (the pipeline keeps it out of the offload chain)."
    ),
    (
        "kept_output_kv_cache",
        "An earlier generate's output is kept while generate runs again: with return_dict_in_generate=True it holds "
        "that run's past_key_values, its whole KV cache.",
    ): _(
        "An earlier generate's output is kept while generate runs again: with return_dict_in_generate=True it holds "
        "that run's past_key_values, its whole KV cache."
    ),
    (
        "cuda_graphs",
        "Graph pool captured for the decode batch sizes (vLLM prints its size after capture; "
        "--enforce-eager removes it).",
    ): _(
        "Graph pool captured for the decode batch sizes (vLLM prints its size after capture; "
        "--enforce-eager removes it)."
    ),
    ("engine_runtime", "The engine's dummy sampler run over max_num_seqs sequences before it sizes the KV cache."): _(
        "The engine's dummy sampler run over max_num_seqs sequences before it sizes the KV cache."
    ),
    (
        "workspace",
        "One layer's intermediates are live at a time during prefill; engines may reserve more "
        "(CUDA graphs, llama.cpp compute buffers).",
    ): _(
        "One layer's intermediates are live at a time during prefill; engines may reserve more "
        "(CUDA graphs, llama.cpp compute buffers)."
    ),
    ("adapter_weights", "Adapters stored in the weights dtype."): _("Adapters stored in the weights dtype."),
    ("logits", "Cross-entropy over the full vocabulary; chunked loss upcasts one chunk at a time."): _(
        "Cross-entropy over the full vocabulary; chunked loss upcasts one chunk at a time."
    ),
    (
        "logits",
        "The model returns its logits upcast to fp32 and the loop keeps them through backward (prime-rl): at the "
        "loss's backward the fp32 logits, the log-softmax and both gradients are alive at once.",
    ): _(
        "The model returns its logits upcast to fp32 and the loop keeps them through backward (prime-rl): at the "
        "loss's backward the fp32 logits, the log-softmax and both gradients are alive at once."
    ),
    ("gathered_params", "Current + prefetched unit all-gathered (DeepSpeed: 4 B x largest layer in 16-bit)."): _(
        "Current + prefetched unit all-gathered (DeepSpeed: 4 B x largest layer in 16-bit)."
    ),
    ("ddp_buckets", "DDP reduces through bucket buffers unless gradient_as_bucket_view=True."): _(
        "DDP reduces through bucket buffers unless gradient_as_bucket_view=True."
    ),
    (
        "autocast_copies",
        "AMP casts fp32 weights to 16-bit for each matmul and autograd keeps the casts for backward.",
    ): _("AMP casts fp32 weights to 16-bit for each matmul and autograd keeps the casts for backward."),
    ("dequant_workspace", "Quantized layers are dequantized one at a time for the matmul."): _(
        "Quantized layers are dequantized one at a time for the matmul."
    ),
    (
        "gathered_params",
        "DeepSpeed ZeRO-3: the unit being computed plus the prefetch bucket, capped by max live parameters.",
    ): _("DeepSpeed ZeRO-3: the unit being computed plus the prefetch bucket, capped by max live parameters."),
}

_OPTIMIZER_LABEL = re.compile(r"^Optimizer state \(([\w.-]+)\)$")
_VISION_ASSUMPTION = re.compile(
    r"^Kept in the weights dtype on every card, frozen in fine-tuning; each image adds (\d+) tokens to the "
    r"sequence \(KV cache and activations\)\.$"
)
_TRAIN_ACTIVATIONS = {
    "Full activation checkpointing: layer inputs kept, one layer rebuilt at a time.": _(
        "Full activation checkpointing: layer inputs kept, one layer rebuilt at a time."
    ),
    "Saved for backward per Korthikanti et al. (2022), generalised to GQA/gated MLP.": _(
        "Saved for backward per Korthikanti et al. (2022), generalised to GQA/gated MLP."
    ),
}
_SEQUENCE_PARALLEL = re.compile(
    r"^ Sequence parallel over (\d+) cards: each holds ([\d,]+) of the ([\d,]+) tokens \(Ulysses all-to-all / "
    r"ring attention buffers are in the communication allowance\)\."
)
_NO_FUSED_ATTENTION = " Attention scores are materialised (no fused attention)."
_OFFLOADED = (
    " Activations offloaded to host memory: the card keeps the layer being computed and the one in transfer"
    " (the host link must keep up)."
)


def _field(component: Any, name: str) -> str:
    if isinstance(component, dict):
        return str(component.get(name, ""))
    return str(getattr(component, name, ""))


def component_label(component: Any) -> str:
    """The customer's-language label of a breakdown component (a dict or a ``Component``), else its English."""
    key, label = _field(component, "key"), _field(component, "label")
    known = LABELS.get((key, label))
    if known is not None:
        return str(known)
    match = _OPTIMIZER_LABEL.match(label) if key == "optimizer_state" else None
    if match:
        return str(_("Optimizer state (%(optimizer)s)") % {"optimizer": match.group(1)})
    return label


def _train_activations(text: str) -> str | None:
    """The training activations' assumption: a base sentence, then optional sequence-parallel and attention notes."""
    for english, translated in _TRAIN_ACTIVATIONS.items():
        if text.startswith(english):
            parts, rest = [str(translated)], text[len(english) :]
            break
    else:
        return None
    match = _SEQUENCE_PARALLEL.match(rest)
    if match:
        parts.append(
            str(
                _(
                    "Sequence parallel over %(cards)s cards: each holds %(tokens)s of the %(total)s tokens "
                    "(Ulysses all-to-all / ring attention buffers are in the communication allowance)."
                )
                % {"cards": match.group(1), "tokens": match.group(2), "total": match.group(3)}
            )
        )
        rest = rest[match.end() :]
    if rest.startswith(_OFFLOADED):
        parts.append(
            str(
                _(
                    "Activations offloaded to host memory: the card keeps the layer being computed and the one in "
                    "transfer (the host link must keep up)."
                )
            )
        )
        rest = rest[len(_OFFLOADED) :]
    if rest == _NO_FUSED_ATTENTION:
        parts.append(str(_("Attention scores are materialised (no fused attention).")))
        rest = ""
    return " ".join(parts) if rest == "" else None


def _record(value: Any) -> Any:
    return value.to_dict() if isinstance(value, Text) else value


def component_assumption(component: Any) -> str:
    """The customer's-language assumption of a breakdown component, else its English."""
    if isinstance(component, dict):
        record = component.get("assumption_text")
    else:
        record = _record(getattr(component, "assumption", None))
    rendered = render(record)
    if rendered is not None:
        return rendered
    key, text = _field(component, "key"), _field(component, "assumption")
    known = ASSUMPTIONS.get((key, text))
    if known is not None:
        return str(known)
    if key == "vision_encoder_weights":
        match = _VISION_ASSUMPTION.match(text)
        if match:
            return str(
                _(
                    "Kept in the weights dtype on every card, frozen in fine-tuning; each image adds %(tokens)s "
                    "tokens to the sequence (KV cache and activations)."
                )
                % {"tokens": match.group(1)}
            )
    if key == "activations":
        translated = _train_activations(text)
        if translated is not None:
            return translated
    return text


def estimate_notes(result: Any) -> list[str]:
    """The notes on a whole estimate (a result dict or an ``Estimate``) in the customer's language."""
    if isinstance(result, dict):
        notes, records = list(result.get("notes") or []), list(result.get("note_texts") or [])
    else:
        notes = list(getattr(result, "notes", ()))
        records = [_record(note) for note in notes]
    shown = []
    for index, note in enumerate(notes):
        rendered = render(records[index]) if index < len(records) else None
        # Saved before notes were records: the notes were fixed sentences, whose msgid is the English itself.
        shown.append(rendered if rendered is not None else gettext(str(note)) if note else "")
    return shown

"""The engine's input errors in the customer's language (vramcalc raises `InvalidInput` with English).

Fixed messages are translated by their English (the msgid is the engine's text); the few built from values
are matched with a pattern and rebuilt. A message this module does not know stays English, and
`test_engine_errors` fails when the engine gains a fixed message that is not listed here.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from ..forms.choices import OPTIMIZERS, STRATEGIES
from ..workloads import WORKLOAD_CHOICES

__all__ = ["MESSAGES", "Labelled", "engine_message"]


@dataclass(frozen=True)
class Labelled:
    """An engine message that names options by their values ('diffusion', 'ddp', 'adamw_8bit'): shown with the label
    each value has in the form's choices, in the active language, instead of the raw value.

    Attributes:
        template: the translatable message, one ``%(value)s`` placeholder per option it names.
        values: the option values the template names (workloads, strategies, optimizers).
    """

    template: Any
    values: tuple[str, ...]

    def __str__(self) -> str:
        return str(self.template) % {value: str(option_label(value)) for value in self.values}


def option_label(value: str) -> Any:
    """The form's label of a workload, strategy or optimizer value (a lazy translation)."""
    return dict([*WORKLOAD_CHOICES, *STRATEGIES, *OPTIMIZERS])[value]


MESSAGES: dict[str, Any] = {
    "GPTQ/AWQ support 2, 3, 4 or 8 bits": _("GPTQ/AWQ support 2, 3, 4 or 8 bits"),
    "KV capacity applies to inference of models with a KV cache": _(
        "KV capacity applies to inference of models with a KV cache"
    ),
    "QLoRA needs a bitsandbytes base (bnb_nf4 or bnb_int8)": _("QLoRA needs a bitsandbytes base (bnb_nf4 or bnb_int8)"),
    "ZeRO/FSDP shard training states; not used for inference": _(
        "ZeRO/FSDP shard training states; not used for inference"
    ),
    "a diffusion model needs its pipeline description": _("a diffusion model needs its pipeline description"),
    "a vision-language model gives both its encoder and image tokens": _(
        "a vision-language model gives both its encoder and image tokens"
    ),
    "cannot exceed num_experts": _("cannot exceed num_experts"),
    "cannot exceed num_layers": _("cannot exceed num_layers"),
    "cannot split fewer layers than cards": _("cannot split fewer layers than cards"),
    "diffusion models generate images, or train with LoRA or full fine-tuning": _(
        "diffusion models generate images, or train with LoRA or full fine-tuning"
    ),
    "diffusion runs as single card or replicas (ddp)": _("diffusion runs as single card or replicas (ddp)"),
    "diffusion training is modelled on unquantized weights": _("diffusion training is modelled on unquantized weights"),
    "video diffusion training is not modelled yet; video models generate only": _(
        "video diffusion training is not modelled yet; video models generate only"
    ),
    "only a video model generates several frames": _("only a video model generates several frames"),
    "a video model is a DiT with default frames": _("a video model is a DiT with default frames"),
    "diffusion training models AdamW, AdamW 8-bit, Lion and SGD": _(
        "diffusion training models AdamW, AdamW 8-bit, Lion and SGD"
    ),
    "file is shorter than the 8-byte header length": _("file is shorter than the 8-byte header length"),
    "fp8 compute is not modelled; use bf16 or fp16": _("fp8 compute is not modelled; use bf16 or fp16"),
    "fp8 weights are a quantization format: use quantization": _(
        "fp8 weights are a quantization format: use quantization"
    ),
    "full fine-tuning cannot update quantized weights": _("full fine-tuning cannot update quantized weights"),
    "give --preset, --config or --input": _("give --preset, --config or --input"),
    "give a preset name or a model object": _("give a preset name or a model object"),
    "header is not valid JSON": _("header is not valid JSON"),
    "header is truncated": _("header is truncated"),
    "header must be a JSON object": _("header must be a JSON object"),
    "hidden_size is not a multiple of the heads; give head_dim": _(
        "hidden_size is not a multiple of the heads; give head_dim"
    ),
    "missing or not a positive integer": _("missing or not a positive integer"),
    "missing or not an integer": _("missing or not an integer"),
    "must be 'unet' or 'dit'": _("must be 'unet' or 'dit'"),
    "needs one entry per UNet level (unet_channels)": _("needs one entry per UNet level (unet_channels)"),
    "needs at least two VAE levels": _("needs at least two VAE levels"),
    "needs one width per text encoder": _("needs one width per text encoder"),
    "only a UNet has levels": _("only a UNet has levels"),
    "only a DiT counts its blocks": _("only a DiT counts its blocks"),
    "must be > 0": _("must be > 0"),
    "must be >= 1 and divide parallel.cards": _("must be >= 1 and divide parallel.cards"),
    "must be a JSON object": _("must be a JSON object"),
    "must be a list": _("must be a list"),
    "must be a string": _("must be a string"),
    "must be an integer": _("must be an integer"),
    "must be an object": _("must be an object"),
    "must be true or false": _("must be true or false"),
    "must be within 0 and the largest text encoder's count": _("must be within 0 and the largest text encoder's count"),
    "must be within 0..num_layers": _("must be within 0..num_layers"),
    "must divide num_attention_heads": _("must divide num_attention_heads"),
    "must divide the attention heads": _("must divide the attention heads"),
    "must divide the sequence length": _("must divide the sequence length"),
    "must divide, or be a multiple of, the KV heads": _("must divide, or be a multiple of, the KV heads"),
    "must not be empty": _("must not be empty"),
    "needs ZeRO-3/FSDP full shard": _("needs ZeRO-3/FSDP full shard"),
    "needs a ZeRO/FSDP strategy": _("needs a ZeRO/FSDP strategy"),
    "needs a known dtype and an integer shape": _("needs a known dtype and an integer shape"),
    "needs model.checkpoint_bytes": _("needs model.checkpoint_bytes"),
    "needs model.sliding_window": _("needs model.sliding_window"),
    "not modelled with sharded gradients (ZeRO-2/3)": _("not modelled with sharded gradients (ZeRO-2/3)"),
    "only diffusion models run the 'diffusion' workload": Labelled(
        _("only diffusion models run the “%(diffusion)s” workload"), ("diffusion",)
    ),
    "pipeline split is modelled without tensor parallel": _("pipeline split is modelled without tensor parallel"),
    "sequence parallelism is modelled for training": _("sequence parallelism is modelled for training"),
    "tensor entry must be an object": _("tensor entry must be an object"),
    "the checkpoint is already quantized; its bytes are used": _(
        "the checkpoint is already quantized; its bytes are used"
    ),
    "the model has no vision encoder (choose a vision-language model)": _(
        "the model has no vision encoder (choose a vision-language model)"
    ),
    "unknown field": _("unknown field"),
    "shards over DDP ranks: use strategy 'ddp'": Labelled(_("shards over DDP ranks: use strategy “%(ddp)s”"), ("ddp",)),
    "is Megatron DDP's buffer: use 'single' or 'ddp'": Labelled(
        _("is Megatron DDP's buffer: use “%(single)s” or “%(ddp)s”"), ("single", "ddp")
    ),
    "is DeepSpeed ZeRO-2's buffer: use 'zero2'": Labelled(
        _("is DeepSpeed ZeRO-2's buffer: use “%(zero2)s”"), ("zero2",)
    ),
    "needs ZeRO-3/FSDP full shard without pipeline stages": _("needs ZeRO-3/FSDP full shard without pipeline stages"),
    "needs an encoder (BERT-style); a decoder has its LM head": _(
        "needs an encoder (BERT-style); a decoder has its LM head"
    ),
    "needs full fine-tuning of a vision-language model (one with a vision encoder)": _(
        "needs full fine-tuning of a vision-language model (one with a vision encoder)"
    ),
    "needs a diffusion model whose text encoders are not quantized": _(
        "needs a diffusion model whose text encoders are not quantized"
    ),
    "needs a diffusion model that trains (LoRA or full fine-tuning)": _(
        "needs a diffusion model that trains (LoRA or full fine-tuning)"
    ),
    "the text encoders train, so they run at every step": _("the text encoders train, so they run at every step"),
    "needs one micro-batch a step: no accumulation under no_sync or pipeline stages": _(
        "needs one micro-batch a step: no accumulation under no_sync or pipeline stages"
    ),
    "gradients kept in a buffer (contiguous, bucket view) or stepped in backward are not freed after the step": _(
        "gradients kept in a buffer (contiguous, bucket view) or stepped in backward are not freed after the step"
    ),
    "use optimizer 'adamw_8bit' for 8-bit states": Labelled(
        _("use optimizer “%(adamw_8bit)s” for 8-bit states"), ("adamw_8bit",)
    ),
    "vision fine-tuning needs a vision model": _("vision fine-tuning needs a vision model"),
    "needs activation checkpointing": _("needs activation checkpointing"),
    "choose full or per-operation checkpointing, not both": _("choose full or per-operation checkpointing, not both"),
    "choose whole-logits chunked loss or token chunks, not both": _(
        "choose whole-logits chunked loss or token chunks, not both"
    ),
    "must divide cards / tensor_parallel": _("must divide cards / tensor_parallel"),
    "must be >= 1 and divide cards / (tensor_parallel x pipeline_parallel)": _(
        "must be >= 1 and divide cards / (tensor_parallel x pipeline_parallel)"
    ),
    "strategy 'single' uses exactly tensor_parallel x pipeline_parallel cards": Labelled(
        _("strategy “%(single)s” uses exactly tensor_parallel x pipeline_parallel cards"), ("single",)
    ),
    "splits activations over tensor_parallel > 1 cards": _("splits activations over tensor_parallel > 1 cards"),
    "needs tp_sequence_parallel (inputs split to gather)": _("needs tp_sequence_parallel (inputs split to gather)"),
    "is how sequence_parallel > 1 cards attend": _("is how sequence_parallel > 1 cards attend"),
    "is for training; strategy 'pipeline' splits inference": Labelled(
        _("is for training; strategy “%(pipeline)s” splits inference"), ("pipeline",)
    ),
    "needs pipeline_parallel > 1": _("needs pipeline_parallel > 1"),
    "for training, split the layers into pipeline stages instead": _(
        "for training, split the layers into pipeline stages instead"
    ),
    "is modelled for training": _("is modelled for training"),
    "cannot split fewer layers than stages": _("cannot split fewer layers than stages"),
    "image-to-image and inpainting are modelled for image generation": _(
        "image-to-image and inpainting are modelled for image generation"
    ),
}


def _got(match: re.Match[str]) -> str:
    return gettext("%(message)s (got %(value)s)") % {"message": gettext("must be > 0"), "value": match.group(1)}


PATTERNS: list[tuple[re.Pattern[str], Callable[[re.Match[str]], str]]] = [
    (re.compile(r"^must be > 0, got (.+)$"), _got),
    # Every numeric input's range (`vramcalc.ranges`): "must be within 1..65536".
    (
        re.compile(r"^must be within (\d+)\.\.(\d+)$"),
        lambda m: gettext("must be within %(minimum)s..%(maximum)s") % {"minimum": m.group(1), "maximum": m.group(2)},
    ),
    (re.compile(r"^unknown preset (.+)$"), lambda m: gettext("unknown preset %(name)s") % {"name": m.group(1)}),
    (
        re.compile(r"^must be at least one patch \((\d+) px\)$"),
        lambda m: gettext("must be at least one patch (%(patch)s px)") % {"patch": m.group(1)},
    ),
    (re.compile(r"^must be one of: (.+)$"), lambda m: gettext("must be one of: %(choices)s") % {"choices": m.group(1)}),
    (re.compile(r"^unknown GGUF type (.+)$"), lambda m: gettext("unknown GGUF type %(name)s") % {"name": m.group(1)}),
    (
        re.compile(r"^not valid JSON \((.+)\)$"),
        lambda m: gettext("not valid JSON (%(detail)s)") % {"detail": m.group(1)},
    ),
    (re.compile(r"^unsupported method (.+)$"), lambda m: gettext("unsupported method %(name)s") % {"name": m.group(1)}),
    (
        re.compile(r"^incomplete or inconsistent config \((.+)\)$", re.S),
        lambda m: gettext("incomplete or inconsistent config (%(detail)s)") % {"detail": m.group(1)},
    ),
    (
        re.compile(r"^implausible header length (\d+)$"),
        lambda m: gettext("implausible header length %(length)s") % {"length": m.group(1)},
    ),
    (
        re.compile(r"^missing required field \((.+)\)$", re.S),
        lambda m: gettext("missing required field (%(detail)s)") % {"detail": m.group(1)},
    ),
]


def engine_message(message: str) -> str:
    """An engine input error's message in the active language, else the engine's English."""
    known = MESSAGES.get(message)
    if known is not None:
        return str(known)
    for pattern, build in PATTERNS:
        match = pattern.match(message)
        if match:
            return build(match)
    return message

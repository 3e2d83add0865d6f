"""Diffusion training (LoRA, DreamBooth-style full fine-tuning) of a UNet or DiT denoiser on one card.

Phases: ``vae_encode`` (images to latents through the VAE encoder), ``forward_backward`` and
``optimizer_step`` (as for transformers, :mod:`vramcalc.train`). Text encoders and the VAE are frozen and
resident; only the denoiser (or its adapters) trains. Trained from cached latents (``diffusion.cached_latents``) the
step has no VAE and no ``vae_encode`` phase; from cached prompt embeddings (``diffusion.cached_text_embeddings``), no
text encoder (decision 0595).

A UNet whose levels are described (``DiffusionSpec.unet_channels``) has its saved activations counted level by
level at each level's resolution (:mod:`vramcalc.unet_levels`, decision 0220). Otherwise the saved activations
use Korthikanti et al.'s ``34·h`` bytes per token per transformer block (16-bit, fused attention) over an
*equivalent depth* ``denoiser_params / (12·h_eff²)``: a DiT runs every block at its width ``h`` over all
latent tokens (+ text tokens, joint attention); an undescribed UNet counts at its deepest level (``4h``
channels over 1/16 of the latent tokens). A DiT that states its blocks (``DiffusionSpec.denoiser_blocks``) is counted
over those instead: the equivalent depth counts a joint block's adaLN modulation and its text stream as blocks of
their own (79 for SD3.5 Medium's 37, 105 for Flux's 57; decision 0597). That is an allowance, not a tensor-by-tensor
count, and the range says so (caveat ``diffusion_training``).

With ``diffusion.train_text_encoder`` the CLIP text encoders (not T5) train with the denoiser's recipe: their
trainable parameters join the gradients, master weights and optimizer states, and their activations
(77 tokens, ``34·h`` bytes per token per layer at 16-bit) are kept for backward.
"""

from __future__ import annotations

from .components.activations import compute_bytes
from .components.training import master_bytes, master_element_bytes
from .components.weights import dense_bytes
from .diffusion import VAE_FP32_TENSORS, VAE_HALF_TENSORS, text_encoder_bytes
from .dtypes import dtype_bytes
from .errors import InvalidInput
from .fmt import num, show
from .inputs import EstimateInput
from .model import DiffusionSpec
from .options import OptimizerKind
from .result import Component
from .text import Text, joined, text
from .train import FB, STEP, ddp_buckets
from .unet_levels import has_layout, unet_training_elements

__all__ = ["diffusion_training_components", "phases_of"]

ENCODE = "vae_encode"
PHASES = (ENCODE, FB, STEP)
_ALL = PHASES
_CLIP_TOKENS = 77
_CLIP_WIDTH = 768
_LORA_MATRICES = {"qv": 2, "attention": 4}  # per layer, each h x h; all_linear adds the two h x 4h MLP matrices


def _spec(inp: EstimateInput) -> DiffusionSpec:
    spec = inp.model.diffusion
    if spec is None:  # pragma: no cover - ModelSpec validation requires it for kind == diffusion
        raise InvalidInput("model.diffusion", "a diffusion model needs its pipeline description")
    return spec


def _geometry(inp: EstimateInput, spec: DiffusionSpec) -> tuple[int, int, int, str]:
    """(tokens at the counted level, width there, equivalent blocks, how)."""
    height, width = inp.image_height or 1024, inp.image_width or 1024
    step = spec.vae_scale_factor * spec.patch_size
    latent = (height // step) * (width // step)
    if spec.denoiser_kind == "dit":
        tokens, h_eff = latent + spec.text_tokens, spec.denoiser_hidden
        how = f"{num(latent)} latent + {spec.text_tokens} text tokens at h={h_eff}"
    else:
        tokens, h_eff = max(1, latent // 16), 4 * spec.denoiser_hidden
        how = f"{num(latent)} latent tokens / 16 at the deepest level, h={h_eff}"
    blocks = spec.denoiser_blocks or max(1, spec.denoiser_params // (12 * h_eff * h_eff))
    return tokens, h_eff, blocks, how


def trained_encoders(inp: EstimateInput, spec: DiffusionSpec) -> list[tuple[int, int]]:
    """(parameters, width) of each text encoder that trains: the CLIP ones (T5-XXL, kept fp32 in part, never)."""
    if not inp.diffusion.train_text_encoder:
        return []
    widths = spec.text_encoder_hidden or tuple(_CLIP_WIDTH for _ in spec.text_encoder_params)
    pairs = list(zip(spec.text_encoder_params, widths, strict=True))
    if spec.text_encoder_fp32_params:
        pairs.remove(max(pairs))  # the T5 encoder: the largest one of a pipeline that has one
    return pairs


def _encoder_layers(params: int, width: int) -> int:
    return max(1, params // (12 * width * width))


def _encoder_trainable(inp: EstimateInput, spec: DiffusionSpec) -> int:
    total = 0
    for params, width in trained_encoders(inp, spec):
        if not inp.workload.is_adapter:
            total += params
            continue
        rank, target = inp.lora.rank, inp.lora.targets.value
        mlp = 10 * rank * width if target == "all_linear" else 0  # two h x 4h matrices: r x (h + 4h) each
        per_layer = _LORA_MATRICES.get(target, 4) * 2 * rank * width + mlp
        total += _encoder_layers(params, width) * per_layer
    return total


def trainable(inp: EstimateInput, spec: DiffusionSpec) -> tuple[int, Text]:
    """Trainable parameters: the whole denoiser, or LoRA ``2r/h_eff`` of its linear weights; plus text encoders."""
    encoders = _encoder_trainable(inp, spec)
    if not inp.workload.is_adapter:
        params, note = spec.denoiser_params, text("dtrain.all_params")
    else:
        _tokens, h_eff, _blocks, _how = _geometry(inp, spec)
        linear = spec.denoiser_params * spec.denoiser_linear_fraction_pct // 100
        share = {"qv": 6, "attention": 3, "all_linear": 1}[inp.lora.targets.value]
        params = linear * 2 * inp.lora.rank // h_eff // share
        note = text("dtrain.lora_params", rank=str(inp.lora.rank), targets=inp.lora.targets.value)
    if encoders:
        note = joined(note, text("dtrain.plus_text_encoders", params=num(encoders)), sep="; ")
    return params + encoders, note


def _frozen(inp: EstimateInput, spec: DiffusionSpec) -> list[Component]:
    dense = dense_bytes(inp)
    denoiser = spec.denoiser_params * dense
    vae = 0 if inp.diffusion.cached_latents else spec.vae_params * dense
    encoders, text_note = text_encoder_bytes(inp, spec, quantize_text=False)
    if inp.diffusion.cached_text_embeddings:
        encoders = 0
    return [
        Component(
            "weights",
            "Denoiser weights",
            denoiser,
            show(f"{num(spec.denoiser_params)} params x {dense} B", denoiser),
            text("dtrain.denoiser"),
            _ALL,
        ),
        Component(
            "text_encoder_weights",
            "Text encoder weights (frozen)",
            encoders,
            show(f"{' + '.join(num(p) for p in spec.text_encoder_params) or '0'} params ({text_note})", encoders),
            text("dtrain.text_encoders_trained") if trained_encoders(inp, spec) else text("dtrain.text_encoders"),
            _ALL,
        ),
        Component(
            "vae_weights",
            "VAE weights (frozen)",
            vae,
            show(f"{num(spec.vae_params)} params x {dense} B", vae),
            text("dtrain.vae"),
            _ALL,
        ),
    ]


def _optimizer(inp: EstimateInput, params: int) -> tuple[int, str]:
    kind, state = inp.training.optimizer, dtype_bytes(inp.precision.optimizer_states)
    per = {
        OptimizerKind.ADAMW: 2 * state,
        OptimizerKind.ADAMW_8BIT: 2,
        OptimizerKind.LION: state,
        OptimizerKind.SGD_MOMENTUM: state,
        OptimizerKind.SGD: 0,
    }
    if kind not in per:
        raise InvalidInput("training.optimizer", "diffusion training models AdamW, AdamW 8-bit, Lion and SGD")
    return params * per[kind], f"{per[kind]} B x P ({kind.value})"


def _states(inp: EstimateInput, spec: DiffusionSpec) -> list[Component]:
    params, expr = trainable(inp, spec)
    dense = dense_bytes(inp)
    grads, master, master_each = params * dense, master_bytes(inp, params), master_element_bytes(inp)
    opt, opt_expr = _optimizer(inp, params)
    # PyTorch's foreach AdamW, Lion and SGD-momentum allocate one parameter-sized temporary list; bitsandbytes'
    # 8-bit AdamW steps parameter by parameter in its own kernel (``Optimizer8bit.step`` loops ``for p in
    # group["params"]: self.update_step(...)``) with no parameter-sized temporary, as the LLM training path counts
    # it (engine 0.3.23).
    foreach = inp.training.optimizer in (OptimizerKind.ADAMW, OptimizerKind.LION, OptimizerKind.SGD_MOMENTUM)
    foreach = foreach and not inp.training.fused_optimizer
    step = params * dtype_bytes(inp.precision.optimizer_states) if foreach else 0
    held = (STEP,) if inp.training.gradients_freed else _ALL  # freed after each step: the step holds them (0525)
    comps = [
        Component("gradients", "Gradients", grads, show(f"{num(params)} ({expr}) x {dense} B", grads), expr, held),
        Component(
            "master_weights",
            "Master weights (16-bit)" if master_each == 2 else "Master weights (fp32)",
            master,
            show(f"{master_each or 4} B x {num(params)}", master),
            text("dtrain.master_16bit" if master_each == 2 else "dtrain.master"),
            _ALL,
        ),
        Component("optimizer_state", "Optimizer state", opt, show(opt_expr, opt), text("dtrain.optimizer"), _ALL),
        Component(
            "optimizer_step",
            "Optimizer-step temporaries",
            step,
            show("foreach step: one temporary per trainable parameter" if step else "fused step", step),
            text("dtrain.step"),
            (STEP,),
            dynamic=True,
        ),
    ]
    if inp.workload.is_adapter:
        size = params * dense
        comps.insert(0, Component("adapter_weights", "LoRA adapter weights", size, show(expr, size), expr, _ALL))
    buckets = ddp_buckets(inp, params, _ALL)  # the Reducer's buckets exist from the wrap (decision 0546)
    if buckets is not None:
        comps.append(buckets)
    return comps


def _trained_kind(inp: EstimateInput) -> str:
    if not inp.workload.is_adapter or inp.lora.targets.value == "all_linear":
        return "all"
    return "attention" if inp.lora.targets.value == "attention" else "frozen_qv"


def _unet_activations(inp: EstimateInput, spec: DiffusionSpec) -> Component:
    height, width = inp.image_height or 1024, inp.image_width or 1024
    step = spec.vae_scale_factor
    checkpointing = inp.training.activation_checkpointing
    count = unet_training_elements(
        spec, -(-height // step), -(-width // step), _trained_kind(inp), inp.flash_attention, checkpointing
    )
    b, b_act = inp.batch_size, compute_bytes(inp)
    size = b * count.total * b_act
    levels = "/".join(str(c) for c in spec.unet_channels)
    if checkpointing:
        formula = (
            f"{b} x ({num(count.saved)} checkpoint inputs + {num(count.transient)} recomputed module)"
            f" elements x {b_act} B (levels {levels})"
        )
    else:
        formula = f"{b} x ({num(count.saved)} saved"
        if count.scores:
            formula += f" + {num(count.scores)} attention probabilities + {num(count.transient)} score gradients"
        formula += f") elements x {b_act} B (levels {levels})"
    return Component(
        "activations",
        "Denoiser activations (saved for backward)",
        size,
        show(formula, size),
        text("dtrain.unet_levels"),
        (FB,),
        dynamic=True,
    )


def _activations(inp: EstimateInput, spec: DiffusionSpec) -> Component:
    if has_layout(spec):
        return _unet_activations(inp, spec)
    tokens, h_eff, blocks, how = _geometry(inp, spec)
    b, b_act = inp.batch_size, compute_bytes(inp)
    if inp.training.activation_checkpointing:
        size = b * tokens * h_eff * b_act * blocks + b * tokens * 17 * h_eff * b_act
        formula = f"{b} x {blocks} block inputs x ({how}) x {b_act} B + one block recomputed"
    else:
        size = b * tokens * 17 * h_eff * b_act * blocks
        counted = "DiT blocks" if spec.denoiser_blocks else "equivalent blocks"
        formula = f"{b} x {blocks} {counted} x 34h/2 x {b_act} B per token ({how})"
    return Component(
        "activations",
        "Denoiser activations (saved for backward)",
        size,
        show(formula, size),
        text("dtrain.activations"),
        (FB,),
        dynamic=True,
    )


def _encoder_activations(inp: EstimateInput, spec: DiffusionSpec) -> Component:
    b, b_act = inp.batch_size, compute_bytes(inp)
    per_image = sum(_CLIP_TOKENS * 17 * w * _encoder_layers(p, w) for p, w in trained_encoders(inp, spec))
    size = b * per_image * b_act
    return Component(
        "text_encoder_activations",
        "Text encoder activations (saved for backward)",
        size,
        show(f"{b} x {_CLIP_TOKENS} tokens x 34h/2 per layer x {b_act} B", size),
        text("dtrain.text_encoder_activations"),
        (FB,),
        dynamic=True,
    )


def _vae_encode(inp: EstimateInput, spec: DiffusionSpec) -> Component:
    height, width = inp.image_height or 1024, inp.image_width or 1024
    b_vae = dense_bytes(inp)
    channels = spec.vae_channels[0]  # the encoder's first level, at full resolution (decision 0222)
    per_pixel = channels * (VAE_HALF_TENSORS * b_vae + VAE_FP32_TENSORS * 4)
    size = 0 if inp.diffusion.cached_latents else inp.batch_size * height * width * per_pixel
    return Component(
        "vae_encode",
        "VAE encode activations",
        size,
        show(f"{inp.batch_size} image(s) x {height}x{width} px x {channels} ch x decode tensor count", size),
        text("dtrain.vae_encode_width", channels=str(channels)),
        (ENCODE,),
        dynamic=True,
    )


def phases_of(inp: EstimateInput) -> tuple[str, ...]:
    """The phases of a diffusion training step: no VAE encode when the latents come from a cache."""
    return PHASES[1:] if inp.diffusion.cached_latents else PHASES


def diffusion_training_components(inp: EstimateInput) -> list[Component]:
    """All components of one diffusion training step on one card."""
    spec = _spec(inp)
    parts = [*_frozen(inp, spec), *_states(inp, spec), _activations(inp, spec), _encoder_activations(inp, spec)]
    return [c for c in [*parts, _vae_encode(inp, spec)] if c.bytes]

"""Diffusion training (LoRA, DreamBooth-style full fine-tuning) of a UNet or DiT denoiser on one card.

Phases: ``vae_encode`` (images to latents through the VAE encoder), ``forward_backward`` and
``optimizer_step`` (as for transformers, :mod:`vramcalc.train`). Text encoders and the VAE are frozen and
resident; only the denoiser (or its adapters) trains.

Saved activations use Korthikanti et al.'s ``34·h`` bytes per token per transformer block (16-bit, fused
attention) over an *equivalent depth* ``denoiser_params / (12·h_eff²)``: a DiT runs every block at its width
``h`` over all latent tokens (+ text tokens, joint attention); most UNet parameters sit in its deepest level,
at ``4h`` channels over 1/16 of the latent tokens, so a UNet counts at that level. This is an allowance, not
a tensor-by-tensor count, and the range says so (caveat ``diffusion_training``).
"""

from __future__ import annotations

from .components.activations import compute_bytes
from .components.training import master_bytes
from .components.weights import dense_bytes
from .diffusion import VAE_FP32_TENSORS, VAE_HALF_TENSORS, text_encoder_bytes
from .dtypes import dtype_bytes
from .errors import InvalidInput
from .fmt import num, show
from .inputs import EstimateInput
from .model import DiffusionSpec
from .options import OptimizerKind
from .result import Component
from .text import Text, text
from .train import FB, STEP

__all__ = ["ENCODE", "PHASES", "diffusion_training_components"]

ENCODE = "vae_encode"
PHASES = (ENCODE, FB, STEP)
_ALL = PHASES
_VAE_ENCODER_CHANNELS = 128


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
    blocks = max(1, spec.denoiser_params // (12 * h_eff * h_eff))
    return tokens, h_eff, blocks, how


def trainable(inp: EstimateInput, spec: DiffusionSpec) -> tuple[int, Text]:
    """Trainable parameters: the whole denoiser, or LoRA ``2r/h_eff`` of its linear weights."""
    if not inp.workload.is_adapter:
        return spec.denoiser_params, text("dtrain.all_params")
    _tokens, h_eff, _blocks, _how = _geometry(inp, spec)
    linear = spec.denoiser_params * spec.denoiser_linear_fraction_pct // 100
    share = {"qv": 6, "attention": 3, "all_linear": 1}[inp.lora.targets.value]
    params = linear * 2 * inp.lora.rank // h_eff // share
    return params, text("dtrain.lora_params", rank=str(inp.lora.rank), targets=inp.lora.targets.value)


def _frozen(inp: EstimateInput, spec: DiffusionSpec) -> list[Component]:
    dense = dense_bytes(inp)
    denoiser, vae = spec.denoiser_params * dense, spec.vae_params * dense
    encoders, text_note = text_encoder_bytes(inp, spec, quantize_text=False)
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
            text("dtrain.text_encoders"),
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
    grads, master = params * dense, master_bytes(inp, params)
    opt, opt_expr = _optimizer(inp, params)
    foreach = not inp.training.fused_optimizer and inp.training.optimizer is not OptimizerKind.SGD
    step = params * dtype_bytes(inp.precision.optimizer_states) if foreach else 0
    comps = [
        Component("gradients", "Gradients", grads, show(f"{num(params)} ({expr}) x {dense} B", grads), expr, _ALL),
        Component(
            "master_weights",
            "Master weights (fp32)",
            master,
            show(f"4 B x {num(params)}", master),
            text("dtrain.master"),
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
    return comps


def _activations(inp: EstimateInput, spec: DiffusionSpec) -> Component:
    tokens, h_eff, blocks, how = _geometry(inp, spec)
    b, b_act = inp.batch_size, compute_bytes(inp)
    if inp.training.activation_checkpointing:
        size = b * tokens * h_eff * b_act * blocks + b * tokens * 17 * h_eff * b_act
        formula = f"{b} x {blocks} block inputs x ({how}) x {b_act} B + one block recomputed"
    else:
        size = b * tokens * 17 * h_eff * b_act * blocks
        formula = f"{b} x {blocks} equivalent blocks x 34h/2 x {b_act} B per token ({how})"
    return Component(
        "activations",
        "Denoiser activations (saved for backward)",
        size,
        show(formula, size),
        text("dtrain.activations"),
        (FB,),
        dynamic=True,
    )


def _vae_encode(inp: EstimateInput) -> Component:
    height, width = inp.image_height or 1024, inp.image_width or 1024
    b_vae = dense_bytes(inp)
    per_pixel = _VAE_ENCODER_CHANNELS * (VAE_HALF_TENSORS * b_vae + VAE_FP32_TENSORS * 4)
    size = inp.batch_size * height * width * per_pixel
    return Component(
        "vae_encode",
        "VAE encode activations",
        size,
        show(f"{inp.batch_size} image(s) x {height}x{width} px x 128 ch x decode tensor count", size),
        text("dtrain.vae_encode"),
        (ENCODE,),
        dynamic=True,
    )


def diffusion_training_components(inp: EstimateInput) -> list[Component]:
    """All components of one diffusion training step on one card."""
    spec = _spec(inp)
    return [c for c in [*_frozen(inp, spec), *_states(inp, spec), _activations(inp, spec), _vae_encode(inp)] if c.bytes]

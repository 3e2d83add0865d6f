"""Diffusion image generation: text encoders, denoiser steady state and the separate VAE-decode peak.

Phases: ``text_encode`` (encoders), ``denoise`` (UNet/DiT, the denoising loop) and ``vae_decode``.
Without CPU offload every component stays resident; with ``enable_model_cpu_offload`` only the
active one is on the card (estimator.md §6).
"""

from __future__ import annotations

from .architecture import LinearShape
from .components.activations import compute_bytes
from .components.weights import dense_bytes
from .dtypes import DType, dtype_bytes
from .errors import InvalidInput
from .fmt import num, show
from .inputs import EstimateInput
from .model import DiffusionSpec
from .options import DiffusionTask, QuantMethod, Workload
from .quant import linear_bytes, storage_note
from .result import Component
from .text import Text, joined, text
from .unet_levels import has_layout, widest_self_attention
from .video import frames, latent_frames, pass_frames, pixels, vae_pass_px, video_decode

__all__ = [
    "DECODE",
    "DENOISE",
    "ENCODE",
    "IMAGE_ENCODE",
    "SAFETY_CHECKER_PARAMS",
    "VAE_BATCH_TENSORS",
    "VAE_FP32_TENSORS",
    "VAE_HALF_TENSORS",
    "WITH_IMAGE",
    "autocast_norm_bytes",
    "diffusion_components",
    "fp32_kept_params",
    "score_bytes",
    "text_encoder_bytes",
    "under_autocast",
    "vae_workspace_bytes",
]

ENCODE = "text_encode"
DENOISE = "denoise"
DECODE = "vae_decode"
IMAGE_ENCODE = "vae_encode"
ALL = (ENCODE, DENOISE, DECODE)
# Image-to-image and inpainting encode the input image first (decision 0465).
WITH_IMAGE = (IMAGE_ENCODE, ENCODE, DENOISE, DECODE)

# VAE decoder peak: live full-resolution tensors of the VAE's second width (``vae_channels[1]``, 256 in the
# SD/SDXL/SD3/Flux VAEs: the last upsampler brings it to full resolution) in the last up-blocks (input, norm
# output, activation, conv outputs, upsample) in the compute dtype, plus one fp32 tensor for the
# GroupNorm upcast. Fitted, together with the allocator slack (FRAGMENTATION_PCT), on the SD 1.5 (fp16)
# and SDXL (fp32) decode measurements at 512 and 1024 px (cases I13, I15); the decoder widths are
# 512-512-256-128 and the last two up-blocks run at H/2 and H. Widths per model: decision 0222. Of the fit, a resnet
# block keeps VAE_BATCH_TENSORS; the rest is the convolutions' workspace, which PyTorch's cuDNN path shrinks to what
# it can allocate: a card with little free memory may read lower by up to that much (``vae_workspace_bytes``, named
# as an effect that moves the range's low end; decision 0578).
VAE_HALF_TENSORS = 6
VAE_FP32_TENSORS = 1
# Each further image of a batch decoded at once adds only what one image's resnet block holds live under
# ``torch.no_grad`` (diffusers' ``ResnetBlock2D.forward``: its input, kept for the residual, the norm's output and the
# activation's or the convolution's output), in the VAE's dtype; the rest of the fitted single-image working set is
# taken once per decode call (the convolutions' workspace, which grows with the feature map, not with the tensors
# kept; decision 0533).
VAE_BATCH_TENSORS = 3
# diffusers' StableDiffusionSafetyChecker (the CompVis safety checker of Stable Diffusion 1.x): a CLIP ViT-L/14 vision
# tower (24 layers of 12,596,224, patch, position and class embeddings 866,304, pre and post norms 4,096:
# 303,179,776), its 1024 x 768 visual projection (786,432), 17 + 3 concept embeddings of 768 and their 20 thresholds.
SAFETY_CHECKER_PARAMS = 303_981_588


def _quantized(params: int, linear_pct: int, width: int, inp: EstimateInput) -> int:
    """Bytes of ``params`` parameters of which ``linear_pct``% are linear weights quantized by ``inp``."""
    dense = dense_bytes(inp)
    if inp.quantization.method is QuantMethod.NONE:
        return params * dense
    linear = params * linear_pct // 100
    shape = LinearShape("linear", width, max(1, linear // width), 1)
    return linear_bytes(shape, inp.quantization, dense) + (params - shape.params) * dense


_BNB = (QuantMethod.BNB_NF4, QuantMethod.BNB_INT8)


def fp32_kept_params(inp: EstimateInput, spec: DiffusionSpec, quantize_text: bool) -> int:
    """Text-encoder parameters transformers loads in fp32 (``_keep_in_fp32_modules``, T5's FFN ``wo``).

    transformers honours the list when the encoder is loaded in float16, or by a quantizer that asks for it
    (bitsandbytes 4- and 8-bit: ``use_keep_in_fp32_modules = True``), and then leaves those modules
    unquantized. bfloat16 and fp32 loads keep the model dtype; FP8 weights here are cast or quantized after
    loading (diffusers layerwise casting, Quanto), which converts those modules too.
    """
    if quantize_text and inp.quantization.method in _BNB:
        return spec.text_encoder_fp32_params
    if inp.precision.weights is not DType.FP16 or (quantize_text and inp.quantization.method is QuantMethod.FP8):
        return 0
    return spec.text_encoder_fp32_params


def text_encoder_bytes(inp: EstimateInput, spec: DiffusionSpec, quantize_text: bool) -> tuple[int, Text]:
    """Bytes of the text encoders and a note on how they are stored."""
    dense = dense_bytes(inp)
    if inp.diffusion.text_encoders_fp32:
        return sum(spec.text_encoder_params) * 4, text("diffusion.bytes", bytes=4)
    kept = fp32_kept_params(inp, spec, quantize_text)
    params = sorted(spec.text_encoder_params)
    if kept:
        params[-1] -= kept  # the kept modules belong to the largest encoder (T5)
    encoders = sum(_quantized(p, 98, 4096, inp) if quantize_text else p * dense for p in params) + kept * 4
    if quantize_text:
        note = text("diffusion.quantized", storage=storage_note(inp.quantization))
    else:
        note = text("diffusion.bytes", bytes=dense)
    if kept:
        note = joined(note, text("diffusion.t5_fp32", params=kept), sep="; ")
    return encoders, note


def phases_of(inp: EstimateInput) -> tuple[str, ...]:
    """The phases of a generation: image-to-image and inpainting start with the VAE encode of the input."""
    return ALL if inp.diffusion.task is DiffusionTask.TEXT_TO_IMAGE else WITH_IMAGE


def _weights(inp: EstimateInput, spec: DiffusionSpec) -> list[Component]:
    offload = inp.diffusion.cpu_offload
    every = phases_of(inp)
    vae_phases = (IMAGE_ENCODE, DECODE) if every == WITH_IMAGE else (DECODE,)
    note = storage_note(inp.quantization)
    dense = dense_bytes(inp)
    denoiser = _quantized(spec.denoiser_params, spec.denoiser_linear_fraction_pct, spec.denoiser_hidden, inp)
    quantize_text = inp.diffusion.quantize_text_encoders
    encoders, text_note = text_encoder_bytes(inp, spec, quantize_text)
    vae = spec.vae_params * dense
    where = text("diffusion.offload") if offload else text("diffusion.resident")
    if inp.quantization.method is QuantMethod.NONE:
        denoiser_assumption = text("diffusion.bytes_where", bytes=dense, where=where)
    else:
        denoiser_assumption = text("diffusion.storage_where", storage=note, where=where)
    return [
        Component(
            "text_encoder_weights",
            "Text encoder weights",
            encoders,
            show(f"{' + '.join(num(p) for p in spec.text_encoder_params) or '0'} params", encoders),
            text("diffusion.storage_where", storage=text_note, where=where),
            (ENCODE,) if offload else every,
        ),
        Component(
            "weights",
            "Denoiser weights",
            denoiser,
            show(f"{num(spec.denoiser_params)} params ({spec.denoiser_linear_fraction_pct}% linear)", denoiser),
            denoiser_assumption,
            (DENOISE,) if offload else every,
        ),
        Component(
            "vae_weights",
            "VAE weights",
            vae,
            show(f"{num(spec.vae_params)} params x {dense} B", vae),
            text("diffusion.vae_where", where=where),
            vae_phases if offload else every,
        ),
    ]


def under_autocast(inp: EstimateInput) -> bool:
    """The denoiser runs under ``torch.autocast`` with a 16-bit compute dtype: said (``diffusion.autocast``), or
    implied by fp32 weights computed in 16 bits."""
    if compute_bytes(inp) >= dtype_bytes(DType.FP32):
        return False
    return inp.diffusion.autocast or inp.precision.weights is DType.FP32


def score_bytes(inp: EstimateInput) -> int:
    """Bytes an eager attention holds per score at its peak: the scaled scores and the softmax's output, both in the
    compute dtype; under autocast the softmax returns fp32 (``softmax`` is one of the ops autocast runs in float32:
    a 16-bit input gives a 4-byte output, which the next matmul reads through a 16-bit copy once the scores are
    freed), so ``b + 4``."""
    b_act = compute_bytes(inp)
    return b_act + dtype_bytes(DType.FP32) if under_autocast(inp) else 2 * b_act


def autocast_norm_bytes(inp: EstimateInput) -> int:
    """What the denoiser's working set would grow by if all of it were fp32, as the outputs of its group and layer
    norms are under autocast (autocast runs ``group_norm`` and ``layer_norm`` in float32): an upper bound of what
    the estimate leaves out there; 0 when not under autocast."""
    spec = inp.model.diffusion
    if spec is None or not under_autocast(inp):
        return 0
    working, _expr = _working_set(inp, spec)
    return working * (dtype_bytes(DType.FP32) - compute_bytes(inp)) // compute_bytes(inp)


def _tokens_and_batch(inp: EstimateInput, spec: DiffusionSpec) -> tuple[int, int]:
    """The tokens the denoiser attends over (a DiT joins the text's to the image's) and the batch it runs (doubled
    by classifier-free guidance)."""
    height, width = pixels(inp, spec)
    step = spec.vae_scale_factor * spec.patch_size
    tokens = latent_frames(inp, spec) * (height // step) * (width // step)
    if spec.denoiser_kind == "dit":
        tokens += spec.text_tokens  # joint attention over image and text tokens
    return tokens, inp.batch_size * (2 if inp.diffusion.guidance else 1)


def _working_set(inp: EstimateInput, spec: DiffusionSpec) -> tuple[int, str]:
    """The denoiser's per-token working set at its peak (scores aside) and its formula."""
    tokens, batch = _tokens_and_batch(inp, spec)
    b_act = compute_bytes(inp)
    # DiT block working set ~10h per token (residual, norm, qkv + out, 4h MLP and its activation);
    # a UNet also holds its skip connections (~6h per token at the first level's width).
    per_token = 10 if spec.denoiser_kind == "dit" else 16
    size = batch * tokens * per_token * spec.denoiser_hidden * b_act
    return size, f"{batch} x {num(tokens)} tokens x {per_token}h (h={spec.denoiser_hidden}) x {b_act} B"


def _denoiser_activations(inp: EstimateInput, spec: DiffusionSpec) -> Component:
    height, width = pixels(inp, spec)
    step = spec.vae_scale_factor * spec.patch_size
    tokens, batch = _tokens_and_batch(inp, spec)
    size, expr = _working_set(inp, spec)
    per_score = score_bytes(inp)
    if not inp.flash_attention and has_layout(spec):
        # Scores and softmax of the widest self-attention the UNet has (its levels' heads and tokens).
        heads, level_tokens = widest_self_attention(spec, height // step, width // step)
        size += batch * latent_frames(inp, spec) * heads * level_tokens * level_tokens * per_score
        expr += f" + scores {heads} heads x {num(level_tokens)}² x {per_score} B"
    elif not inp.flash_attention:
        size += batch * spec.denoiser_heads * tokens * tokens * per_score
        expr += f" + scores {spec.denoiser_heads} heads x tokens² x {per_score} B"
    return Component(
        "activations",
        "Denoiser activations",
        size,
        show(expr, size),
        _activation_note(inp, spec),
        (DENOISE,),
        dynamic=True,
    )


def _activation_note(inp: EstimateInput, spec: DiffusionSpec) -> Text:
    if not spec.is_video:
        return text("diffusion.activations")
    latent = latent_frames(inp, spec)
    tokens = text("video.tokens", latent=latent, frames=frames(inp, spec), t=spec.temporal_compression)
    return joined(text("diffusion.activations"), tokens)


def vae_bytes(inp: EstimateInput, spec: DiffusionSpec) -> int:
    """Bytes per VAE activation: the weights' dtype, fp32 where the pipeline upcasts an fp16 VAE to encode and
    decode (``DiffusionSpec.vae_force_upcast``, decision 0533)."""
    if spec.vae_force_upcast and inp.precision.weights is DType.FP16:
        return dtype_bytes(DType.FP32)
    return dense_bytes(inp)


def _vae_pass(inp: EstimateInput, spec: DiffusionSpec, height: int, width: int, channels: int) -> tuple[int, str]:
    """Bytes and formula of one VAE encode or decode call at ``height`` x ``width`` px with ``channels`` there: the
    first image's fitted working set, ``VAE_BATCH_TENSORS`` more for each further image decoded at once, and the
    fp32 copy of the VAE's weights where the pipeline upcasts it (decision 0533)."""
    images = 1 if inp.diffusion.vae_slicing else inp.batch_size
    b_vae = vae_bytes(inp, spec)
    size = height * width * channels * (VAE_HALF_TENSORS * b_vae + VAE_FP32_TENSORS * 4)
    expr = (
        f"1 image(s) x {height}x{width} px x {channels} ch x ({VAE_HALF_TENSORS} x {b_vae} B"
        f" + {VAE_FP32_TENSORS} x 4 B)"
    )
    if images > 1:
        size += (images - 1) * height * width * channels * VAE_BATCH_TENSORS * b_vae
        expr += f" + {images - 1} image(s) x {height}x{width} px x {channels} ch x {VAE_BATCH_TENSORS} x {b_vae} B"
    upcast = b_vae - dense_bytes(inp)
    if upcast:
        size += spec.vae_params * upcast
        expr += f" + VAE fp32 upcast {num(spec.vae_params)} x {upcast} B"
    return size, expr


def vae_workspace_bytes(inp: EstimateInput) -> int:
    """What the VAE decode's fitted working set holds beyond the tensors the decoder keeps, for one image (decision
    0578): of ``VAE_HALF_TENSORS`` and ``VAE_FP32_TENSORS`` per pixel and channel, a resnet block of the decoder's
    full-resolution levels keeps ``VAE_BATCH_TENSORS`` under ``torch.no_grad`` (diffusers' ``ResnetBlock2D.forward``:
    its input, kept for the residual, the norm's output and the activation's); the rest of the fit is the
    convolutions' cuDNN workspace, which a run gets only where the card has room for it: with ``cudnn.benchmark`` off
    (PyTorch's default) ``run_single_conv`` tries the heuristic's engine configs in order and passes over one whose
    workspace raises OutOfMemoryError for the next (``try_configs`` in ``aten/src/ATen/native/cudnn/Conv_v8.cpp``),
    so on a card with little free memory a convolution runs with a smaller workspace or none. A video model's 3D VAE
    counts the same share over the frames of one decoder pass (:func:`vramcalc.video.video_decode`); a tiled decode
    over one tile. 0 outside generation (a diffusion model trained, a language model)."""
    spec = inp.model.diffusion
    if spec is None or inp.workload is not Workload.DIFFUSION:
        return 0
    height, width = vae_pass_px(inp, spec)
    b_vae = dense_bytes(inp) if spec.is_video else vae_bytes(inp, spec)
    share = (VAE_HALF_TENSORS - VAE_BATCH_TENSORS) * b_vae + VAE_FP32_TENSORS * 4
    return pass_frames(inp, spec) * height * width * spec.vae_channels[1] * share


def _vae_decode(inp: EstimateInput, spec: DiffusionSpec) -> Component:
    if spec.is_video:
        return video_decode(inp, spec, VAE_HALF_TENSORS, VAE_FP32_TENSORS)
    height, width = vae_pass_px(inp, spec)
    tiled = inp.diffusion.vae_tiling
    size, expr = _vae_pass(inp, spec, height, width, spec.vae_channels[1])
    return Component(
        "vae_decode",
        "VAE decode activations",
        size,
        show(expr, size),
        joined(text("diffusion.tiled"), text("diffusion.vae_decode")) if tiled else text("diffusion.vae_decode"),
        (DECODE,),
        dynamic=True,
    )


def diffusion_components(inp: EstimateInput) -> list[Component]:
    """All components of a text-to-image generation on one card."""
    spec = inp.model.diffusion
    if spec is None:  # pragma: no cover - ModelSpec validation requires it for kind == diffusion
        raise InvalidInput("model.diffusion", "a diffusion model needs its pipeline description")
    parts = [*_weights(inp, spec), _denoiser_activations(inp, spec), _vae_decode(inp, spec)]
    if inp.diffusion.safety_checker:
        size = SAFETY_CHECKER_PARAMS * dense_bytes(inp)
        parts.append(
            Component(
                "safety_checker_weights",
                "Safety checker weights",
                size,
                show(f"{num(SAFETY_CHECKER_PARAMS)} params x {dense_bytes(inp)} B", size),
                text("diffusion.safety_checker"),
                phases_of(inp),
            )
        )
    if inp.diffusion.task is not DiffusionTask.TEXT_TO_IMAGE:
        parts.append(_vae_encode(inp, spec))
    return parts


def _vae_encode(inp: EstimateInput, spec: DiffusionSpec) -> Component:
    """The VAE encoder over the input image: its first level runs at full resolution with the VAE's first width
    (the same tensor count per pixel as the decoder's last level, decision 0465); tiling, slicing, further images
    and the upcast count as in the decode (decision 0533)."""
    height, width = vae_pass_px(inp, spec)
    size, expr = _vae_pass(inp, spec, height, width, spec.vae_channels[0])
    return Component(
        "vae_encode",
        "VAE encode activations",
        size,
        show(expr, size),
        text(f"diffusion.vae_encode.{inp.diffusion.task.value}"),
        (IMAGE_ENCODE,),
        dynamic=True,
    )

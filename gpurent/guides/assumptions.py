"""How long a guide's job runs: compute in FLOPs divided by an *assumed* throughput. Not a measurement.

The duration on a guide page is `work FLOPs / (cards × peak dense BF16 FLOP/s × utilization)`:

- **work**: counted from the model's parameters and the job of the scope (`scenarios.Job`):
  serving `2 × params × (input + output tokens) × requests`; training `6 × params × tokens` (forward 2,
  backward 4), adapters `4 × params × tokens` (the frozen base gets no weight gradients), plus one extra
  forward (`2 × params × tokens`) with activation checkpointing; vision training counts
  `images × epochs × (patches + 1)` tokens; image generation `2 × denoiser params × latent positions ×
  steps` per image, doubled by classifier-free guidance, with UNets counted at 1/8 of their first-level
  positions because most of their layers work on downsampled maps.
- **peak**: the vendor's published dense BF16 tensor figure per card (`PEAK_BF16_TFLOPS`, by catalog slug).
- **utilization**: the share of that peak a typical job reaches (`UTILIZATION_PCT`): serving is low
  because generating tokens is bound by memory bandwidth, not arithmetic.

Both tables are assumptions stated on the page; a GPU without an entry gets no duration, only the advice to
measure. Floats are fine here: these are estimates of time, never money.
"""

from __future__ import annotations

from dataclasses import dataclass

from vramcalc import EstimateInput, ModelKind
from vramcalc.architecture import param_counts

__all__ = ["PEAK_BF16_TFLOPS", "UTILIZATION_PCT", "Duration", "duration_for", "work_flops"]

# Published peak dense (no sparsity) BF16 tensor throughput of one card, in TFLOP/s.
PEAK_BF16_TFLOPS: dict[str, float] = {
    "rtx-4090-24gb": 82.6,  # GeForce: FP32-accumulate rate, which PyTorch's BF16 matmuls use
    "l40s-48gb": 181.0,
    "a100-80gb": 312.0,
    "h100-80gb": 989.0,
    "h200-141gb": 989.0,
    "b200-2x180gb": 2250.0,
    "mi300x-192gb": 1307.0,
}

# Share of the peak a typical well-configured job reaches, by job kind (see `scenarios.WorkloadSpec`).
UTILIZATION_PCT: dict[str, int] = {"serving": 20, "training": 40, "vision": 35, "images": 30}

_UNET_POSITION_FACTOR = 8


def _params(inp: EstimateInput) -> int:
    model = inp.model
    if model.kind is ModelKind.DIFFUSION:
        assert model.diffusion is not None  # noqa: S101 - ModelSpec validation guarantees it
        return model.diffusion.denoiser_params
    return param_counts(model).total


def _image_positions(inp: EstimateInput) -> int:
    model = inp.model
    if model.kind is ModelKind.VISION:
        side = (inp.image_height or model.image_size) // model.patch_size
        return side * side + 1
    spec = model.diffusion
    assert spec is not None  # noqa: S101 - only vision and diffusion models get here
    side = (inp.image_height or 1024) // spec.vae_scale_factor // spec.patch_size
    positions = side * side
    if spec.denoiser_kind == "unet":
        return max(1, positions // _UNET_POSITION_FACTOR)
    return positions + spec.text_tokens


def work_flops(
    inp: EstimateInput, job_kind: str, *, requests: int, tokens: int, images: int, epochs: int, steps: int
) -> int:
    """FLOPs of the job (see the module docstring for each formula); a day's worth for serving and images."""
    params = _params(inp)
    recompute = 2 if inp.training.activation_checkpointing else 0
    if job_kind == "serving":
        return 2 * params * tokens * requests
    if job_kind == "images":
        guidance = 2 if inp.diffusion.guidance else 1
        return 2 * params * _image_positions(inp) * steps * guidance * images
    per_token = (4 if inp.workload.is_adapter else 6) + recompute
    if job_kind == "vision":
        tokens = images * epochs * _image_positions(inp)
    return per_token * params * tokens


@dataclass(frozen=True)
class Duration:
    """The assumed run time of a job on `cards` cards.

    Attributes:
        hours: wall-clock hours of the whole job (serving and images: of one day's load).
        peak_tflops: the assumed peak per card.
        utilization_pct: the assumed share of the peak.
        per_day: the job is a daily load (serving, image generation) rather than one run.
    """

    hours: float
    peak_tflops: float
    utilization_pct: int
    per_day: bool

    @property
    def busy_share_pct(self) -> int:
        """For a daily load: the share of 24 hours the configuration is busy, in whole percent (rounded up)."""
        return -int(-self.hours * 100 // 24)

    @property
    def replicas(self) -> int:
        """For a daily load: identical configurations needed to keep up with it (at least 1)."""
        return max(1, -int(-self.hours // 24))

    @property
    def minutes(self) -> float:
        return self.hours * 60


def duration_for(gpu_slug: str, cards: int, flops: int, job_kind: str) -> Duration | None:
    """The assumed duration of `flops` on `cards` cards of `gpu_slug`, or None without a throughput entry."""
    peak = PEAK_BF16_TFLOPS.get(gpu_slug)
    if peak is None or cards < 1:
        return None
    utilization = UTILIZATION_PCT[job_kind]
    seconds = flops / (cards * peak * 1e12 * utilization / 100)
    return Duration(seconds / 3600, peak, utilization, job_kind in ("serving", "images"))

"""Video diffusion inference: latent frames of a 3D causal VAE and its frame-batched decode (decision 0223).

A video DiT sees ``latent frames x (H / 8 / p) x (W / 8 / p)`` tokens (plus the prompt's), where a 3D VAE
with temporal compression ``t`` turns ``F`` frames into ``(F - 1) // t + 1`` latent frames (the first frame
is kept on its own). The decoder runs over ``vae_decode_latent_frames`` latent frames at a time (the causal
convolutions carry a small cache between passes), so its full-resolution working set is one pass's frames,
not the whole clip; the decoded clip itself is kept (the passes' outputs and their concatenation).
"""

from __future__ import annotations

from .components.weights import dense_bytes
from .fmt import show
from .inputs import EstimateInput
from .model import DiffusionSpec
from .result import Component
from .text import joined, text

__all__ = ["frames", "latent_frames", "pass_frames", "pixels", "vae_pass_px", "video_decode"]

RGB = 3
# The passes' outputs and their concatenation (torch.cat) are live together at the end of the decode.
DECODED_COPIES = 2


def pixels(inp: EstimateInput, spec: DiffusionSpec) -> tuple[int, int]:
    """Output height and width: the input's, else the model's default (1024 for image models)."""
    height = inp.image_height or spec.default_height_px or 1024
    width = inp.image_width or spec.default_width_px or 1024
    return height, width


def vae_pass_px(inp: EstimateInput, spec: DiffusionSpec) -> tuple[int, int]:
    """Height and width one VAE pass covers: the output's or, with ``vae_tiling``, at most one tile's (a video
    model's tile may be wider than high, ``vae_tile_width_px``)."""
    height, width = pixels(inp, spec)
    if not inp.diffusion.vae_tiling:
        return height, width
    tile_w = (spec.vae_tile_width_px or spec.vae_tile_px) if spec.is_video else spec.vae_tile_px
    return min(height, spec.vae_tile_px), min(width, tile_w)


def frames(inp: EstimateInput, spec: DiffusionSpec) -> int:
    """Frames generated: 1 for an image model, else the input's or the model's default."""
    if not spec.is_video:
        return 1
    return inp.diffusion.num_frames or spec.default_frames


def latent_frames(inp: EstimateInput, spec: DiffusionSpec) -> int:
    """Latent frames of the 3D causal VAE: the first frame alone, then one per ``temporal_compression``."""
    if not spec.is_video:
        return 1
    return (frames(inp, spec) - 1) // spec.temporal_compression + 1


def pass_frames(inp: EstimateInput, spec: DiffusionSpec) -> int:
    """Pixel frames one decoder pass produces (the first pass: one extra latent frame's worth)."""
    total = frames(inp, spec)
    if not spec.vae_decode_latent_frames:
        return total
    return min(total, spec.vae_decode_latent_frames * spec.temporal_compression + 1)


def video_decode(inp: EstimateInput, spec: DiffusionSpec, half_tensors: int, fp32_tensors: int) -> Component:
    """The 3D VAE decode: one pass's full-resolution tensors (or one tile's) plus the decoded clip."""
    height, width = vae_pass_px(inp, spec)
    clip = frames(inp, spec)
    tiled = inp.diffusion.vae_tiling
    videos = 1 if inp.diffusion.vae_slicing else inp.batch_size
    per_pass = pass_frames(inp, spec)
    b_vae = dense_bytes(inp)
    channels = spec.vae_channels[1]
    halves = half_tensors + spec.vae_decode_extra_tensors
    working = videos * per_pass * height * width * channels * (halves * b_vae + fp32_tensors * 4)
    out_h, out_w = pixels(inp, spec)
    decoded = DECODED_COPIES * inp.batch_size * clip * out_h * out_w * RGB * b_vae
    size = working + decoded
    expr = (
        f"{videos} video(s) x {per_pass} frames per pass x {height}x{width} px x {channels} ch x"
        f" ({halves} x {b_vae} B + {fp32_tensors} x 4 B) + {DECODED_COPIES} x {clip} frames x {out_h}x{out_w}"
        f" x {RGB} x {b_vae} B"
    )
    note = text("video.decode", frames=per_pass, clip=clip)
    return Component(
        "vae_decode",
        "VAE decode activations",
        size,
        show(expr, size),
        joined(text("diffusion.tiled"), note) if tiled else note,
        ("vae_decode",),
        dynamic=True,
    )

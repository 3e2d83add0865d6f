"""Estimator form fields for video diffusion models: frames and a frame width (decision 0223).

Shown only when the chosen preset is a video model; each sets an engine option (the parity test keeps them
reachable): ``diffusion.num_frames`` and ``image_width`` (the square ``image_size`` sets both sides otherwise).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from vramcalc import InvalidInput
from vramcalc.presets import get_preset

from ..workloads import WorkloadKind
from .numbers import engine_number

__all__ = ["VIDEO_ONLY", "VideoFields", "is_video_preset"]

VIDEO_ONLY = ("num_frames", "frame_width")


def is_video_preset(preset: str) -> bool:
    """Whether ``preset`` names a video diffusion model (a 3D VAE with temporal compression)."""
    try:
        spec = get_preset(preset).diffusion if preset else None
    except InvalidInput:
        return False
    return spec is not None and spec.is_video


class VideoFields(forms.Form):
    """Video generation fields (a base of `EstimateForm`)."""

    num_frames = engine_number(
        _("Video frames"),
        "diffusion.num_frames",
        required=False,
        help_text=_("Frames of the generated clip; empty uses the model's default (CogVideoX: 49)."),
    )
    frame_width = engine_number(
        _("Frame width (pixels)"),
        "image_width",
        required=False,
        help_text=_("Video frames are rarely square: the image size above is then the height (CogVideoX: 480x720)."),
    )

    @staticmethod
    def video_inputs(cleaned: Mapping[str, Any], data: dict[str, Any], kind: WorkloadKind, preset: str) -> None:
        """The video fields onto the engine inputs, when the model is a video model and it generates."""
        if not kind.generation or not is_video_preset(preset):
            return
        if cleaned.get("num_frames"):
            data.setdefault("diffusion", {})["num_frames"] = cleaned["num_frames"]
        if cleaned.get("frame_width"):
            data["image_width"] = cleaned["frame_width"]

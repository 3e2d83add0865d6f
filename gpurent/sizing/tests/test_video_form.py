"""Video diffusion (decision 0223) is reachable from the form, the CLI and the API, with the same result."""

import io
import json

import pytest

from gpurent.accounts.services import api_token_create
from gpurent.sizing.form_choices import DEFAULTS
from gpurent.sizing.forms import EstimateForm
from vramcalc import estimate
from vramcalc.cli import main as vramcalc_main
from vramcalc.serialize import inputs_from_dict

VIDEO = {
    "model": "cogvideox-2b",
    "workload": "diffusion",
    "precision": {"weights": "fp16", "compute": "fp16", "kv_cache": "bf16"},
    "seq_len": 4096,  # the form always sends one; a diffusion estimate does not use it
    "image_height": 480,
    "image_width": 720,
    "diffusion": {"guidance": True, "num_frames": 81, "cpu_offload": True},
}


def _form(**fields: str) -> EstimateForm:
    return EstimateForm({**DEFAULTS, "preset": "cogvideox-2b", "workload": "diffusion", "weights": "fp16", **fields})


def test_frames_and_frame_width_through_the_form_equal_the_library():
    form = _form(image_size="480", frame_width="720", num_frames="81", cpu_offload="on")
    assert form.is_valid(), form.errors
    assert form.cleaned_data["inputs"] == inputs_from_dict(VIDEO)


def test_video_fields_are_shown_only_for_a_video_model_that_generates():
    assert not {"num_frames", "frame_width"} & _form().hidden_fields_for_workload()
    image = EstimateForm({**DEFAULTS, "preset": "sdxl-base-1.0", "workload": "diffusion"})
    assert {"num_frames", "frame_width"} <= image.hidden_fields_for_workload()
    assert {"num_frames", "frame_width"} <= EstimateForm(DEFAULTS).hidden_fields_for_workload()


def test_video_fields_are_ignored_for_an_image_model():
    form = EstimateForm({**DEFAULTS, "preset": "sdxl-base-1.0", "workload": "diffusion", "num_frames": "49"})
    assert form.is_valid(), form.errors
    assert form.cleaned_data["inputs"].diffusion.num_frames == 0


def test_video_training_is_a_form_error_not_a_guess():
    form = _form(workload="lora")
    assert not form.is_valid()
    assert "not modelled" in str(form.errors)


def test_the_cli_gives_the_same_peak():
    out = io.StringIO()
    flags = ["--preset", "cogvideox-2b", "--workload", "diffusion", "--weights", "fp16", "--image-height", "480"]
    flags += ["--image-width", "720", "--diffusion-num-frames", "81", "--cpu-offload", "--json"]
    assert vramcalc_main(flags, out=out) == 0
    assert json.loads(out.getvalue())["estimate"]["peak_bytes"] == estimate(inputs_from_dict(VIDEO)).peak_bytes


@pytest.mark.django_db
def test_the_api_accepts_the_frames(client, demo_catalog, user):
    _token, secret = api_token_create(user=user, name="test")
    response = client.post(
        "/api/v1/estimates",
        VIDEO,
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY="video-1",
        HTTP_AUTHORIZATION=f"Bearer {secret}",
    )
    assert response.status_code == 201, response.content
    assert response.json()["peak_bytes"] == estimate(inputs_from_dict(VIDEO)).peak_bytes

"""Video diffusion (decision 0223) in the form: which fields show, which are ignored, what is refused. That the
form, the CLI and the API reach the library's input is `test_surfaces_agree.py`."""

from gpurent.sizing.forms.choices import DEFAULTS
from gpurent.sizing.forms.estimate import EstimateForm


def _form(**fields: str) -> EstimateForm:
    return EstimateForm({**DEFAULTS, "preset": "cogvideox-2b", "workload": "diffusion", "weights": "fp16", **fields})


def test_video_fields_are_shown_only_for_a_video_model_that_generates():
    assert not {"num_frames", "frame_width"} & _form().hidden_field_names()
    image = EstimateForm({**DEFAULTS, "preset": "sdxl-base-1.0", "workload": "diffusion"})
    assert {"num_frames", "frame_width"} <= image.hidden_field_names()
    assert {"num_frames", "frame_width"} <= EstimateForm(DEFAULTS).hidden_field_names()


def test_video_fields_are_ignored_for_an_image_model():
    form = EstimateForm({**DEFAULTS, "preset": "sdxl-base-1.0", "workload": "diffusion", "num_frames": "49"})
    assert form.is_valid(), form.errors
    assert form.cleaned_data["inputs"].diffusion.num_frames == 0


def test_video_training_is_a_form_error_not_a_guess():
    form = _form(workload="lora")
    assert not form.is_valid()
    assert "not modelled" in str(form.errors)

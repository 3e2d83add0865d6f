"""ZeRO-3 limits and plan options of one framework in the form. That the form, the CLI and the API reach the
library's input for a Megatron-style plan is `test_surfaces_agree.py`."""

from gpurent.sizing.forms.choices import DEFAULTS
from gpurent.sizing.forms.estimate import EstimateForm


def _form(**fields: str) -> EstimateForm:
    form = EstimateForm({**DEFAULTS, "workload": "full_finetune", "activation_checkpointing": "on", **fields})
    assert form.is_valid(), form.errors
    return form


def test_zero3_limits_are_given_in_millions_of_parameters():
    form = _form(strategy="fsdp", cards="8", zero3_prefetch_params="500", zero3_max_live_params="1000")
    plan = form.cleaned_data["inputs"].parallel
    assert (plan.zero3_prefetch_params, plan.zero3_max_live_params) == (500_000_000, 1_000_000_000)


def test_zero2_reduce_buffers_are_given_in_millions_of_elements():
    form = _form(strategy="zero2", cards="8", zero2_reduce_buffer_params="1800")
    assert form.cleaned_data["inputs"].parallel.zero2_reduce_buffer_params == 1_800_000_000


def test_zero2_reduce_buffers_under_another_strategy_are_a_form_error():
    form = EstimateForm(
        {**DEFAULTS, "workload": "full_finetune", "strategy": "fsdp", "cards": "2", "zero2_reduce_buffer_params": "9"}
    )
    assert not form.is_valid()
    assert "zero2_reduce_buffer_params" in form.errors


def test_zero3_limits_are_ignored_for_inference():
    form = EstimateForm({**DEFAULTS, "zero3_prefetch_params": "500"})
    assert form.is_valid(), form.errors
    assert form.cleaned_data["inputs"].parallel.zero3_prefetch_params == 0


def test_a_plan_option_of_another_framework_is_a_form_error_on_its_field():
    form = EstimateForm(
        {**DEFAULTS, "workload": "full_finetune", "strategy": "fsdp", "cards": "2", "distributed_optimizer": "on"}
    )
    assert not form.is_valid()
    assert "distributed_optimizer" in form.errors


def test_freed_gradients_refused_with_a_kept_gradient_buffer_show_the_reason_on_their_own_checkbox():
    """The engine refuses `training.gradients_freed` with DDP's bucket views (gradients never freed) or FSDP's
    no_sync (gradients accumulate): the message stands next to that checkbox, not next to the optimizer."""
    for plan in ({"strategy": "ddp", "grad_bucket_view": "on"}, {"strategy": "fsdp", "fsdp_no_sync": "on"}):
        form = EstimateForm({**DEFAULTS, "workload": "full_finetune", "cards": "2", "gradients_freed": "on", **plan})
        assert not form.is_valid()
        assert list(form.errors) == ["gradients_freed"], form.errors

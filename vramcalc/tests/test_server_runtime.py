"""vLLM/SGLang runtime overheads: CUDA graphs, the profiling run, the sampler warm-up."""

from __future__ import annotations

import pytest

from vramcalc import InvalidInput, estimate
from vramcalc.serialize import inputs_from_dict


@pytest.mark.parametrize("engine", ["vllm", "sglang"])
def test_server_engines_add_graphs_the_sampler_and_profile_max_num_batched_tokens(engine: str) -> None:
    plain = estimate(inputs_from_dict({"model": "llama-3.1-8b", "runtime": {"engine": "transformers"}}))
    served = estimate(inputs_from_dict({"model": "llama-3.1-8b", "runtime": {"engine": engine}}))
    assert served.component("cuda_graphs") is not None
    assert served.component("engine_runtime") is not None
    assert plain.component("cuda_graphs") is None
    work_plain, work_served = plain.component("workspace"), served.component("workspace")
    assert work_plain is not None
    assert work_served is not None
    assert work_served.bytes == work_plain.bytes * 8192 // 2048
    assert any("pre-allocate" in note for note in served.notes)


def test_server_runtime_settings_are_validated() -> None:
    with pytest.raises(InvalidInput) as error:
        inputs_from_dict({"model": "llama-3.1-8b", "runtime": {"max_num_seqs": -1}})
    assert error.value.field == "runtime.max_num_seqs"

"""``python -m vramcalc``: readable breakdown, --json, errors."""

from __future__ import annotations

import importlib
import io
import json
import runpy
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from vramcalc.cli import main

ROOT = Path(__file__).resolve().parents[2]


def _run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out)
    return code, out.getvalue()


def test_readable_breakdown_lists_components_and_peak() -> None:
    code, text = _run("--preset", "llama-3.1-8b", "--context", "8192", "--concurrent", "4")
    assert code == 0
    assert "Peak per card:" in text
    assert "KV cache" in text
    assert "CUDA context" in text


def test_json_output_with_card_report() -> None:
    flags = ("--preset", "llama-3.1-70b", "--context", "8192", "--engine", "vllm", "--card-gib", "80", "--json")
    code, text = _run(*flags)
    assert code == 0
    payload = json.loads(text)
    assert payload["estimate"]["peak_bytes"] > 0
    assert payload["card"]["min_cards"] == 2
    assert payload["card"]["fits"] is False
    assert "kv_capacity_tokens" in payload["card"]
    assert payload["inputs"]["model"]["name"] == "llama-3.1-70b"


def test_training_flags_and_human_card_line() -> None:
    code, text = _run(
        "--preset", "llama-3.1-8b", "--workload", "qlora", "--quant", "bnb_nf4", "--double-quant",
        "--batch", "2", "--seq-len", "2048", "--checkpointing", "--chunked-loss", "--lora-rank", "16",
        "--lora-targets", "qv", "--optimizer", "adamw_8bit", "--optimizer-in-backward",
        "--weights", "bf16", "--compute", "bf16", "--card-gib", "24",
    )  # fmt: skip
    assert code == 0
    assert "Card 24.0 GiB: fits" in text


def test_parallel_and_diffusion_flags() -> None:
    code, text = _run(
        "--preset",
        "llama-3.1-8b",
        "--workload",
        "full_finetune",
        "--strategy",
        "zero3",
        "--cards",
        "4",
        "--offload-optimizer",
        "--fused-optimizer",
        "--master-weights",
        "--optimizer-dtype",
        "fp32",
        "--no-flash",
        "--context-mib",
        "600",
    )
    assert code == 0
    assert "Gathered parameters" in text
    code, text = _run(
        "--preset",
        "flux.1-dev",
        "--workload",
        "diffusion",
        "--image",
        "1024",
        "--no-guidance",
        "--vae-tiling",
        "--cpu-offload",
    )
    assert code == 0
    assert "VAE decode" in text
    code, _ = _run("--preset", "llama-3.1-70b", "--cards", "2", "--kv-dtype", "fp8", "--engine", "vllm")
    assert code == 0
    code, _ = _run(
        "--preset",
        "llama-2-7b",
        "--quant",
        "gptq",
        "--bits",
        "4",
        "--group-size",
        "32",
        "--gguf-type",
        "q4_0",
        "--tp",
        "2",
        "--cards",
        "2",
        "--strategy",
        "single",
        "--offload-params",
    )
    assert code == 2


def test_list_presets() -> None:
    code, text = _run("--list-presets")
    assert code == 0
    assert "deepseek-v3" in text


def test_errors_exit_2_with_field() -> None:
    assert _run() == (2, "error: model: give --preset, --config or --input\n")
    code, text = _run("--preset", "llama-3.1-8b", "--batch", "0")
    assert code == 2
    assert "batch_size" in text
    code, text = _run("--preset", "llama-3.1-8b", "--card-gib", "1e9")
    assert code == 2
    assert text.startswith("error: --card-gib: must be more than 0 and at most ")


def test_config_safetensors_index_and_input_files(tmp_path: Path) -> None:
    config = tmp_path / "config.json"
    config.write_text(
        json.dumps(
            {
                "model_type": "llama",
                "num_hidden_layers": 2,
                "hidden_size": 64,
                "num_attention_heads": 4,
                "intermediate_size": 128,
                "vocab_size": 100,
            }
        )
    )
    header = json.dumps({"w": {"dtype": "BF16", "shape": [1000, 10], "data_offsets": [0, 20000]}}).encode()
    weights = tmp_path / "model.safetensors"
    weights.write_bytes(struct.pack("<Q", len(header)) + header + bytes(16))
    code, text = _run("--config", str(config), "--safetensors", str(weights), "--json")
    assert code == 0
    assert json.loads(text)["inputs"]["model"]["param_count"] == 10_000
    index = tmp_path / "index.json"
    index.write_text(json.dumps({"metadata": {"total_size": 4000}}))
    code, text = _run("--config", str(config), "--index", str(index), "--json")
    assert json.loads(text)["inputs"]["model"]["param_count"] == 2000
    inputs = tmp_path / "inputs.json"
    inputs.write_text(json.dumps({"model": "llama-3.2-1b", "context_len": 4096}))
    code, text = _run("--input", str(inputs), "--json")
    assert json.loads(text)["inputs"]["context_len"] == 4096
    assert _run("--input", str(tmp_path / "missing.json"))[0] == 2


def test_python_dash_m_entry_point() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "vramcalc", "--preset", "bert-base-cased", "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["estimate"]["workload"] == "inference"


def test_module_entry_point_in_process(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "argv", ["vramcalc", "--list-presets"])
    with pytest.raises(SystemExit) as info:
        runpy.run_module("vramcalc", run_name="__main__")
    assert info.value.code == 0
    assert "llama-3.1-8b" in capsys.readouterr().out


def test_importing_the_entry_module_does_not_run_the_cli() -> None:
    module = importlib.import_module("vramcalc.__main__")
    assert module.main is main


def test_generated_flags_reach_every_option_of_the_schema() -> None:
    from vramcalc.cli import build_parser, flag_paths, inputs_from_args
    from vramcalc.option_schema import options

    assert set(flag_paths()) >= {o.path for o in options()}
    args = build_parser().parse_args(
        [
            "--preset",
            "llama-3.1-8b",
            "--workload",
            "full_finetune",
            "--seq-len",
            "4096",
            "--strategy",
            "fsdp",
            "--cards",
            "4",
            "--parallel-sequence-parallel",
            "4",
            "--training-compiled",
            "--runtime-comm-buffer-mib",
            "256",
            "--master-weights",
        ]
    )
    inp = inputs_from_args(args)
    assert (inp.parallel.sequence_parallel, inp.training.compiled, inp.runtime.comm_buffer_mib) == (4, True, 256)
    assert inp.precision.master_weights
    serving = inputs_from_args(build_parser().parse_args(["--preset", "sdxl-base-1.0", "--workload", "diffusion"]))
    assert serving.diffusion.guidance

"""Accuracy of the vramcalc estimator against published GPU memory figures.

Reads the public benchmark cases (``shared/benchmarks/estimator_cases.json`` next to the repository,
or ``--cases PATH`` / ``$VRAMCALC_BENCH_CASES``), maps each case to engine inputs with
``bench/estimator_cases_map.json`` (one entry per case, with notes), and prints per case and per
category the estimate, the published figure and the relative error, next to two baselines computed
in the same run on the same cases:

* weights only: parameters x bytes of the dtype, quantized formats as a plain bits/8 discount
  (what ``accelerate estimate-memory`` reports);
* weights + KV: exact weight bytes (metadata included) plus ``2 x layers x k x d x ctx x batch``
  KV cache with sliding windows, no MLA, no per-card division, no activations (what hf-mem reports).

Each case is compared like with like: the quantity named by the mapping's ``compare`` field (weights,
KV, model states, activations, the allocator peak, the whole-process peak …); a baseline that has no
term for that quantity predicts 0.

Usage: ``python bench/estimator_accuracy.py [--cases PATH] [--json]``
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vramcalc import EstimateInput, Quantization, QuantMethod, estimate  # noqa: E402 - after the sys.path line above
from vramcalc.architecture import param_counts  # noqa: E402 - after the sys.path line above
from vramcalc.components.activations import layer_activation, sequence_tokens  # noqa: E402 - after the sys.path line above
from vramcalc.components.weights import dense_bytes, model_weight_bytes  # noqa: E402 - after the sys.path line above
from vramcalc.diffusion import DECODE  # noqa: E402 - after the sys.path line above
from vramcalc.model import ModelKind  # noqa: E402 - after the sys.path line above
from vramcalc.result import Estimate  # noqa: E402 - after the sys.path line above
from vramcalc.serialize import inputs_from_dict  # noqa: E402 - after the sys.path line above
from vramcalc.units import GIB  # noqa: E402 - after the sys.path line above

DEFAULT_CASES = Path(__file__).resolve().parents[2] / "shared/benchmarks/estimator_cases.json"
MAPPING = Path(__file__).resolve().parent / "estimator_cases_map.json"
CATEGORIES = ("weights", "kv", "training", "inference", "diffusion")
STATES = ("weights", "gradients", "master_weights", "optimizer_state")
_NAIVE_BYTES = {  # accelerate: int8 = fp32 size / 4, int4 = fp32 size / 8, on every parameter
    QuantMethod.BNB_INT8: 1.0,
    QuantMethod.FP8: 1.0,
    QuantMethod.INT8_WEIGHT_ONLY: 1.0,
}


def _vae_phase_reserved(result: Estimate) -> int:
    total = next(p.bytes for p in result.phases if p.phase == DECODE)
    outside = sum(c.bytes for c in result.components if DECODE in c.phases and not c.in_allocator)
    return total - outside


def _nf4_saving(inp: EstimateInput) -> int:
    single = model_weight_bytes(inp.model, dense_bytes(inp), Quantization(QuantMethod.BNB_NF4))
    double = model_weight_bytes(inp.model, dense_bytes(inp), Quantization(QuantMethod.BNB_NF4, double_quant=True))
    return single.total - double.total


def engine_value(compare: str, inp: EstimateInput) -> int:
    """The estimated quantity the case's figure covers."""
    result = estimate(inp)
    values: dict[str, Callable[[], int]] = {
        "weights": lambda: result.bytes_of("weights", "text_encoder_weights", "vae_weights"),
        "weights_all_cards": lambda: model_weight_bytes(inp.model, dense_bytes(inp), inp.quantization).total,
        "kv_cache": lambda: result.bytes_of("kv_cache"),
        "model_states": lambda: result.bytes_of(*STATES),
        "model_states_gathered": lambda: result.bytes_of(*STATES, "gathered_params"),
        "activations": lambda: result.bytes_of("activations"),
        "layer_activation": lambda: layer_activation(inp, sequence_tokens(inp), inp.batch_size).total,
        "nf4_dq_saving": lambda: _nf4_saving(inp),
        "peak": lambda: result.peak_bytes,
        "peak_reserved": lambda: result.peak_reserved_bytes,
        "vae_phase_reserved": lambda: _vae_phase_reserved(result),
    }
    return values[compare]()


def _all_params(inp: EstimateInput) -> int:
    spec = inp.model.diffusion
    if spec is not None:
        return spec.denoiser_params + sum(spec.text_encoder_params) + spec.vae_params
    return param_counts(inp.model).total


def weights_only_baseline(inp: EstimateInput) -> int:
    """accelerate estimate-memory: parameters x dtype bytes, quantization as a plain discount."""
    method = inp.quantization.method
    per_param = float(dense_bytes(inp)) if method is QuantMethod.NONE else _NAIVE_BYTES.get(method, 0.5)
    if inp.model.checkpoint_prequantized and inp.model.checkpoint_bytes is not None:
        return inp.model.checkpoint_bytes
    return int(_all_params(inp) * per_param)


def _hfmem_kv(inp: EstimateInput) -> int:
    model = inp.model
    if inp.workload.is_training or model.kind is not ModelKind.DECODER:
        return 0
    ctx = inp.context_tokens
    sliding = 0 if model.sliding_window is None else (model.sliding_window_layers or model.num_layers)
    tokens = (model.num_layers - sliding) * ctx + sliding * min(ctx, model.sliding_window or ctx)
    kv_bytes = 1 if inp.precision.kv_cache.value == "fp8" else 2
    return 2 * tokens * model.kv_heads * model.dim_per_head * kv_bytes * inp.concurrent_sequences


def _hfmem_weights(inp: EstimateInput) -> int:
    if inp.model.kind is ModelKind.DIFFUSION:
        return estimate(inp).bytes_of("weights", "text_encoder_weights", "vae_weights")
    return model_weight_bytes(inp.model, dense_bytes(inp), inp.quantization).total


def baseline_value(name: str, compare: str, inp: EstimateInput) -> int:
    """What a baseline predicts for the case's quantity (0 when it has no such term)."""
    if compare in ("activations", "layer_activation"):
        return 0
    if compare == "vae_phase_reserved":
        spec = inp.model.diffusion
        return 0 if spec is None else spec.vae_params * dense_bytes(inp)
    if compare == "nf4_dq_saving":
        return 0 if name == "weights_only" else _nf4_saving(inp)  # hf-mem reads the real checkpoint bytes
    if compare == "kv_cache":
        return 0 if name == "weights_only" else _hfmem_kv(inp)
    if name == "weights_only":
        return weights_only_baseline(inp)
    kv = 0 if compare in ("weights", "weights_all_cards") else _hfmem_kv(inp)
    return _hfmem_weights(inp) + kv


def published_bytes(case: dict[str, Any]) -> int:
    """The published figure in bytes (GiB conversions were made in the case file)."""
    if case.get("published_figure_bytes"):
        return int(case["published_figure_bytes"])
    return round(float(case["published_figure_gib"]) * GIB)


def _err(value: int, published: int) -> float:
    return (value - published) / published


def evaluate(cases_path: Path) -> dict[str, Any]:
    """Run every mapped case; return per-case rows and per-category summaries."""
    cases = {c["id"]: c for c in json.loads(cases_path.read_text(encoding="utf-8"))["cases"]}
    mapping = json.loads(MAPPING.read_text(encoding="utf-8"))["cases"]
    missing = sorted(set(cases) - {m["id"] for m in mapping})
    rows = []
    for entry in mapping:
        case = cases.get(entry["id"])
        if case is None:
            continue
        inp = inputs_from_dict(entry["inputs"])
        published = published_bytes(case)
        row = {
            "id": entry["id"],
            "category": entry["category"],
            "measured": case["figure_kind"] == "measured peak",
            "compare": entry["compare"],
            "published": published,
            "estimate": engine_value(entry["compare"], inp),
            "weights_only": baseline_value("weights_only", entry["compare"], inp),
            "weights_kv": baseline_value("weights_kv", entry["compare"], inp),
            "note": entry["note"],
        }
        for key in ("estimate", "weights_only", "weights_kv"):
            row[f"{key}_err"] = _err(row[key], published)
        rows.append(row)
    return {"rows": rows, "summary": summarize(rows), "unmapped": missing}


def _stats(rows: list[dict[str, Any]], key: str) -> dict[str, float]:
    errors = [abs(r[f"{key}_err"]) for r in rows]
    if not errors:
        return {"median_abs_err": 0.0, "within_25pct": 0.0}
    return {
        "median_abs_err": statistics.median(errors),
        "within_25pct": sum(e <= 0.25 for e in errors) / len(errors),
    }


def summarize(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Per category and for the measured-peak subset: median |error| and share within 25%."""
    groups: dict[str, list[dict[str, Any]]] = {c: [r for r in rows if r["category"] == c] for c in CATEGORIES}
    groups["measured (all categories)"] = [r for r in rows if r["measured"]]
    groups["all"] = rows
    return {
        name: {"cases": len(group), **{key: _stats(group, key) for key in ("estimate", "weights_only", "weights_kv")}}
        for name, group in groups.items()
    }


def _gib(value: int) -> str:
    return f"{value / GIB:10.3f}"


def render(report: dict[str, Any]) -> str:
    """Plain-text tables."""
    lines = [
        f"{'case':5} {'category':10} {'compare':22} {'published':>10} {'estimate':>10} {'err':>8}"
        f" {'w-only':>10} {'err':>8} {'w+KV':>10} {'err':>8}   (GiB)",
    ]
    for r in report["rows"]:
        lines.append(
            f"{r['id']:5} {r['category']:10} {r['compare']:22} {_gib(r['published'])} {_gib(r['estimate'])}"
            f" {r['estimate_err']:+8.1%} {_gib(r['weights_only'])} {r['weights_only_err']:+8.1%}"
            f" {_gib(r['weights_kv'])} {r['weights_kv_err']:+8.1%}"
        )
    lines += ["", f"{'group':26} {'n':>3}  {'estimator':>22}  {'weights only':>22}  {'weights + KV':>22}"]
    lines.append(f"{'':26} {'':>3}  " + "  ".join(f"{'median|err|  <=25%':>22}" for _ in range(3)))
    for name, s in report["summary"].items():
        cells = "  ".join(
            f"{s[k]['median_abs_err']:>10.1%} {s[k]['within_25pct']:>10.0%}"
            for k in ("estimate", "weights_only", "weights_kv")
        )
        lines.append(f"{name:26} {s['cases']:>3}  {cells}")
    if report["unmapped"]:
        lines.append(f"\nUnmapped cases: {', '.join(report['unmapped'])}")
    lines += ["", *targets(report["summary"])]
    return "\n".join(lines)


def targets(summary: dict[str, Any]) -> list[str]:
    """The acceptance targets, each with its number and whether it is met."""
    measured = summary["measured (all categories)"]["estimate"]
    lines = [
        f"target: median |error| on measured peaks <= 15%: {measured['median_abs_err']:.1%}"
        f" -> {'met' if measured['median_abs_err'] <= 0.15 else 'NOT met'}",
        f"target: >= 75% of measured cases within 25%: {measured['within_25pct']:.0%}"
        f" -> {'met' if measured['within_25pct'] >= 0.75 else 'NOT met'}",
    ]
    for name in CATEGORIES:
        group = summary[name]
        ours = group["estimate"]["median_abs_err"]
        best = min(group["weights_only"]["median_abs_err"], group["weights_kv"]["median_abs_err"])
        verdict = "better" if ours < best else "tie" if ours == best else "WORSE"
        lines.append(f"target: {name:10} estimator {ours:.1%} vs best baseline {best:.1%} -> {verdict}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    env = os.environ.get("VRAMCALC_BENCH_CASES")
    parser.add_argument("--cases", type=Path, default=Path(env) if env else DEFAULT_CASES)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    try:
        report = evaluate(args.cases)
    except OSError as exc:
        print(f"error: cannot read the benchmark cases ({exc}); pass --cases PATH", file=sys.stderr)
        return 2
    print(json.dumps(report, indent=1) if args.json else render(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

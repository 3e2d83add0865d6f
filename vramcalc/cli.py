"""``python -m vramcalc``: estimate from the terminal, as a readable breakdown or ``--json``."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from .capacity import CARD_BYTES, CARD_COUNTS
from .errors import InvalidInput
from .estimate import estimate
from .inputs import EstimateInput
from .model import ModelSpec
from .option_schema import option_range, options
from .presets import get_preset, list_presets
from .result import Estimate, Note
from .serialize import inputs_from_dict, inputs_to_dict
from .units import GIB, format_bytes, format_bytes_range

__all__ = ["build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (flags map onto :class:`EstimateInput` fields)."""
    p = argparse.ArgumentParser(prog="python -m vramcalc", description="Per-card GPU memory estimate.")
    src = p.add_argument_group("model")
    src.add_argument("--preset", help="preset id (see --list-presets)")
    src.add_argument("--config", type=Path, help="Hugging Face config.json")
    src.add_argument("--safetensors", type=Path, help="a .safetensors file (only its header is read)")
    src.add_argument("--index", type=Path, help="model.safetensors.index.json")
    src.add_argument("--input", type=Path, help="JSON file with the full inputs (inputs_from_dict format)")
    src.add_argument("--list-presets", action="store_true")
    p.add_argument("--workload", default="inference")
    p.add_argument("--weights", help="weights dtype: fp32, bf16, fp16")
    p.add_argument("--compute", help="compute dtype")
    p.add_argument("--kv-dtype", help="KV cache dtype: bf16, fp16, fp8, q8_0, q4_0")
    p.add_argument("--optimizer-dtype", help="optimizer state dtype")
    p.add_argument("--master-weights", action="store_true")
    p.add_argument("--master-weights-16bit", action="store_true")
    p.add_argument("--quant", help="quantization method: gptq, awq, bnb_nf4, bnb_int8, fp8, mxfp4, gguf …")
    p.add_argument("--bits", type=int)
    p.add_argument("--group-size", type=int)
    p.add_argument("--double-quant", action="store_true")
    p.add_argument("--gguf-type")
    p.add_argument("--batch", type=int)
    p.add_argument("--seq-len", type=int)
    p.add_argument("--context", type=int, help="inference tokens kept per sequence")
    p.add_argument("--concurrent", type=int, help="inference sequences in the KV cache")
    p.add_argument("--image", type=int, help=f"image resolution (square, pixels; {option_range('image_height')})")
    p.add_argument("--no-flash", action="store_true", help="attention without a fused kernel")
    p.add_argument("--optimizer")
    p.add_argument("--checkpointing", action="store_true")
    p.add_argument("--chunked-loss", action="store_true")
    p.add_argument("--optimizer-in-backward", action="store_true")
    p.add_argument("--fused-optimizer", action="store_true")
    p.add_argument("--lora-rank", type=int)
    p.add_argument("--lora-targets")
    p.add_argument("--strategy", help="single, ddp, zero1, zero2, zero3, fsdp, pipeline")
    p.add_argument("--cards", type=int)
    p.add_argument("--tp", type=int)
    p.add_argument("--offload-optimizer", action="store_true")
    p.add_argument("--offload-params", action="store_true")
    p.add_argument("--engine", help="transformers, vllm, sglang, llama_cpp, ctranslate2 (not modelled: a wider range)")
    p.add_argument("--context-mib", type=int, help="CUDA context per process (MiB)")
    p.add_argument("--no-guidance", action="store_true", help="diffusion without classifier-free guidance")
    p.add_argument("--vae-tiling", action="store_true")
    p.add_argument("--cpu-offload", action="store_true")
    _generated_flags(p)
    p.add_argument(
        "--card-gib",
        type=float,
        help=f"card memory: report fit, headroom and KV capacity (more than 0, at most {CARD_BYTES.maximum // GIB})",
    )
    p.add_argument(
        "--max-cards", type=int, default=8, help=f"with --card-gib: search 1..N cards (N within {CARD_COUNTS})"
    )
    p.add_argument("--json", action="store_true", help="print JSON")
    _range_help(p)
    return p


def _range_help(p: argparse.ArgumentParser) -> None:
    """Each numeric option's flag says its range in its help (the range its field declares)."""
    paths = {dest: path for path, dest in flag_paths().items()}
    ranges = {option.path: option.range for option in options() if option.range is not None}
    for action in p._actions:
        bounds = ranges.get(paths.get(action.dest, ""))
        if bounds is not None:
            action.help = f"{action.help} ({bounds})" if action.help else str(bounds)


# Options with a hand-named flag above (kept for compatibility); every other option gets a flag generated
# from the option schema (`vramcalc.option_schema`), e.g. `--parallel-sequence-parallel 8`.
_SPECIAL = {"flash_attention": "no_flash", "diffusion.guidance": "no_guidance", "workload": "workload"}


def _dest(path: str) -> str:
    return "opt__" + path.replace(".", "__")


def _generated_flags(p: argparse.ArgumentParser) -> None:
    covered = set(_FLAGS.values()) | set(_SPECIAL)
    group = p.add_argument_group("every other engine option (generated from the option schema)")
    for option in options():
        if option.path in covered:
            continue
        if option.hint is bool:
            action = "store_false" if option.default is True else "store_true"
            group.add_argument(option.flag, dest=_dest(option.path), action=action, default=None)
            continue
        numeric = option.hint is int or option.hint == (int | None)
        group.add_argument(option.flag, dest=_dest(option.path), type=int if numeric else str)


def flag_paths() -> dict[str, str]:
    """Every option path and the CLI flag (argparse dest) that sets it."""
    found = {path: flag for flag, path in _FLAGS.items()} | dict(_SPECIAL)
    return found | {o.path: _dest(o.path) for o in options() if o.path not in found}


def _model(args: argparse.Namespace) -> ModelSpec:
    # Model sources are imported only when used: most runs name a preset (issue 16, docs/performance.md).
    if args.config is not None:
        from .hf_config import model_from_hf_config, parse_hf_config

        model = model_from_hf_config(parse_hf_config(args.config.read_text(encoding="utf-8")))
    elif args.preset:
        model = get_preset(args.preset)
    else:
        raise InvalidInput("model", "give --preset, --config or --input")
    if args.safetensors is not None or args.index is not None:
        from .safetensors_header import apply_header, read_safetensors_header, summarize_header, summarize_index
    if args.safetensors is not None:
        model = apply_header(model, summarize_header(read_safetensors_header(args.safetensors)))
    if args.index is not None:
        model = apply_header(model, summarize_index(json.loads(args.index.read_text(encoding="utf-8"))))
    return model


def _set(target: dict[str, Any], path: str, value: object) -> None:
    if value is None or value is False:
        return
    *parents, leaf = path.split(".")
    for key in parents:
        target = target.setdefault(key, {})
    target[leaf] = value


_FLAGS = {
    "weights": "precision.weights", "compute": "precision.compute", "kv_dtype": "precision.kv_cache",
    "optimizer_dtype": "precision.optimizer_states", "master_weights": "precision.master_weights",
    "master_weights_16bit": "precision.master_weights_16bit",
    "quant": "quantization.method", "bits": "quantization.bits", "group_size": "quantization.group_size",
    "double_quant": "quantization.double_quant", "gguf_type": "quantization.gguf_type",
    "batch": "batch_size", "seq_len": "seq_len", "context": "context_len", "concurrent": "concurrent_sequences",
    "optimizer": "training.optimizer", "checkpointing": "training.activation_checkpointing",
    "chunked_loss": "training.chunked_loss", "optimizer_in_backward": "training.optimizer_in_backward",
    "fused_optimizer": "training.fused_optimizer", "lora_rank": "lora.rank", "lora_targets": "lora.targets",
    "strategy": "parallel.strategy", "cards": "parallel.cards", "tp": "parallel.tensor_parallel",
    "offload_optimizer": "parallel.offload_optimizer", "offload_params": "parallel.offload_params",
    "engine": "runtime.engine", "context_mib": "runtime.cuda_context_mib",
    "vae_tiling": "diffusion.vae_tiling", "cpu_offload": "diffusion.cpu_offload",
}  # fmt: skip


def inputs_from_args(args: argparse.Namespace) -> EstimateInput:
    """Inputs from parsed flags (or the ``--input`` JSON file)."""
    if args.input is not None:
        return inputs_from_dict(json.loads(args.input.read_text(encoding="utf-8")))
    data: dict[str, Any] = {"workload": args.workload}
    for flag, path in _FLAGS.items():
        _set(data, path, getattr(args, flag))
    if args.cards and not args.strategy and not args.tp:
        _set(data, "parallel.tensor_parallel", args.cards)
    _set(data, "image_height", args.image)
    _set(data, "image_width", args.image)
    if args.no_flash:
        data["flash_attention"] = False
    if args.no_guidance:
        data.setdefault("diffusion", {})["guidance"] = False
    for option in options():
        value = getattr(args, _dest(option.path), None)
        if value is not None:
            *parents, leaf = option.path.split(".")
            target = data
            for key in parents:
                target = target.setdefault(key, {})
            target[leaf] = value
    return inputs_from_dict({**data, "model": _model(args)})


def _card_report(inp: EstimateInput, result: Estimate, card_gib: float, max_cards: int) -> dict[str, Any]:
    from .capacity import fits, kv_token_capacity, min_cards

    card = round(card_gib * GIB)
    if card not in CARD_BYTES:
        raise InvalidInput("--card-gib", f"must be more than 0 and at most {CARD_BYTES.maximum // GIB}")
    fit = fits(result.peak_high_bytes, card)
    report: dict[str, Any] = {
        "card_bytes": card,
        "fits": fit.fits,
        "status": "fits" if fit.fits else "tight" if fits(result.peak_bytes, card).fits else "does_not_fit",
        "headroom_bytes": fit.headroom_bytes,
        "min_cards": min_cards(inp, card, max_cards),
    }
    if not inp.workload.is_training and inp.model.has_kv_cache:
        report["kv_capacity_tokens"] = kv_token_capacity(inp, card).tokens
    return report


def render(result: Estimate, inp: EstimateInput, out: TextIO) -> None:
    """Readable per-card breakdown."""
    out.write(f"{inp.model.name} — {result.workload}, {result.cards} card(s) — {result.engine_version}\n")
    low, high = format_bytes_range(result.peak_low_bytes, result.peak_high_bytes)
    out.write(
        f"Peak per card: {format_bytes(result.peak_bytes)} expected, range {low} - {high}"
        f" (phase: {result.peak_phase})\n"
    )
    if result.range_meaning:
        out.write(f"Range: {result.range_meaning}\n")
    out.write(
        f"As measured: allocated {format_bytes(result.peak_allocated_bytes)} (max_memory_allocated), reserved "
        f"{format_bytes(result.peak_reserved_bytes)} (max_memory_reserved), "
        f"nvidia-smi {format_bytes(result.peak_bytes)}\n\n"
    )
    for c in result.components:
        mark = "*" if result.peak_phase in c.phases else " "
        spread = "" if c.low == c.high else " ({} - {})".format(*format_bytes_range(c.low, c.high))
        out.write(f"{mark} {c.label:<34} {format_bytes(c.bytes):>12}{spread}   {c.formula}\n")
    out.write("\n* counted in the peak phase. Phases: ")
    out.write(", ".join(f"{p.phase} {format_bytes(p.bytes)}" for p in result.phases) + "\n")
    for note in result.notes:
        out.write(f"Note: {note}\n")
    for warning in result.warnings:
        out.write(f"Approximation: {warning.text}\n")
    for item in result.not_modelled:
        out.write(f"Not modelled: {item.text}{likely_size(item)}\n")


def likely_size(item: Note) -> str:
    """ " Likely size: 0.75 GiB, may lower the peak." for a not-modelled effect with a size, else ""."""
    if not item.high_bytes:
        return ""
    size = format_bytes(item.high_bytes)
    if item.low_bytes and item.low_bytes != item.high_bytes:
        size = "{} to {}".format(*format_bytes_range(item.low_bytes, item.high_bytes))
    elif not item.low_bytes:
        size = f"up to {size}"
    way = {1: ", may raise the peak (in the range)", -1: ", may lower the peak (in the range)"}.get(item.direction, "")
    return f" Likely size: {size}{way}."


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the CLI; returns the exit status (0 ok, 2 invalid input)."""
    stream = out if out is not None else sys.stdout
    args = build_parser().parse_args(argv)
    if args.list_presets:
        for preset in list_presets():
            stream.write(f"{preset.id:<26} {', '.join(preset.workloads):<40} {preset.source}\n")
        return 0
    try:
        inp = inputs_from_args(args)
        result = estimate(inp)
        card = _card_report(inp, result, args.card_gib, args.max_cards) if args.card_gib else None
    except (InvalidInput, OSError, json.JSONDecodeError) as exc:
        stream.write(f"error: {exc}\n")
        return 2
    if args.json:
        payload = {"inputs": inputs_to_dict(inp), "estimate": result.to_dict(), "card": card}
        stream.write(json.dumps(payload, indent=2) + "\n")
        return 0
    render(result, inp, stream)
    if card is not None:
        stream.write(f"Card {args.card_gib} GiB: {card['status']} (decided on the high end), headroom ")
        stream.write(f"{format_bytes(card['headroom_bytes'])}; smallest card count: {card['min_cards']}\n")
    return 0

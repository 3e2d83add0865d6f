"""The estimator form: a model source and a workload in plain fields, turned into engine inputs.

Every field maps to one part of `vramcalc.EstimateInput`; an `InvalidInput` from the engine is shown next
to the field it names (`ENGINE_FIELDS`), so a customer sees what to change, never an error page.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from vramcalc import EstimateInput, InvalidInput, ModelKind, ModelSpec
from vramcalc.hf_config import model_from_hf_config, parse_hf_config, quantization_from_hf_config
from vramcalc.presets import get_preset, list_presets
from vramcalc.safetensors_header import apply_header, summarize_header, summarize_index
from vramcalc.serialize import inputs_from_dict
from vramcalc.units import GIB

__all__ = ["DEFAULTS", "EXAMPLES", "EstimateForm", "MeasurementForm"]

FAMILY_LABELS = {
    ModelKind.DECODER: _("Language models"),
    ModelKind.ENCODER_DECODER: _("Encoder–decoder models (T5 family)"),
    ModelKind.ENCODER: _("Encoders (BERT family)"),
    ModelKind.VISION: _("Vision transformers"),
    ModelKind.DIFFUSION: _("Image generation (diffusion)"),
}


def preset_choices() -> list[tuple[str, list[tuple[str, str]]]]:
    """Presets grouped by workload family, in the order of `FAMILY_LABELS`."""
    groups: dict[ModelKind, list[tuple[str, str]]] = {kind: [] for kind in FAMILY_LABELS}
    for preset in list_presets():
        groups[preset.model.kind].append((preset.id, preset.id))
    return [(str(FAMILY_LABELS[kind]), items) for kind, items in groups.items() if items]


WORKLOADS = [
    ("inference", _("Inference / serving")),
    ("full_finetune", _("Full fine-tuning")),
    ("lora", _("LoRA fine-tuning")),
    ("qlora", _("QLoRA fine-tuning (4-bit base)")),
    ("diffusion", _("Image generation (diffusion)")),
    ("vision_finetune", _("Vision-model fine-tuning")),
]
TRAINING = {"full_finetune", "lora", "qlora", "vision_finetune"}

# Each choice is one `Quantization` as the engine takes it.
QUANTIZATIONS: dict[str, tuple[Any, dict[str, Any]]] = {
    "none": (_("None (weights in the precision above)"), {}),
    "gptq_4": (_("GPTQ 4-bit, group 128"), {"method": "gptq", "bits": 4, "group_size": 128}),
    "awq_4": (_("AWQ 4-bit, group 128"), {"method": "awq", "bits": 4, "group_size": 128}),
    "bnb_nf4": (_("bitsandbytes NF4"), {"method": "bnb_nf4"}),
    "bnb_nf4_dq": (_("bitsandbytes NF4 + double quantization"), {"method": "bnb_nf4", "double_quant": True}),
    "bnb_int8": (_("bitsandbytes LLM.int8"), {"method": "bnb_int8"}),
    "fp8": (_("FP8 (e4m3)"), {"method": "fp8"}),
    "mxfp4": (_("MXFP4"), {"method": "mxfp4"}),
    "nvfp4": (_("NVFP4"), {"method": "nvfp4"}),
    "int8_weight_only": (_("int8 weight-only (torchao)"), {"method": "int8_weight_only"}),
    "int4_weight_only": (_("int4 weight-only (torchao)"), {"method": "int4_weight_only"}),
    "gguf_q8_0": (_("GGUF Q8_0"), {"method": "gguf", "gguf_type": "q8_0"}),
    "gguf_q5_k_m": (_("GGUF Q5_K_M"), {"method": "gguf", "gguf_type": "q5_k_m"}),
    "gguf_q4_k_m": (_("GGUF Q4_K_M"), {"method": "gguf", "gguf_type": "q4_k_m"}),
}
DTYPES = [("bf16", "bf16"), ("fp16", "fp16"), ("fp32", "fp32")]
KV_DTYPES = [
    ("bf16", "bf16"),
    ("fp16", "fp16"),
    ("fp8", "fp8"),
    ("q8_0", "q8_0 (llama.cpp)"),
    ("q4_0", "q4_0 (llama.cpp)"),
]
OPTIMIZERS = [
    ("adamw", _("AdamW")),
    ("adamw_8bit", _("AdamW 8-bit")),
    ("paged_adamw", _("Paged AdamW")),
    ("paged_adamw_8bit", _("Paged AdamW 8-bit")),
    ("adafactor", _("Adafactor")),
    ("lion", _("Lion")),
    ("sgd_momentum", _("SGD with momentum")),
    ("sgd", _("SGD")),
]
ENGINES = [("vllm", _("vLLM")), ("transformers", _("Transformers")), ("llama_cpp", _("llama.cpp"))]
STRATEGIES = [
    ("single", _("One copy, tensor parallel")),
    ("ddp", _("DDP: full copy per card")),
    ("zero1", _("ZeRO-1: shard optimizer")),
    ("zero2", _("ZeRO-2: + gradients")),
    ("fsdp", _("FSDP / ZeRO-3: shard all")),
    ("pipeline", _("Pipeline (inference)")),
]

# What the page shows before a customer changes anything; also the base of the "Try" links.
DEFAULTS: dict[str, str] = {
    "preset": "llama-3.1-8b",
    "workload": "inference",
    "weights": "bf16",
    "quantization": "none",
    "kv_cache": "bf16",
    "batch_size": "1",
    "seq_len": "4096",
    "concurrent": "1",
    "optimizer": "adamw",
    "lora_rank": "8",
    "engine": "vllm",
    "strategy": "single",
    "cards": "1",
    "tensor_parallel": "1",
}

# The two questions of the issue, one click away ("Try: …" links prefill the form by query string).
EXAMPLES: list[tuple[Any, dict[str, str]]] = [
    (
        _("Llama-3.1-70B serving 16 concurrent 8k-token requests in bf16"),
        {"preset": "llama-3.1-70b", "workload": "inference", "seq_len": "8192", "concurrent": "16"},
    ),
    (
        _("QLoRA on a 70B model at 4k context"),
        {
            "preset": "llama-3.1-70b",
            "workload": "qlora",
            "quantization": "bnb_nf4_dq",
            "seq_len": "4096",
            "optimizer": "paged_adamw",
            "lora_rank": "16",
            "activation_checkpointing": "on",
        },
    ),
    (
        _("SDXL images at 1024 × 1024"),
        {"preset": "sdxl-base-1.0", "workload": "diffusion", "weights": "fp16", "image_size": "1024"},
    ),
]

# Engine field (dotted, or its first part) → form field that shows the message.
ENGINE_FIELDS = {
    "model": "preset",
    "config": "hf_config",
    "safetensors": "header",
    "index": "header",
    "workload": "workload",
    "precision": "weights",
    "precision.kv_cache": "kv_cache",
    "quantization": "quantization",
    "batch_size": "batch_size",
    "seq_len": "seq_len",
    "context_len": "context_len",
    "concurrent_sequences": "concurrent",
    "image_height": "image_size",
    "image_width": "image_size",
    "training": "optimizer",
    "training.activation_checkpointing": "activation_checkpointing",
    "lora": "lora_rank",
    "parallel": "strategy",
    "parallel.cards": "cards",
    "parallel.tensor_parallel": "tensor_parallel",
    "runtime": "engine",
}


# The glossary entries each field links to (anchors of `gpurent.glossary.terms`).
FIELD_TERMS: dict[str, tuple[str, ...]] = {
    "preset": ("vram",),
    "weights": ("quantization",),
    "quantization": ("quantization",),
    "kv_cache": ("kv-cache",),
    "batch_size": ("vram",),
    "seq_len": ("kv-cache",),
    "context_len": ("kv-cache",),
    "concurrent": ("kv-cache",),
    "image_size": ("vae",),
    "optimizer": ("vram",),
    "lora_rank": ("quantization",),
    "activation_checkpointing": ("vram",),
    "engine": ("kv-cache",),
    "strategy": ("ddp", "fsdp"),
    "cards": ("tensor-parallelism",),
    "tensor_parallel": ("tensor-parallelism",),
    "workload": ("vram",),
    "hf_config": ("vram",),
    "header": ("vram",),
}

FIELDSETS: list[tuple[Any, str, tuple[str, ...]]] = [
    (_("Model"), "model", ("preset", "hf_config", "header")),
    (_("Workload and precision"), "workload", ("workload", "weights", "quantization", "kv_cache")),
    (_("Sizes"), "sizes", ("batch_size", "seq_len", "context_len", "concurrent", "image_size")),
    (_("Fine-tuning recipe"), "training", ("optimizer", "lora_rank", "activation_checkpointing")),
    (_("Serving"), "serving", ("engine",)),
    (_("Parallelism"), "parallel", ("strategy", "cards", "tensor_parallel")),
]


def _number(
    label: Any, *, minimum: int, maximum: int, required: bool = True, help_text: Any = ""
) -> forms.IntegerField:
    return forms.IntegerField(
        label=label,
        min_value=minimum,
        max_value=maximum,
        required=required,
        help_text=help_text,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "step": 1}),
    )


class EstimateForm(forms.Form):
    """The estimator's fields. `clean()` builds the engine inputs into `cleaned_data["inputs"]`."""

    preset = forms.ChoiceField(label=_("Model preset"), required=False)
    hf_config = forms.CharField(
        label=_("…or paste a Hugging Face config.json"),
        required=False,
        max_length=500_000,
        widget=forms.Textarea(attrs={"rows": 4, "spellcheck": "false", "placeholder": '{"model_type": "llama", …}'}),
        help_text=_("Used instead of the preset when filled. Nothing is downloaded."),
    )
    header = forms.CharField(
        label=_("Exact sizes: a safetensors header or model.safetensors.index.json"),
        required=False,
        max_length=5_000_000,
        widget=forms.Textarea(
            attrs={"rows": 3, "spellcheck": "false", "placeholder": '{"metadata": {"total_size": …}}'}
        ),
        help_text=_("Optional. Gives the exact weight bytes; the architecture still comes from the preset or config."),
    )
    workload = forms.ChoiceField(label=_("Workload"), choices=WORKLOADS)
    weights = forms.ChoiceField(label=_("Precision"), choices=DTYPES)
    quantization = forms.ChoiceField(
        label=_("Quantization"), choices=[(key, label) for key, (label, _spec) in QUANTIZATIONS.items()]
    )
    kv_cache = forms.ChoiceField(label=_("KV cache precision"), choices=KV_DTYPES)
    batch_size = _number(_("Batch size"), minimum=1, maximum=4096)
    seq_len = _number(
        _("Sequence length (tokens)"),
        minimum=1,
        maximum=1_048_576,
        help_text=_("Training: tokens per sample. Serving: prompt tokens per request."),
    )
    context_len = _number(
        _("Context kept per request"),
        minimum=1,
        maximum=1_048_576,
        required=False,
        help_text=_("Prompt + generated tokens in the KV cache; empty means the sequence length."),
    )
    concurrent = _number(_("Concurrent requests"), minimum=1, maximum=4096)
    image_size = _number(
        _("Image size (pixels, square)"),
        minimum=8,
        maximum=16_384,
        required=False,
        help_text=_("Diffusion output or vision input; empty uses the model's default."),
    )
    optimizer = forms.ChoiceField(label=_("Optimizer"), choices=OPTIMIZERS)
    lora_rank = _number(_("LoRA rank"), minimum=1, maximum=4096)
    activation_checkpointing = forms.BooleanField(label=_("Activation checkpointing"), required=False)
    engine = forms.ChoiceField(label=_("Serving engine"), choices=ENGINES)
    strategy = forms.ChoiceField(label=_("Parallelism plan"), choices=STRATEGIES)
    cards = _number(_("Cards"), minimum=1, maximum=80)
    tensor_parallel = _number(
        _("Tensor-parallel degree"),
        minimum=1,
        maximum=64,
        help_text=_("For DDP and ZeRO/FSDP plans; a one-copy plan splits over all its cards."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["preset"].choices = [("", _("Choose a model…")), *preset_choices()]  # type: ignore[attr-defined]

    @classmethod
    def from_query(cls, query: Mapping[str, str]) -> EstimateForm:
        """A bound form: the defaults, overridden by the fields present in `query` (a "Try" link)."""
        data = {**DEFAULTS, **{key: value for key, value in query.items() if key in cls.base_fields}}
        return cls(data)

    def fieldsets(self) -> list[dict[str, Any]]:
        """The fields in groups, each with the glossary entries it links to."""
        return [
            {"legend": legend, "key": key, "fields": [(self[name], FIELD_TERMS.get(name, ())) for name in names]}
            for legend, key, names in FIELDSETS
        ]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if self.errors:
            return cleaned
        try:
            cleaned["inputs"] = self._inputs(cleaned)
        except InvalidInput as error:
            self._engine_error(error)
        return cleaned

    def _engine_error(self, error: InvalidInput) -> None:
        field = ENGINE_FIELDS.get(error.field) or ENGINE_FIELDS.get(error.field.split(".")[0])
        if field == "preset" and self.cleaned_data.get("hf_config"):
            field = "hf_config"
        if field == "tensor_parallel" and self.cleaned_data.get("strategy") == "single":
            field = "cards"  # a one-copy plan's tensor-parallel degree is its card count
        # The engine's messages are English only; the field name tells which input it means.
        self.add_error(field if field in self.fields else None, f"{error.field}: {error.message}")

    def _model(self, cleaned: Mapping[str, Any]) -> tuple[ModelSpec, dict[str, Any]]:
        quantization: dict[str, Any] = {}
        if cleaned.get("hf_config"):
            config = parse_hf_config(cleaned["hf_config"])
            model = model_from_hf_config(config)
            declared = quantization_from_hf_config(config)
            if declared.method.value != "none":
                quantization = {"method": declared.method.value, "bits": declared.bits}
                quantization |= {"group_size": declared.group_size, "double_quant": declared.double_quant}
        elif cleaned.get("preset"):
            model = get_preset(cleaned["preset"])
        else:
            raise InvalidInput("model", "choose a preset or paste a config.json")
        if cleaned.get("header"):
            model = apply_header(model, _header_summary(cleaned["header"]))
        return model, quantization

    def _inputs(self, cleaned: Mapping[str, Any]) -> EstimateInput:
        model, declared_quantization = self._model(cleaned)
        workload = cleaned["workload"]
        quantization = QUANTIZATIONS[cleaned["quantization"]][1] or declared_quantization
        if model.checkpoint_prequantized:
            quantization = {}  # the header's bytes already are the quantized weights
        data: dict[str, Any] = {
            "model": model,
            "workload": workload,
            "precision": {
                "weights": cleaned["weights"],
                "compute": cleaned["weights"],
                "kv_cache": cleaned["kv_cache"],
            },
            "quantization": quantization,
            "batch_size": cleaned["batch_size"],
            "seq_len": cleaned["seq_len"],
            "parallel": self._plan(cleaned),
        }
        if workload == "inference":
            data["concurrent_sequences"] = cleaned["concurrent"]
            data["context_len"] = cleaned.get("context_len")
            data["runtime"] = {"engine": cleaned["engine"]}
        if model.kind in (ModelKind.DIFFUSION, ModelKind.VISION) and cleaned.get("image_size"):
            data["image_height"] = data["image_width"] = cleaned["image_size"]
        if workload in TRAINING:
            data["training"] = {
                "optimizer": cleaned["optimizer"],
                "activation_checkpointing": cleaned.get("activation_checkpointing", False),
            }
        if workload in ("lora", "qlora"):
            data["lora"] = {"rank": cleaned["lora_rank"]}
        return inputs_from_dict(data)

    @staticmethod
    def _plan(cleaned: Mapping[str, Any]) -> dict[str, Any]:
        strategy, cards = cleaned["strategy"], cleaned["cards"]
        if strategy == "single":
            return {"strategy": "single", "cards": cards, "tensor_parallel": cards}
        tp = 1 if strategy == "pipeline" else cleaned["tensor_parallel"]
        return {"strategy": strategy, "cards": cards, "tensor_parallel": tp}

    def form_data(self) -> dict[str, Any]:
        """The submitted fields as strings (stored with a saved estimate to reopen it in the estimator)."""
        data = {name: self.data.get(name, "") for name in self.fields if name not in ("hf_config", "header")}
        data["activation_checkpointing"] = "on" if self.cleaned_data.get("activation_checkpointing") else ""
        return {key: value for key, value in data.items() if value not in ("", None)}


def _header_summary(text: str) -> Any:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidInput("safetensors", f"not valid JSON ({exc.msg} at line {exc.lineno})") from None
    if not isinstance(data, dict):
        raise InvalidInput("safetensors", "must be a JSON object")
    if "weight_map" in data or ("metadata" in data and "__metadata__" not in data):
        return summarize_index(data)
    return summarize_header(data)


MEASUREMENT_SOURCES = [
    ("nvidia-smi", _("nvidia-smi / NVML memory used")),
    ("max_memory_reserved", _("torch.cuda.max_memory_reserved()")),
    ("max_memory_allocated", _("torch.cuda.max_memory_allocated()")),
    ("rocm-smi", _("rocm-smi")),
    ("other", _("Other")),
]


class MeasurementForm(forms.Form):
    """A peak measured on a real card, in GiB (2^30 bytes), and how it was read."""

    peak_gib = forms.DecimalField(
        label=_("Measured peak per card (GiB)"),
        min_value=Decimal("0.001"),
        max_value=Decimal("100000"),
        decimal_places=3,
        widget=forms.NumberInput(attrs={"step": "0.001", "inputmode": "decimal"}),
    )
    source = forms.ChoiceField(label=_("Measured with"), choices=MEASUREMENT_SOURCES)

    def peak_bytes(self) -> int:
        """The measured peak in whole bytes (exact decimal arithmetic, rounded down)."""
        return int(self.cleaned_data["peak_gib"] * GIB)

"""The estimator form: a model source and a workload in plain fields, turned into engine inputs.

Every field maps to one part of `vramcalc.EstimateInput`; an `InvalidInput` from the engine is shown next
to the field it names (`ENGINE_FIELDS`), so a customer sees what to change, never an error page.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlencode

from django import forms
from django.utils.translation import gettext_lazy as _

from vramcalc import EstimateInput, InvalidInput, ModelKind
from vramcalc.presets import get_preset
from vramcalc.serialize import inputs_from_dict

from ..texts.engine_errors import engine_message
from ..workloads import FIELDSET_HELP, WORKLOAD_CHOICES, WORKLOAD_KINDS, workload_kind
from .choices import (
    ADAPTER_ONLY,
    ADVANCED_SWITCHES,
    ATTENTION,
    COMPUTE_DTYPES,
    DEFAULTS,
    DIFFUSION_HIDES,
    DIFFUSION_ONLY,
    DIFFUSION_TRAINING_ONLY,
    DTYPES,
    ENGINE_FIELDS,
    ENGINES,
    FIELD_ENGINES,
    FIELD_TERMS,
    FIELDSETS,
    GUIDANCE,
    KV_DTYPES,
    LORA_TARGETS,
    OPTIMIZERS,
    QUANTIZATIONS,
    SERVING_ONLY,
    STATE_DTYPES,
    STRATEGIES,
    TRAINING_ONLY,
    preset_choices,
)
from .model_source import model_from_source
from .numbers import engine_number
from .recipes import RecipeFields
from .training_plans import TrainingPlanFields
from .video import VIDEO_ONLY, VideoFields, is_video_preset

__all__ = ["EstimateForm"]


class EstimateForm(TrainingPlanFields, RecipeFields, VideoFields):
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
    workload = forms.ChoiceField(label=_("Workload"), choices=WORKLOAD_CHOICES)
    weights = forms.ChoiceField(label=_("Precision"), choices=DTYPES)
    quantization = forms.ChoiceField(
        label=_("Quantization"), choices=[(key, label) for key, (label, _spec) in QUANTIZATIONS.items()]
    )
    kv_cache = forms.ChoiceField(label=_("KV cache precision"), choices=KV_DTYPES)
    batch_size = engine_number(
        _("Batch size"),
        "batch_size",
        help_text=_("Training: samples per step on each card. Serving: prompts prefilled together in one step."),
    )
    seq_len = engine_number(
        _("Sequence length (tokens)"),
        "seq_len",
        help_text=_("Training: tokens per sample. Serving: prompt tokens per request."),
    )
    context_len = engine_number(
        _("Context kept per request"),
        "context_len",
        required=False,
        help_text=_("Prompt + generated tokens in the KV cache; empty means the sequence length."),
    )
    concurrent = engine_number(
        _("Concurrent requests"),
        "concurrent_sequences",
        help_text=_("Serving: requests whose KV cache is held at the same time."),
    )
    image_size = engine_number(
        _("Image size (pixels, square)"),
        "image_height",
        required=False,
        help_text=_("Diffusion output or vision input; empty uses the model's default."),
    )
    optimizer = forms.ChoiceField(label=_("Optimizer"), choices=OPTIMIZERS)
    lora_rank = engine_number(_("LoRA rank"), "lora.rank")
    activation_checkpointing = forms.BooleanField(label=_("Activation checkpointing"), required=False)
    engine = forms.ChoiceField(label=_("Serving engine"), choices=ENGINES)
    strategy = forms.ChoiceField(label=_("Parallelism plan"), choices=STRATEGIES)
    cards = engine_number(_("Cards"), "parallel.cards")
    tensor_parallel = engine_number(
        _("Tensor-parallel degree"),
        "parallel.tensor_parallel",
        help_text=_("For DDP and ZeRO/FSDP plans; a one-copy plan splits over all its cards."),
    )

    images_per_sequence = engine_number(
        _("Images per request or sample"),
        "images_per_sequence",
        required=False,
        help_text=_("Vision-language models: each image adds its image tokens to the sequence and the KV cache."),
    )
    sequence_parallel = engine_number(
        _("Sequence-parallel degree"),
        "parallel.sequence_parallel",
        required=False,
        help_text=_("Training: Ulysses / ring attention splits each sequence over this many cards."),
    )
    compute = forms.ChoiceField(label=_("Compute precision"), choices=COMPUTE_DTYPES, required=False)
    optimizer_states = forms.ChoiceField(label=_("Optimizer-state precision"), choices=STATE_DTYPES, required=False)
    master_weights = forms.BooleanField(label=_("fp32 master weights"), required=False)
    master_weights_16bit = forms.BooleanField(
        label=_("16-bit master weights (DeepSpeed bf16_master_weights_and_grads)"),
        required=False,
        help_text=_(
            "The optimizer keeps its master copy of the 16-bit weights in their own 16-bit type, 2 B a parameter "
            "instead of 4 in fp32."
        ),
    )
    fused_optimizer = forms.BooleanField(
        label=_("Fused optimizer step"),
        required=False,
        help_text=_("Off: the step allocates one temporary per parameter (PyTorch's default foreach step)."),
    )
    optimizer_in_backward = forms.BooleanField(label=_("Optimizer step inside backward"), required=False)
    chunked_loss = forms.BooleanField(label=_("Chunked cross-entropy"), required=False)
    compiled = forms.BooleanField(label=_("torch.compile"), required=False)
    compiled_loss = forms.BooleanField(
        label=_("Loss under torch.compile"),
        required=False,
        help_text=_(
            "The loss is compiled too (torchtitan does so with torch.compile): the logits' fp32 copy and its "
            "gradient are fused away."
        ),
    )
    varying_lengths = forms.BooleanField(
        label=_("Samples of different lengths"),
        required=False,
        help_text=_(
            "Each batch is padded to its longest sample (not packed to a fixed length), so steps change length and "
            "the range's high end holds what the allocator keeps from shorter steps."
        ),
    )
    gradients_freed = forms.BooleanField(
        label=_("Gradients freed after each step"),
        required=False,
        help_text=_(
            "No gradient accumulation (one micro-batch a step) and gradients set to None after each step (PyTorch's "
            "zero_grad default): backward fills them as it frees the saved activations, so the two are not held at "
            "once."
        ),
    )
    logits_sum_loss = forms.BooleanField(
        label=_("Benchmark loss: the sum of the logits (no labels)"),
        required=False,
        help_text=_(
            "The loss adds up the logits as the model returns them (logits.sum(), as the transformers docs' "
            "training benchmarks do): no fp32 copy of the logits and no fp32 gradient."
        ),
    )
    loss_grad_in_place = forms.BooleanField(
        label=_("Fused loss kernel, gradient in place (Unsloth)"),
        required=False,
        help_text=_(
            "The cross-entropy is one kernel that writes the logits' gradient into the logits (Unsloth's "
            "fast_cross_entropy_loss): no fp32 copy of the logits and no separate gradient."
        ),
    )
    loss_in_compute_precision = forms.BooleanField(
        label=_("Loss on the 16-bit logits, no fp32 upcast (DeepSpeed, ColossalAI fp16)"),
        required=False,
        help_text=_(
            "The model runs in fp16 or bf16 without autocast and the cross-entropy is taken outside it on the "
            "logits it returns: the log-softmax and the logits' gradient stay 16-bit, with no fp32 copy."
        ),
    )
    norm_fp32_input = forms.BooleanField(
        label=_("RMSNorm keeps an fp32 copy of its input (LitGPT, transformers)"),
        required=False,
        help_text=_(
            "The norm upcasts its input to fp32 before it normalizes, and backward needs that copy: each norm saves "
            "4 bytes an element of its input, and the normalized tensor too when its weight trains."
        ),
    )
    kv_expanded = forms.BooleanField(
        label=_("Keys and values copied to every query head (LitGPT)"),
        required=False,
        help_text=_(
            "Grouped-query attention repeats its keys and values for every query head before the attention kernel, "
            "which then saves them at full width."
        ),
    )
    masked_lm_head = forms.BooleanField(
        label=_("Masked-LM head over the vocabulary (BERT pre-training)"),
        required=False,
        help_text=_(
            "The encoder is trained with its masked-LM head, which computes logits over the whole vocabulary for "
            "every position, as BertForPreTraining does, instead of a small classifier."
        ),
    )
    vision_encoder_trained = forms.BooleanField(
        label=_("Vision encoder trained too"),
        required=False,
        help_text=_(
            "A full fine-tune of a vision-language model that also trains its vision encoder and projector: their "
            "gradients and optimizer states are counted with the language model's."
        ),
    )
    fp32_logits_held = forms.BooleanField(
        label=_("fp32 logits held through backward (prime-rl)"),
        required=False,
        help_text=_(
            "The model returns its logits upcast to fp32 and the training loop keeps them until backward ends "
            "(prime-rl's SFT trainer): the loss's log-softmax and both gradients of its backward are fp32 too, "
            "16 B a logit."
        ),
    )
    lora_targets = forms.ChoiceField(label=_("LoRA targets"), choices=LORA_TARGETS, required=False)
    lora_dropout = forms.BooleanField(label=_("LoRA dropout"), required=False)
    attention = forms.ChoiceField(label=_("Attention kernel"), choices=ATTENTION, required=False)
    offload_optimizer = forms.BooleanField(label=_("Offload optimizer states to CPU (ZeRO/FSDP)"), required=False)
    offload_params = forms.BooleanField(label=_("Offload parameters to CPU (ZeRO-3/FSDP)"), required=False)
    grad_bucket_view = forms.BooleanField(label=_("DDP gradients as bucket views"), required=False)
    guidance = forms.ChoiceField(
        label=_("Classifier-free guidance"),
        choices=GUIDANCE,
        required=False,
        help_text=_("On: the denoiser runs each image with and without the prompt, which doubles its batch."),
    )
    vae_tiling = forms.BooleanField(label=_("VAE tiling"), required=False)
    vae_slicing = forms.BooleanField(label=_("VAE slicing"), required=False)
    cpu_offload = forms.BooleanField(label=_("Model CPU offload"), required=False)
    quantize_text_encoders = forms.BooleanField(label=_("Quantize the text encoders too"), required=False)
    diffusion_autocast = forms.BooleanField(
        label=_("Pipeline called under torch.autocast"),
        required=False,
        help_text=_(
            '16-bit weights with the call inside torch.autocast("cuda"): the attention\'s softmax and the norms '
            "return fp32."
        ),
    )
    safety_checker = forms.BooleanField(
        label=_("Stable Diffusion safety checker loaded"),
        required=False,
        help_text=_(
            "Stable Diffusion 1.x pipelines load a 304 M-parameter safety checker that stays on the card, with model "
            "CPU offload too."
        ),
    )
    text_encoders_fp32 = forms.BooleanField(
        label=_("Text encoders kept in fp32"),
        required=False,
        help_text=_(
            "The pipeline holds its text encoders' weights in fp32 (4 B per parameter) while the denoiser and the VAE "
            "use the weights' precision, as Open-Sora 1.2 keeps T5."
        ),
    )
    train_text_encoder = forms.BooleanField(
        label=_("Train the text encoders too"),
        required=False,
        help_text=_("--train_text_encoder: the CLIP text encoders train with the same recipe; T5 stays frozen."),
    )
    cached_latents = forms.BooleanField(
        label=_("Latents cached before training"),
        required=False,
        help_text=_(
            "--cache_latents: the images were encoded to latents beforehand; no VAE on the card while it trains."
        ),
    )
    cached_text_embeddings = forms.BooleanField(
        label=_("Prompt embeddings cached before training"),
        required=False,
        help_text=_(
            "--cache_text_encoder_outputs: the prompts were encoded beforehand; no text encoder on the card while it "
            "trains."
        ),
    )
    gpu_memory_utilization = engine_number(
        _("Share of the card vLLM takes (%)"),
        "runtime.gpu_memory_utilization_pct",
        required=False,
        help_text=_(
            "vLLM's --gpu-memory-utilization; 90 if left empty, 95 at most. A card fits when the range's high end "
            "stays within this share."
        ),
    )
    cuda_context_mib = engine_number(
        _("CUDA context per process (MiB)"),
        "runtime.cuda_context_mib",
        required=False,
        help_text=_("300 MiB to 2 GiB depending on the GPU, driver and image; measure it once."),
    )

    comm_buffer_mib = engine_number(
        _("Communication buffers per card (MiB)"),
        "runtime.comm_buffer_mib",
        required=False,
        help_text=_("NCCL buffers outside PyTorch's allocator when cards communicate."),
    )

    max_num_batched_tokens = engine_number(
        _("vLLM/SGLang tokens per step (max_num_batched_tokens)"), "runtime.max_num_batched_tokens", required=False
    )
    max_num_seqs = engine_number(
        _("vLLM/SGLang sequences per step (max_num_seqs)"), "runtime.max_num_seqs", required=False
    )
    cuda_graph_mib = engine_number(
        _("CUDA-graph pool per card (MiB)"),
        "runtime.cuda_graph_mib",
        required=False,
        help_text=_("vLLM prints it after capturing graphs; 0 with --enforce-eager."),
    )
    tuple_kv_cache = forms.BooleanField(
        label=_("KV cache passed as tuples"),
        required=False,
        help_text=_(
            "transformers before 4.36, or a model with its own code: each generated token rebuilds the cache while "
            "the previous one is still held."
        ),
    )
    kept_generate_output = forms.BooleanField(
        label=_("An earlier generate output is kept"),
        required=False,
        help_text=_(
            "A script that keeps one run's output (return_dict_in_generate=True) while it generates again: that "
            "output holds the earlier run's whole KV cache."
        ),
    )
    softmax_in_compute_dtype = forms.BooleanField(
        label=_("Attention softmax in the compute precision"),
        required=False,
        help_text=_(
            "Attention without a fused kernel whose softmax keeps the 16-bit precision (transformers' BART-family "
            "code, Whisper's among them): no fp32 probabilities and no copy cast back."
        ),
    )
    prompt_logits = forms.BooleanField(
        label=_("Logits of the whole prompt"),
        required=False,
        help_text=_(
            "The model computes the logits of every prompt position and upcasts them to fp32 in the prefill, as "
            "transformers' language models did before num_logits_to_keep (Qwen2 on 4.38, the first Qwen2-VL)."
        ),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["preset"].choices = [("", _("Choose a model…")), *preset_choices()]  # type: ignore[attr-defined]

    @classmethod
    def from_query(cls, query: Mapping[str, str]) -> EstimateForm:
        """A bound form: the defaults, overridden by the fields present in `query` (a "Try" link)."""
        data = {**DEFAULTS, **{key: value for key, value in query.items() if key in cls.base_fields}}
        return cls(data)

    def hidden_field_names(self) -> set[str]:
        """Fields that do not apply to the chosen workload, engine or preset (rendered hidden, so their values still
        travel)."""
        kind = workload_kind(str(self.data.get("workload") or DEFAULTS["workload"]))
        serving, training, adapter, generation = (
            (kind.serving, kind.is_training, kind.is_adapter, kind.generation) if kind else (False, False, False, False)
        )
        diffusion_model = _preset_kind(str(self.data.get("preset") or "")) is ModelKind.DIFFUSION
        hidden: set[str] = set()
        if not serving:
            hidden.update(SERVING_ONLY)
        if not training:
            hidden.update(TRAINING_ONLY)
        if not adapter:
            hidden.update(ADAPTER_ONLY)
        if not generation:
            hidden.update(DIFFUSION_ONLY)
        if generation or diffusion_model:
            hidden.update(DIFFUSION_HIDES)
        if not diffusion_model or not training:
            hidden.update(DIFFUSION_TRAINING_ONLY)
        if not generation or not is_video_preset(str(self.data.get("preset") or "")):
            hidden.update(VIDEO_ONLY)
        engine = str(self.data.get("engine") or DEFAULTS["engine"])
        hidden.update(name for name, engines in FIELD_ENGINES.items() if engine not in engines)
        if str(self.data.get("attention") or DEFAULTS["attention"]) != "eager":
            hidden.add("softmax_in_compute_dtype")  # read only where no fused kernel runs the attention
        return hidden

    def layout_key(self) -> str:
        """Which fields the inputs show, in a few characters: the page re-renders its inputs when a change (of
        workload, engine, attention or preset) makes it differ from the key they were rendered with."""
        names = ",".join(sorted(self.hidden_field_names()))
        return hashlib.blake2s(names.encode(), digest_size=6).hexdigest()

    def fieldsets(self) -> list[dict[str, Any]]:
        """The fields in groups (only those that apply to the workload), with their glossary entries."""
        hidden = self.hidden_field_names()
        sets = []
        for legend, key, names in FIELDSETS:
            shown = [(self[name], FIELD_TERMS.get(name, ())) for name in names if name not in hidden]
            if shown:
                sets.append({"legend": legend, "key": key, "fields": shown, "help": FIELDSET_HELP.get(key)})
        return sets

    def hidden_bound_fields(self) -> list[forms.BoundField]:
        """The fields of other workloads, kept as hidden inputs so switching back keeps their values."""
        hidden = self.hidden_field_names()
        return [self[name] for name in self.fields if name in hidden]

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
        # Shown next to the field (its label names it), in the customer's language.
        self.add_error(field if field in self.fields else None, engine_message(error.message))

    def _inputs(self, cleaned: Mapping[str, Any]) -> EstimateInput:
        model, declared_quantization = model_from_source(cleaned)
        workload = cleaned["workload"]
        kind = WORKLOAD_KINDS[workload]
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
        if kind.serving:
            data["concurrent_sequences"] = cleaned["concurrent"]
            data["context_len"] = cleaned.get("context_len")
            data["runtime"] = {"engine": cleaned["engine"]}
        if model.kind in (ModelKind.DIFFUSION, ModelKind.VISION) and cleaned.get("image_size"):
            data["image_height"] = data["image_width"] = cleaned["image_size"]
        if kind.is_training:
            data["training"] = {
                "optimizer": cleaned["optimizer"],
                "activation_checkpointing": cleaned.get("activation_checkpointing", False),
            }
        if kind.is_adapter:
            data["lora"] = {"rank": cleaned["lora_rank"], "targets": cleaned.get("lora_targets") or "all_linear"}
        self._advanced(cleaned, data)
        return inputs_from_dict(data)

    @staticmethod
    def _advanced(cleaned: Mapping[str, Any], data: dict[str, Any]) -> None:
        """The "Advanced" fields onto the engine inputs (only those that apply to the workload)."""
        kind = WORKLOAD_KINDS[data["workload"]]
        if cleaned.get("compute"):
            data["precision"]["compute"] = cleaned["compute"]
        if kind.is_training and cleaned.get("optimizer_states"):
            data["precision"]["optimizer_states"] = cleaned["optimizer_states"]
        if cleaned.get("attention") == "eager":
            data["flash_attention"] = False
        if kind.generation:
            data["diffusion"] = {"guidance": cleaned.get("guidance") != "off"}
        if kind.serving:
            runtime = data["runtime"]
            if cleaned.get("gpu_memory_utilization"):
                runtime["gpu_memory_utilization_pct"] = cleaned["gpu_memory_utilization"]
            for name in ("max_num_batched_tokens", "max_num_seqs", "cuda_graph_mib"):
                if cleaned.get(name) is not None:
                    runtime[name] = cleaned[name]
        for name in ("cuda_context_mib", "comm_buffer_mib"):
            if cleaned.get(name) is not None:
                data.setdefault("runtime", {})[name] = cleaned[name]
        if cleaned.get("images_per_sequence"):
            data["images_per_sequence"] = cleaned["images_per_sequence"]
        if kind.is_training and (cleaned.get("sequence_parallel") or 1) > 1:
            data["parallel"]["sequence_parallel"] = cleaned["sequence_parallel"]
        if kind.is_training:
            TrainingPlanFields.plan_numbers(cleaned, data)
        VideoFields.video_inputs(cleaned, data, kind, str(cleaned.get("preset") or ""))
        RecipeFields.recipe_inputs(cleaned, data, kind)
        diffusion_training = kind.is_training and data["model"].kind is ModelKind.DIFFUSION
        for name, path in ADVANCED_SWITCHES.items():
            section, leaf = path.split(".")
            applies = {
                "training": kind.is_training,
                "lora": kind.is_adapter,
                "diffusion": diffusion_training if name in DIFFUSION_TRAINING_ONLY else kind.generation,
                "precision": kind.is_training,
                "parallel": kind.is_training,
                "runtime": kind.serving,
            }[section]
            if applies and cleaned.get(name):
                data.setdefault(section, {})[leaf] = True

    @staticmethod
    def _plan(cleaned: Mapping[str, Any]) -> dict[str, Any]:
        strategy, cards = cleaned["strategy"], cleaned["cards"]
        if strategy == "single":
            return {"strategy": "single", "cards": cards, "tensor_parallel": cards}
        tp = 1 if strategy == "pipeline" else cleaned["tensor_parallel"]
        return {"strategy": strategy, "cards": cards, "tensor_parallel": tp}

    def share_query(self) -> str:
        """The submitted fields as a query string: the estimate reopens from its URL (pasted texts excluded)."""
        fields = {name: self.data.get(name) for name in self.fields if name not in ("hf_config", "header")}
        return urlencode({key: value for key, value in fields.items() if value not in ("", None, "False")})

    def form_data(self) -> dict[str, Any]:
        """The submitted fields as strings (stored with a saved estimate to reopen it in the estimator)."""
        data = {name: self.data.get(name, "") for name in self.fields if name not in ("hf_config", "header")}
        for name in ("activation_checkpointing", *ADVANCED_SWITCHES):
            data[name] = "on" if self.cleaned_data.get(name) else ""
        return {key: value for key, value in data.items() if value not in ("", None)}


def _preset_kind(preset: str) -> ModelKind | None:
    try:
        return get_preset(preset).kind if preset else None
    except InvalidInput:
        return None

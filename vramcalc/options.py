"""Option dataclasses and enums that make up an :class:`~vramcalc.inputs.EstimateInput`.

Each validates its own fields on construction and raises :class:`~vramcalc.errors.InvalidInput`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from .dtypes import DType, KVDType
from .errors import InvalidInput
from .parallel_plan import ParallelPlan, PipelineSchedule, Strategy
from .ranges import (
    MAX_BITS,
    MAX_FRAMES,
    MAX_ITEMS,
    MAX_LAYERS,
    MAX_MIB,
    MAX_TOKENS,
    MAX_WIDTH,
    check_ranges,
    within,
)

__all__ = [
    "GGUF_MIXES",
    "GGUF_TYPES",
    "DiffusionOptions",
    "DiffusionTask",
    "Engine",
    "LoRAConfig",
    "LoRATargets",
    "OptimizerKind",
    "ParallelPlan",
    "PipelineSchedule",
    "Precision",
    "QuantMethod",
    "Quantization",
    "RuntimeOptions",
    "Strategy",
    "TrainingOptions",
    "Workload",
]


class Workload(StrEnum):
    """What the cards are doing."""

    INFERENCE = "inference"
    FULL_FINETUNE = "full_finetune"
    LORA = "lora"
    QLORA = "qlora"
    DIFFUSION = "diffusion"
    VISION_FINETUNE = "vision_finetune"

    @property
    def is_training(self) -> bool:
        """Training workloads keep gradients, optimizer states and saved activations."""
        return self in (Workload.FULL_FINETUNE, Workload.LORA, Workload.QLORA, Workload.VISION_FINETUNE)

    @property
    def is_adapter(self) -> bool:
        """LoRA-style: the base weights are frozen, only adapters train."""
        return self in (Workload.LORA, Workload.QLORA)


class QuantMethod(StrEnum):
    """Weight storage formats with their real metadata (see :mod:`vramcalc.quant`)."""

    NONE = "none"
    GPTQ = "gptq"
    AWQ = "awq"
    BNB_INT8 = "bnb_int8"
    BNB_NF4 = "bnb_nf4"
    FP8 = "fp8"
    MXFP4 = "mxfp4"
    NVFP4 = "nvfp4"
    INT8_WEIGHT_ONLY = "int8_weight_only"
    INT4_WEIGHT_ONLY = "int4_weight_only"
    GGUF = "gguf"


GGUF_TYPES = ("q4_0", "q4_1", "q5_0", "q5_1", "q8_0", "q2_k", "q3_k", "q4_k", "q5_k", "q6_k")
GGUF_MIXES = ("q4_k_m", "q5_k_m", "q3_k_m")


@dataclass(frozen=True)
class Quantization:
    """Weight quantization.

    Args:
        method: storage format; ``none`` keeps ``Precision.weights``.
        bits: GPTQ/AWQ bits (2, 3, 4 or 8).
        group_size: GPTQ/AWQ group size; ``None`` for one group per column.
        double_quant: bitsandbytes NF4 double quantization of the absmax constants.
        gguf_type: llama.cpp type (``q4_0`` … ``q6_k``, or the ``q4_k_m``-style mixes).
    """

    method: QuantMethod = QuantMethod.NONE
    bits: int = field(default=4, metadata=within(1, MAX_BITS))
    group_size: int | None = field(default=128, metadata=within(1, MAX_WIDTH))
    double_quant: bool = False
    gguf_type: str = "q4_k_m"

    def __post_init__(self) -> None:
        check_ranges(self, "quantization.")
        if self.method in (QuantMethod.GPTQ, QuantMethod.AWQ) and self.bits not in (2, 3, 4, 8):
            raise InvalidInput("quantization.bits", "GPTQ/AWQ support 2, 3, 4 or 8 bits")
        if self.method is QuantMethod.GGUF and self.gguf_type not in GGUF_TYPES + GGUF_MIXES:
            raise InvalidInput("quantization.gguf_type", f"unknown GGUF type {self.gguf_type!r}")


@dataclass(frozen=True)
class Precision:
    """Storage and compute precisions.

    Args:
        weights: dtype of (unquantized) weights and therefore of their gradients.
        compute: activation dtype (autocast dtype when weights are fp32).
        kv_cache: KV-cache element format.
        optimizer_states: dtype of Adam/Lion/SGD-momentum states (8-bit optimizers ignore it).
        master_weights: keep an fp32 master copy of trainable weights stored in 16-bit.
        master_weights_16bit: the optimizer's master copy of trainable weights stored in 16-bit is kept in their own
            16-bit dtype, not fp32 (DeepSpeed's ``bf16_master_weights_and_grads``, ``fp16_master_weights_and_grads``;
            DeepSpeedExamples' bf16_master_weight README counts it as 2N bytes beside the parameters' 2N, and its
            measured allocation holds them): 2 B a trainable parameter, with or without ``master_weights``, sharded as
            the fp32 copy (engine 0.3.17, issue 31).
    """

    weights: DType = DType.BF16
    compute: DType = DType.BF16
    kv_cache: KVDType = KVDType.BF16
    optimizer_states: DType = DType.FP32
    master_weights: bool = False
    master_weights_16bit: bool = False

    def __post_init__(self) -> None:
        if self.weights is DType.FP8:
            raise InvalidInput("precision.weights", "fp8 weights are a quantization format: use quantization")
        if self.compute is DType.FP8:
            raise InvalidInput("precision.compute", "fp8 compute is not modelled; use bf16 or fp16")
        if self.optimizer_states is DType.FP8:
            raise InvalidInput("precision.optimizer_states", "use optimizer 'adamw_8bit' for 8-bit states")


class OptimizerKind(StrEnum):
    """Optimizers with their per-parameter state."""

    ADAMW = "adamw"
    ADAMW_8BIT = "adamw_8bit"
    PAGED_ADAMW = "paged_adamw"
    PAGED_ADAMW_8BIT = "paged_adamw_8bit"
    SGD = "sgd"
    SGD_MOMENTUM = "sgd_momentum"
    ADAFACTOR = "adafactor"
    LION = "lion"


@dataclass(frozen=True)
class TrainingOptions:
    """Training recipe switches.

    Args:
        optimizer: see :class:`OptimizerKind`.
        fused_optimizer: fused/per-tensor optimizer step (no parameter-sized temporaries).
        optimizer_in_backward: step each parameter during backward and free its gradient.
        activation_checkpointing: recompute each layer in backward, keep only layer inputs.
        chunked_loss: chunked cross-entropy (logits upcast one chunk at a time).
        compiled: ``torch.compile``: its partitioner recomputes pointwise ops in backward instead of
            saving their outputs (norm outputs, the MLP activation and gating product).
        activation_offloading: saved activations (with checkpointing: the layer inputs) are copied to host
            memory after their layer's forward and fetched back for its backward (torchtune
            ``enable_activation_offloading``, DeepSpeed ``cpu_checkpointing``); the card keeps the layer being
            computed and the one in transfer.
        checkpoint_every: with ``activation_checkpointing``, one layer in every ``n`` is checkpointed and the
            others keep all their activations (torchtitan's layer-selective ``selective_ac_option = n``); 1 is
            full checkpointing.
        selective_op_checkpointing: per-operation selective checkpointing (torchtitan ``selective_ac_option =
            "op"``): each layer keeps its input, the attention output and the outputs of every other matmul, and
            recomputes the rest; not combined with full ``activation_checkpointing``.
        float8: Float8 training (torchao ``Float8Linear`` or Transformer Engine): linears compute in fp8 and
            FSDP/ZeRO-3 all-gather their weights in fp8 (1 B per parameter); saved activations stay in the
            compute precision.
        loss_chunk_tokens: the LM head and the loss run over this many tokens at a time, so only one chunk's
            logits, their fp32 upcast and gradient exist at once (torchtitan's ``ChunkedLossWrapper``
            ``chunk_len``, fused linear cross-entropy); 0: the logits of the whole micro-batch are computed at
            once (then ``chunked_loss`` is torchtune's, which upcasts them chunk by chunk).
        varying_lengths: the run's steps change length (samples padded to the longest of their batch, not packed
            to a fixed length, as Hugging Face-style collators do by default); the high end of the range then holds
            the allocator's reserve of earlier, shorter steps (decision 0511). The expected value stays one step
            at ``seq_len``.
        compiled_loss: the loss function runs under ``torch.compile`` (torchtitan compiles it with the model,
            ``build_cross_entropy_loss``): the fp32 upcast of the logits and its gradient are fused into the loss's
            kernels, so only the logits and their gradient in the compute precision exist (decision 0515). With
            ``chunked_loss`` (torchtune's ``compile=True`` compiles its chunked loss), each chunk's logits turn into
            their gradient one chunk at a time: the logits' bytes and one chunk (1/8) more (decision 0595).
        gradients_freed: each step's gradients are freed after it and no micro-batches accumulate (one
            micro-batch a step, ``zero_grad(set_to_none=True)``, PyTorch's default since 2.0): no gradient exists
            during the forward pass, and backward fills them while it frees the saved activations, so the
            forward-backward peak holds the activations and the step holds the gradients, not both at once
            (decision 0525).
        logits_sum_loss: the loss is the sum of the logits as the model returns them (``outputs.logits.sum()``, as
            the training benchmarks behind the transformers docs' SDPA tables take it: no labels, no softmax): no
            fp32 upcast and no fp32 gradient, only the logits and their gradient in the compute precision exist
            (decision 0526). With ``chunked_loss`` the chunked figure stands.
        loss_grad_in_place: the cross-entropy is one fused kernel that reads the logits in the compute precision
            and writes their gradient into the same tensor (Unsloth's ``fast_cross_entropy_loss``: its backward
            runs ``_cross_entropy_backward`` on ``logits`` and returns ``logits``): no fp32 upcast and no separate
            gradient, only the logits exist (engine 0.3.14, issue 31). With ``chunked_loss`` the chunked figure
            stands.
        loss_in_compute_precision: the cross-entropy runs on the logits in the compute precision, with no fp32
            upcast: a model converted to fp16 or bf16 and trained without autocast, its loss taken outside the model
            on the logits it returns (DeepSpeed's and ColossalAI Gemini's fp16 engines with a plain
            ``nn.CrossEntropyLoss``, as ColossalAI-Pytorch-lightning's GPT benchmark): the log-softmax the loss saves
            and the logits' gradient are b bytes each, not 4 (engine 0.3.15, issue 31). In fp32 nothing changes.
        norm_fp32_input: the model's RMSNorm upcasts its input to fp32 and autograd keeps that copy (LitGPT's
            ``RMSNorm.forward``: ``x = x.float()``, then ``x * x`` and ``x * torch.rsqrt(...)`` save it; transformers'
            ``LlamaRMSNorm`` does the same): each of a layer's two norms saves its input in 4 B instead of the
            compute precision's b and, when its weight trains (not under adapters), the normalized tensor it
            multiplies by that weight (b more) (engine 0.3.14). Under ``compiled`` the norms are recomputed and
            nothing is added.
        kv_expanded: grouped-query attention copies its keys and values to every query head before the attention
            kernel (LitGPT's training path: ``k.expand(...)`` then ``k.reshape(...)``), so the kernel saves them at
            the queries' width, ``2ad`` instead of ``2kd`` elements a token (engine 0.3.14).
        masked_lm_head: an encoder trained with a masked-LM head over its vocabulary (BERT pre-training:
            transformers' ``BertForPreTraining`` and ``BertForMaskedLM`` compute ``prediction_scores`` for every
            position and take the cross-entropy over all of them, the unmasked ones ignored by label -100 only after
            the log-softmax): the logits and loss spike of a decoder's LM head over every token, not a small
            classifier's (engine 0.3.19). Encoders only.
        vision_encoder_trained: a full fine-tune of a vision-language model also trains its vision tower and
            projector (the optimizer is given every parameter, as nanoVLM's ``AdamW(model.parameters())``): their
            gradients, optimizer states, master copy and step temporaries are counted with the language model's
            (engine 0.3.21). Off, the vision encoder is frozen, as most VLM recipes keep it. Full fine-tuning of a
            vision-language model only.
        fp32_logits_held: the model returns its logits already upcast to fp32 and the training loop keeps a
            reference to them through backward (prime-rl's SFT trainer: ``forward`` returns
            ``cast_float_and_contiguous(...)``, ``tensor.float().contiguous()``, the loop binds ``out =
            forward(...)``, ``logits = out["logits"]`` and ``del logits`` before ``backward()`` while ``out`` still
            holds them): the 16-bit logits are freed when the forward returns, and at the cross-entropy's backward
            the fp32 logits, the log-softmax output it saved, the NLL loss's gradient (``nll_loss_backward``: a
            zero-filled tensor of the input's shape) and the log-softmax's input gradient
            (``_log_softmax_backward_data``) are alive at once, 4 B each: 16 B a logit (engine 0.3.28). With
            another loss switch that switch's figure stands.
    """

    optimizer: OptimizerKind = OptimizerKind.ADAMW
    fused_optimizer: bool = False
    optimizer_in_backward: bool = False
    activation_checkpointing: bool = False
    chunked_loss: bool = False
    compiled: bool = False
    activation_offloading: bool = False
    checkpoint_every: int = field(default=1, metadata=within(1, MAX_LAYERS))
    selective_op_checkpointing: bool = False
    float8: bool = False
    loss_chunk_tokens: int = field(default=0, metadata=within(0, MAX_TOKENS))
    varying_lengths: bool = False
    compiled_loss: bool = False
    gradients_freed: bool = False
    logits_sum_loss: bool = False
    loss_grad_in_place: bool = False
    loss_in_compute_precision: bool = False
    norm_fp32_input: bool = False
    kv_expanded: bool = False
    masked_lm_head: bool = False
    vision_encoder_trained: bool = False
    fp32_logits_held: bool = False

    def __post_init__(self) -> None:
        check_ranges(self, "training.")
        if self.loss_chunk_tokens and self.chunked_loss:
            raise InvalidInput(
                "training.loss_chunk_tokens", "choose whole-logits chunked loss or token chunks, not both"
            )
        if self.checkpoint_every > 1 and not self.activation_checkpointing:
            raise InvalidInput("training.checkpoint_every", "needs activation checkpointing")
        if self.selective_op_checkpointing and self.activation_checkpointing:
            raise InvalidInput(
                "training.selective_op_checkpointing", "choose full or per-operation checkpointing, not both"
            )


class LoRATargets(StrEnum):
    """Which linear layers get adapters."""

    QV = "qv"
    ATTENTION = "attention"
    ALL_LINEAR = "all_linear"


@dataclass(frozen=True)
class LoRAConfig:
    """LoRA adapters: ``r·(d_in + d_out)`` trainable parameters per adapted matrix.

    Args:
        rank: adapter rank ``r``.
        targets: adapted layers.
        dropout: LoRA dropout > 0 (saves a dropped-out copy of each adapted input).
    """

    rank: int = field(default=8, metadata=within(1, MAX_WIDTH))
    targets: LoRATargets = LoRATargets.ALL_LINEAR
    dropout: bool = False

    def __post_init__(self) -> None:
        check_ranges(self, "lora.")


class Engine(StrEnum):
    """Inference runtime (changes overheads and what 'KV cache' means)."""

    TRANSFORMERS = "transformers"
    VLLM = "vllm"
    SGLANG = "sglang"
    LLAMA_CPP = "llama_cpp"
    # CTranslate2 (faster-whisper and other converted models): its own allocator and kernels, which the estimate does
    # not model; it counts the model as transformers would hold it and widens the range (decision 0535), except the
    # cross-attention K/V its beams share and its softmax in the compute dtype (decision 0568).
    CTRANSLATE2 = "ctranslate2"

    @property
    def is_server(self) -> bool:
        """vLLM/SGLang: CUDA graphs, a profiling run of ``max_num_batched_tokens`` and a sampler warm-up."""
        return self in (Engine.VLLM, Engine.SGLANG)


@dataclass(frozen=True)
class RuntimeOptions:
    """Runtime overheads outside the model.

    Args:
        engine: inference runtime.
        cuda_context_mib: CUDA context + kernels per process (300 MiB - 2 GiB; measure per image).
        comm_buffer_mib: NCCL/communication buffers per card when more than one card is used.
        gpu_memory_utilization_pct: vLLM's share of the card it may use (KV capacity).
        max_num_batched_tokens: vLLM/SGLang tokens per scheduler step; the profiling run prefills this many.
        max_num_seqs: vLLM/SGLang sequences per step; the sampler warm-up allocates logits for this many.
        cuda_graph_mib: vLLM/SGLang CUDA-graph pool per card (vLLM logs it after capture, typically 0.3-2 GiB).
        tuple_kv_cache: transformers' generate passes the cache as tuples (transformers before 4.36, models with
            their own modelling code): a decoding step builds every layer's keys and values anew with ``torch.cat``
            while the previous step's tuple is still held, so the peak holds the KV cache twice (decision 0516).
            Only generation with transformers that decodes is affected.
        kept_generate_output: the caller keeps an earlier ``generate`` output while it generates again (a script
            that stores a warm-up run's output and then times more runs): with ``return_dict_in_generate=True`` that
            output holds the earlier run's whole ``past_key_values``, so one more KV cache stays allocated (engine
            0.3.19). Only generation with transformers is affected.
        softmax_in_compute_dtype: an attention without a fused kernel takes its softmax in the compute dtype
            (transformers' BART-family attention, Whisper's among them: ``nn.functional.softmax(attn_weights,
            dim=-1)``, no ``dtype=torch.float32``), so a score holds the scores and the probabilities, each in the
            compute dtype, instead of the fp32 probabilities and their copy cast back (engine 0.3.20). Only the
            prefill of generation without fused attention is affected.
        prompt_logits: the model's forward computes the LM head over every prompt position and upcasts the logits
            to fp32 (``logits = self.lm_head(hidden_states)``, ``logits = logits.float()``: transformers' causal
            LMs before ``num_logits_to_keep``, Qwen2 at 4.38.2, the first Qwen2-VL class), so the prefill holds
            ``b + 4`` bytes a logit for every prompt token, both alive at the upcast (engine 0.3.27). Only generation
            with transformers is affected.
    """

    engine: Engine = Engine.TRANSFORMERS
    cuda_context_mib: int = field(default=1024, metadata=within(0, MAX_MIB))
    comm_buffer_mib: int = field(default=512, metadata=within(0, MAX_MIB))
    gpu_memory_utilization_pct: int = field(default=90, metadata=within(1, 100))
    max_num_batched_tokens: int = field(default=8192, metadata=within(1, MAX_TOKENS))
    max_num_seqs: int = field(default=256, metadata=within(1, MAX_ITEMS))
    cuda_graph_mib: int = field(default=768, metadata=within(0, MAX_MIB))
    tuple_kv_cache: bool = False
    kept_generate_output: bool = False
    softmax_in_compute_dtype: bool = False
    prompt_logits: bool = False

    def __post_init__(self) -> None:
        check_ranges(self, "runtime.")


class DiffusionTask(StrEnum):
    """What an image-generation run starts from.

    text_to_image: noise. image_to_image: an input image, encoded to latents by the VAE encoder first.
    inpainting: an input image and a mask (the masked image is encoded the same way).
    """

    TEXT_TO_IMAGE = "text_to_image"
    IMAGE_TO_IMAGE = "image_to_image"
    INPAINTING = "inpainting"


@dataclass(frozen=True)
class DiffusionOptions:
    """Image-generation switches.

    Args:
        guidance: classifier-free guidance (doubles the denoiser batch).
        vae_tiling: ``enable_tiling`` (decode in tiles of ``DiffusionSpec.vae_tile_px``).
        vae_slicing: ``enable_slicing`` (decode batch items one at a time).
        cpu_offload: ``enable_model_cpu_offload`` (one component resident at a time).
        quantize_text_encoders: apply ``quantization`` to the text encoders too.
        train_text_encoder: diffusion training also trains the CLIP text encoders (``--train_text_encoder``),
            with the denoiser's recipe (LoRA on the same targets, or all weights); T5 encoders stay frozen.
        num_frames: frames of a generated video (video models only); 0 uses the model's default.
        task: see :class:`DiffusionTask`; image-to-image and inpainting add the VAE encode of the input image.
        autocast: the pipeline is called inside ``torch.autocast("cuda")`` with 16-bit weights: an eager
            attention's softmax returns fp32 probabilities (engine 0.3.13, issue 31). fp32 weights with a 16-bit
            compute dtype imply it.
        safety_checker: the pipeline loads Stable Diffusion 1.x's safety checker (``StableDiffusionSafetyChecker``:
            the CLIP ViT-L/14 vision tower and its projection, 303,981,588 parameters) on the card, in the weights'
            dtype, for the whole run: ``pipe.to("cuda")`` moves it, and ``enable_model_cpu_offload`` keeps it there
            too, since the Stable Diffusion pipelines list it in ``_exclude_from_cpu_offload`` and the offload call
            moves excluded components to the device (engine 0.3.19). Image generation only.
        text_encoders_fp32: the pipeline keeps its text encoders' weights in fp32 (4 B per parameter) while the
            denoiser and the VAE hold the weights' dtype, as Open-Sora 1.2's app builds T5 with ``T5Encoder``'s
            default ``dtype=torch.float`` ("T5 must be fp32") and casts only the VAE and STDiT3 to bfloat16
            (engine 0.3.22). Diffusion models only; not with ``quantize_text_encoders``.
        cached_latents: diffusion training reads latents the VAE encoded before training (kohya's
            ``--cache_latents``, SimpleTuner's latent cache, diffusers' examples with precomputed latents) and the
            VAE is not on the card while it trains: no VAE weights, no VAE encode phase (engine 0.3.36).
        cached_text_embeddings: diffusion training reads prompt embeddings computed before training (kohya's
            ``--cache_text_encoder_outputs``, SimpleTuner's text embed cache) and the text encoders are not on the
            card while it trains (engine 0.3.36); not with ``train_text_encoder``.
    """

    guidance: bool = True
    vae_tiling: bool = False
    vae_slicing: bool = False
    cpu_offload: bool = False
    quantize_text_encoders: bool = False
    train_text_encoder: bool = False
    num_frames: int = field(default=0, metadata=within(0, MAX_FRAMES))
    task: DiffusionTask = DiffusionTask.TEXT_TO_IMAGE
    autocast: bool = False
    safety_checker: bool = False
    text_encoders_fp32: bool = False
    cached_latents: bool = False
    cached_text_embeddings: bool = False

    def __post_init__(self) -> None:
        check_ranges(self, "diffusion.")

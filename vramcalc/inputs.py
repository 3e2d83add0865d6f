"""The estimator's input: one frozen dataclass, validated (fields and combinations) on construction.

Every invalid value or combination raises :class:`~vramcalc.errors.InvalidInput` naming the field.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import InvalidInput
from .model import ModelKind, ModelSpec
from .options import (
    DiffusionOptions,
    DiffusionTask,
    LoRAConfig,
    ParallelPlan,
    Precision,
    Quantization,
    QuantMethod,
    RuntimeOptions,
    Strategy,
    TrainingOptions,
    Workload,
)
from .ranges import MAX_ITEMS, MAX_PIXELS, MAX_TOKENS, check_ranges, within

__all__ = ["EstimateInput"]


@dataclass(frozen=True)
class EstimateInput:
    """Everything one estimate depends on. Validated on construction; each numeric field's range is in its
    ``metadata`` (:mod:`vramcalc.ranges`, listed in README).

    Args:
        model: architecture.
        workload: see :class:`Workload`.
        precision: storage/compute precisions.
        quantization: weight quantization.
        batch_size: training micro-batch per data-parallel rank; inference: sequences per prefill step.
        seq_len: training sequence length; inference: prompt tokens per sequence in one prefill step.
        context_len: inference tokens kept per sequence (prompt + generated); ``None`` means ``seq_len``.
        concurrent_sequences: inference sequences resident in the KV cache.
        image_height: diffusion output / vision input pixels; ``None`` uses the model's default.
        image_width: as ``image_height``.
        flash_attention: fused attention (no ``s x s`` score matrices are stored).
        training: optimizer and recipe switches.
        lora: adapter configuration (LoRA/QLoRA only).
        parallel: parallelism plan.
        runtime: overheads.
        diffusion: image-generation switches.
        images_per_sequence: images in each sequence of a vision-language model; each adds
            ``model.image_tokens`` tokens to ``seq_len`` (text tokens) and to the cached context.
    """

    model: ModelSpec
    workload: Workload = Workload.INFERENCE
    precision: Precision = field(default_factory=Precision)
    quantization: Quantization = field(default_factory=Quantization)
    batch_size: int = field(default=1, metadata=within(1, MAX_ITEMS))
    seq_len: int = field(default=2048, metadata=within(1, MAX_TOKENS))
    context_len: int | None = field(default=None, metadata=within(1, MAX_TOKENS))
    concurrent_sequences: int = field(default=1, metadata=within(1, MAX_ITEMS))
    image_height: int | None = field(default=None, metadata=within(8, MAX_PIXELS))
    image_width: int | None = field(default=None, metadata=within(8, MAX_PIXELS))
    flash_attention: bool = True
    training: TrainingOptions = field(default_factory=TrainingOptions)
    lora: LoRAConfig = field(default_factory=LoRAConfig)
    parallel: ParallelPlan = field(default_factory=ParallelPlan)
    runtime: RuntimeOptions = field(default_factory=RuntimeOptions)
    diffusion: DiffusionOptions = field(default_factory=DiffusionOptions)
    images_per_sequence: int = field(default=0, metadata=within(0, MAX_ITEMS))

    def __post_init__(self) -> None:
        check_ranges(self, "")
        _check_sizes(self)
        _check_workload(self)
        _check_parallel(self)

    @property
    def context_tokens(self) -> int:
        """Tokens cached per sequence (``context_len`` or ``seq_len``, plus the image tokens)."""
        text = self.seq_len if self.context_len is None else self.context_len
        return text + self.image_tokens

    @property
    def image_tokens(self) -> int:
        """Tokens the images add to each sequence."""
        return self.images_per_sequence * self.model.image_tokens


def _check_sizes(inp: EstimateInput) -> None:
    if inp.images_per_sequence and not inp.model.image_tokens:
        raise InvalidInput("images_per_sequence", "the model has no vision encoder (choose a vision-language model)")
    if inp.model.kind is ModelKind.VISION:
        patch = inp.model.patch_size
        for name in ("image_height", "image_width"):
            value = getattr(inp, name)
            if value is not None and value < patch:
                raise InvalidInput(name, f"must be at least one patch ({patch} px)")


def _check_workload(inp: EstimateInput) -> None:
    kind, workload, method = inp.model.kind, inp.workload, inp.quantization.method
    if workload is Workload.DIFFUSION and kind is not ModelKind.DIFFUSION:
        raise InvalidInput("workload", "only diffusion models run the 'diffusion' workload")
    diffusion_training = (Workload.LORA, Workload.FULL_FINETUNE)
    if kind is ModelKind.DIFFUSION and workload not in (Workload.DIFFUSION, *diffusion_training):
        raise InvalidInput("workload", "diffusion models generate images, or train with LoRA or full fine-tuning")
    video = kind is ModelKind.DIFFUSION and inp.model.diffusion is not None and inp.model.diffusion.is_video
    if video and workload in diffusion_training:
        raise InvalidInput("workload", "video diffusion training is not modelled yet; video models generate only")
    if inp.diffusion.num_frames > 1 and not video:
        raise InvalidInput("diffusion.num_frames", "only a video model generates several frames")
    if inp.diffusion.task is not DiffusionTask.TEXT_TO_IMAGE and (workload is not Workload.DIFFUSION or video):
        raise InvalidInput("diffusion.task", "image-to-image and inpainting are modelled for image generation")
    if kind is ModelKind.DIFFUSION and workload in diffusion_training and method is not QuantMethod.NONE:
        raise InvalidInput("quantization.method", "diffusion training is modelled on unquantized weights")
    if workload is Workload.VISION_FINETUNE and kind is not ModelKind.VISION:
        raise InvalidInput("workload", "vision fine-tuning needs a vision model")
    full = workload.is_training and not workload.is_adapter
    if full and (method is not QuantMethod.NONE or inp.model.checkpoint_prequantized):
        raise InvalidInput("quantization.method", "full fine-tuning cannot update quantized weights")
    if workload is Workload.QLORA and method not in (QuantMethod.BNB_NF4, QuantMethod.BNB_INT8):
        raise InvalidInput("quantization.method", "QLoRA needs a bitsandbytes base (bnb_nf4 or bnb_int8)")
    if inp.model.checkpoint_prequantized and method is not QuantMethod.NONE:
        raise InvalidInput("quantization.method", "the checkpoint is already quantized; its bytes are used")
    if inp.training.masked_lm_head and kind is not ModelKind.ENCODER:
        raise InvalidInput("training.masked_lm_head", "needs an encoder (BERT-style); a decoder has its LM head")
    if inp.training.vision_encoder_trained and not (full and inp.model.vision_encoder_params):
        raise InvalidInput(
            "training.vision_encoder_trained",
            "needs full fine-tuning of a vision-language model (one with a vision encoder)",
        )
    for cached in ("cached_latents", "cached_text_embeddings"):
        if getattr(inp.diffusion, cached) and (kind is not ModelKind.DIFFUSION or workload not in diffusion_training):
            raise InvalidInput(f"diffusion.{cached}", "needs a diffusion model that trains (LoRA or full fine-tuning)")
    if inp.diffusion.cached_text_embeddings and inp.diffusion.train_text_encoder:
        raise InvalidInput("diffusion.cached_text_embeddings", "the text encoders train, so they run at every step")
    if inp.diffusion.text_encoders_fp32 and (kind is not ModelKind.DIFFUSION or inp.diffusion.quantize_text_encoders):
        raise InvalidInput(
            "diffusion.text_encoders_fp32", "needs a diffusion model whose text encoders are not quantized"
        )
    if inp.training.optimizer_in_backward and inp.parallel.strategy.shard_stage >= 2:
        raise InvalidInput("training.optimizer_in_backward", "not modelled with sharded gradients (ZeRO-2/3)")
    if inp.training.gradients_freed and (inp.parallel.fsdp_no_sync or inp.parallel.pipeline_parallel > 1):
        raise InvalidInput(
            "training.gradients_freed", "needs one micro-batch a step: no accumulation under no_sync or pipeline stages"
        )
    if inp.training.gradients_freed and (
        inp.parallel.contiguous_grad_buffer or inp.parallel.grad_bucket_view or inp.training.optimizer_in_backward
    ):
        # Gradients that live in a buffer kept for the whole run (Megatron's main_grad, DDP's bucket views) are not
        # freed by zero_grad; stepped in backward, no gradient outlives backward to be freed.
        raise InvalidInput(
            "training.gradients_freed",
            "gradients kept in a buffer (contiguous, bucket view) or stepped in backward are not freed after the step",
        )


def _check_parallel(inp: EstimateInput) -> None:
    plan, model = inp.parallel, inp.model
    training = inp.workload.is_training
    if plan.strategy.shard_stage and not training:
        raise InvalidInput("parallel.strategy", "ZeRO/FSDP shard training states; not used for inference")
    if plan.sequence_parallel > 1 and not training:
        raise InvalidInput("parallel.sequence_parallel", "sequence parallelism is modelled for training")
    if plan.sequence_parallel > 1 and inp.seq_len % plan.sequence_parallel:
        raise InvalidInput("parallel.sequence_parallel", "must divide the sequence length")
    if plan.strategy is Strategy.PIPELINE and training:
        raise InvalidInput("parallel.strategy", "for training, split the layers into pipeline stages instead")
    for name, used in (
        ("pipeline_parallel", plan.pipeline_parallel > 1),
        ("tp_sequence_parallel", plan.tp_sequence_parallel),
    ):
        if used and not training:
            raise InvalidInput(f"parallel.{name}", "is modelled for training")
    diffusion = inp.workload is Workload.DIFFUSION or model.kind is ModelKind.DIFFUSION
    if diffusion and (plan.tensor_parallel > 1 or plan.strategy not in (Strategy.SINGLE, Strategy.DDP)):
        raise InvalidInput("parallel.strategy", "diffusion runs as single card or replicas (ddp)")
    if diffusion and plan.pipeline_parallel > 1:
        raise InvalidInput("parallel.pipeline_parallel", "diffusion runs as single card or replicas (ddp)")
    if 1 < plan.pipeline_parallel > model.total_layers:
        raise InvalidInput("parallel.pipeline_parallel", "cannot split fewer layers than stages")
    t = plan.tensor_parallel
    if t > 1 and model.kind is not ModelKind.DIFFUSION:
        if model.num_attention_heads % t:
            raise InvalidInput("parallel.tensor_parallel", "must divide the attention heads")
        k = model.kv_heads
        if k % t and t % k:
            raise InvalidInput("parallel.tensor_parallel", "must divide, or be a multiple of, the KV heads")
    if plan.strategy is Strategy.PIPELINE and plan.cards > model.total_layers:
        raise InvalidInput("parallel.cards", "cannot split fewer layers than cards")

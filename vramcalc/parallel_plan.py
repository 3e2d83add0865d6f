"""The parallelism plan of an :class:`~vramcalc.inputs.EstimateInput` (re-exported by :mod:`vramcalc.options`).

Validated on construction; an impossible plan raises :class:`~vramcalc.errors.InvalidInput` naming the field.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from .errors import InvalidInput
from .ranges import MAX_CARDS, MAX_ITEMS, MAX_PARAMS, check_ranges, within

__all__ = ["ParallelPlan", "PipelineSchedule", "Strategy"]


class Strategy(StrEnum):
    """How ``ParallelPlan.cards`` share the work (combined with ``tensor_parallel``).

    single: one replica (on ``tensor_parallel`` cards). ddp: replicas, nothing sharded.
    zero1/zero2/zero3: DeepSpeed ZeRO stages (FSDP SHARD_GRAD_OP is zero2, FULL_SHARD is zero3).
    pipeline: layers split across cards (accelerate ``device_map``, inference only).
    """

    SINGLE = "single"
    DDP = "ddp"
    ZERO1 = "zero1"
    ZERO2 = "zero2"
    ZERO3 = "zero3"
    FSDP = "fsdp"
    PIPELINE = "pipeline"

    @property
    def shard_stage(self) -> int:
        """ZeRO stage (0 for unsharded strategies); FSDP full shard counts as 3."""
        return {Strategy.ZERO1: 1, Strategy.ZERO2: 2, Strategy.ZERO3: 3, Strategy.FSDP: 3}.get(self, 0)


class PipelineSchedule(StrEnum):
    """Pipeline-parallel training schedules, by the micro-batches whose activations the first stage holds.

    1f1b: one forward, one backward: ``min(stages, micro-batches)`` in flight. interleaved_1f1b: two model chunks
    per card, ``1 + (stages - 1) / (2 stages)`` times 1F1B's (Korthikanti et al. 2022). gpipe: every micro-batch.
    """

    ONE_F_ONE_B = "1f1b"
    INTERLEAVED_1F1B = "interleaved_1f1b"
    GPIPE = "gpipe"


@dataclass(frozen=True)
class ParallelPlan:
    """Parallelism over ``cards`` cards; memory is always reported per card.

    Args:
        strategy: see :class:`Strategy`.
        cards: total cards.
        tensor_parallel: tensor-parallel degree ``t``; data-parallel degree is ``cards / t``.
        offload_optimizer: ZeRO/FSDP optimizer states (and step) on CPU.
        offload_params: ZeRO-3/FSDP parameters (and gradients) on CPU.
        grad_bucket_view: DDP ``gradient_as_bucket_view=True`` (no separate bucket copy).
        sequence_parallel: sequence/context-parallel degree (DeepSpeed Ulysses, ring attention): each card
            holds ``seq_len / sequence_parallel`` tokens of activations and logits; it must divide the
            data-parallel degree (the cards that shard the sequence).
        distributed_optimizer: Megatron-style distributed optimizer under DDP: fp32 master weights, optimizer
            states and the step's temporaries sharded over the data-parallel ranks (as ZeRO-1).
        contiguous_grad_buffer: Megatron DDP: gradients accumulate into one contiguous fp32 ``main_grad``
            buffer whose slices are the all-reduce buckets (4 B per trainable parameter, no bucket copy). Such a
            run is a Megatron-core run: its loss is the vocab-parallel cross-entropy, whose fp32 softmax takes its
            gradient in place (decision 0530).
        zero3_prefetch_params: ZeRO-3 ``stage3_prefetch_bucket_size`` in parameters: gathered ahead of the
            unit being computed; 0 prefetches one unit (FSDP's default).
        zero3_max_live_params: ZeRO-3 ``stage3_max_live_parameters``: a cap on gathered parameters resident
            at once; 0 means no cap beyond the prefetch.
        zero2_reduce_buffer_params: DeepSpeed ZeRO-2's contiguous gradient buffers (``ipg_buffer``), all of them,
            in 16-bit elements, allocated at each backward: two of ``reduce_bucket_size`` with ``overlap_comm``,
            each 4.5 times that under DeepSpeed 0.3 (``stage2.py``'s ``backward``); 0 does not count them in the
            expected value (engine 0.3.26).
        tp_sequence_parallel: Megatron-style sequence parallelism inside tensor parallelism: the norm and
            dropout activations and the layer inputs are split over the ``tensor_parallel`` cards (torchtitan's
            TP plan, Megatron ``--sequence-parallel``).
        tp_gathered_inputs_saved: with ``tp_sequence_parallel``, the column-parallel linears (q/k/v and the MLP's
            input projection) save the input they all-gathered, the whole sequence, for their weight gradient
            instead of gathering it again in backward (nanotron's ``tp_mode`` REDUCE_SCATTER without
            ``tp_linear_async_communication``: ``column_linear`` is ``differentiable_all_gather`` then
            ``F.linear``); the norms' inputs stay split (engine 0.3.24).
        context_parallel_ring: the ``sequence_parallel`` cards use ring attention (context parallelism): each
            gathers the keys and values of the whole sequence for the layer being computed; otherwise Ulysses
            (all-to-all over heads).
        pipeline_parallel: pipeline-parallel training degree: the layers are split into this many stages;
            ``batch_size`` is then the micro-batch. Cards = data-parallel x tensor-parallel x pipeline stages.
        pipeline_schedule: see :class:`PipelineSchedule`.
        pipeline_microbatches: micro-batches per step and data-parallel rank; 0 means as many as stages.
        fsdp_no_sync: FSDP1 accumulates gradients over micro-batches under ``no_sync()`` (Lightning Fabric's
            ``no_backward_sync``, lit-gpt's recipes): every card holds the unsharded gradient of each flat parameter
            that requires one until the synchronising micro-batch. With adapters the wrapped blocks' frozen weights
            share the flat parameter with the adapters (``use_orig_params=True``), so their gradient is held too
            (decision 0519). Needs ZeRO-3/FSDP full shard without pipeline stages.
        fsdp_embeddings_sharded: FSDP wraps the token embedding and the LM head as units of their own (torchtune's
            ``custom_sharded_layers: ['tok_embeddings', 'output']``), so the root unit, which PyTorch keeps gathered
            from its forward to its backward, no longer holds them: they are gathered and freed like any unit
            (decision 0552). Needs ZeRO-3/FSDP full shard without pipeline stages; ZeRO-3 has no root unit anyway.
    """

    strategy: Strategy = Strategy.SINGLE
    cards: int = field(default=1, metadata=within(1, MAX_CARDS))
    tensor_parallel: int = field(default=1, metadata=within(1, MAX_CARDS))
    offload_optimizer: bool = False
    offload_params: bool = False
    grad_bucket_view: bool = False
    sequence_parallel: int = field(default=1, metadata=within(1, MAX_CARDS))
    distributed_optimizer: bool = False
    contiguous_grad_buffer: bool = False
    zero3_prefetch_params: int = field(default=0, metadata=within(0, MAX_PARAMS))
    zero3_max_live_params: int = field(default=0, metadata=within(0, MAX_PARAMS))
    zero2_reduce_buffer_params: int = field(default=0, metadata=within(0, MAX_PARAMS))
    tp_sequence_parallel: bool = False
    tp_gathered_inputs_saved: bool = False
    context_parallel_ring: bool = False
    pipeline_parallel: int = field(default=1, metadata=within(1, MAX_CARDS))
    pipeline_schedule: PipelineSchedule = PipelineSchedule.ONE_F_ONE_B
    pipeline_microbatches: int = field(default=0, metadata=within(0, MAX_ITEMS))
    fsdp_no_sync: bool = False
    fsdp_embeddings_sharded: bool = False

    def __post_init__(self) -> None:
        check_ranges(self, "parallel.")
        if self.cards % self.tensor_parallel:
            raise InvalidInput("parallel.tensor_parallel", "must be >= 1 and divide parallel.cards")
        if (self.cards // self.tensor_parallel) % self.pipeline_parallel:
            raise InvalidInput("parallel.pipeline_parallel", "must divide cards / tensor_parallel")
        if self.data_parallel % self.sequence_parallel:
            raise InvalidInput(
                "parallel.sequence_parallel", "must be >= 1 and divide cards / (tensor_parallel x pipeline_parallel)"
            )
        if self.strategy is Strategy.SINGLE and self.cards != self.tensor_parallel * self.pipeline_parallel:
            raise InvalidInput(
                "parallel.cards", "strategy 'single' uses exactly tensor_parallel x pipeline_parallel cards"
            )
        if self.strategy is Strategy.PIPELINE and self.tensor_parallel != 1:
            raise InvalidInput("parallel.tensor_parallel", "pipeline split is modelled without tensor parallel")
        if self.offload_optimizer and self.strategy.shard_stage == 0:
            raise InvalidInput("parallel.offload_optimizer", "needs a ZeRO/FSDP strategy")
        if self.offload_params and self.strategy.shard_stage != 3:
            raise InvalidInput("parallel.offload_params", "needs ZeRO-3/FSDP full shard")
        self._check_megatron_and_zero3()

    def _check_megatron_and_zero3(self) -> None:
        megatron = (Strategy.SINGLE, Strategy.DDP)
        if self.distributed_optimizer and self.strategy is not Strategy.DDP:
            raise InvalidInput("parallel.distributed_optimizer", "shards over DDP ranks: use strategy 'ddp'")
        if self.contiguous_grad_buffer and self.strategy not in megatron:
            raise InvalidInput("parallel.contiguous_grad_buffer", "is Megatron DDP's buffer: use 'single' or 'ddp'")
        for name in ("zero3_prefetch_params", "zero3_max_live_params"):
            if getattr(self, name) and self.strategy.shard_stage != 3:
                raise InvalidInput(f"parallel.{name}", "needs ZeRO-3/FSDP full shard")
        if self.zero2_reduce_buffer_params and self.strategy is not Strategy.ZERO2:
            raise InvalidInput("parallel.zero2_reduce_buffer_params", "is DeepSpeed ZeRO-2's buffer: use 'zero2'")
        if self.fsdp_no_sync and (self.strategy.shard_stage != 3 or self.pipeline_parallel > 1):
            raise InvalidInput("parallel.fsdp_no_sync", "needs ZeRO-3/FSDP full shard without pipeline stages")
        if self.fsdp_embeddings_sharded and (self.strategy.shard_stage != 3 or self.pipeline_parallel > 1):
            raise InvalidInput(
                "parallel.fsdp_embeddings_sharded", "needs ZeRO-3/FSDP full shard without pipeline stages"
            )
        if self.tp_sequence_parallel and self.tensor_parallel == 1:
            raise InvalidInput("parallel.tp_sequence_parallel", "splits activations over tensor_parallel > 1 cards")
        if self.tp_gathered_inputs_saved and not self.tp_sequence_parallel:
            raise InvalidInput(
                "parallel.tp_gathered_inputs_saved", "needs tp_sequence_parallel (inputs split to gather)"
            )
        if self.context_parallel_ring and self.sequence_parallel == 1:
            raise InvalidInput("parallel.context_parallel_ring", "is how sequence_parallel > 1 cards attend")
        if self.pipeline_parallel > 1 and self.strategy is Strategy.PIPELINE:
            raise InvalidInput("parallel.pipeline_parallel", "is for training; strategy 'pipeline' splits inference")
        pipelined = self.pipeline_parallel > 1
        if not pipelined and (self.pipeline_microbatches or self.pipeline_schedule is not PipelineSchedule.ONE_F_ONE_B):
            raise InvalidInput("parallel.pipeline_schedule", "needs pipeline_parallel > 1")

    @property
    def data_parallel(self) -> int:
        """Data-parallel (or sharding, or inference pipeline) degree ``N = cards / (t x pipeline stages)``."""
        return self.cards // (self.tensor_parallel * self.pipeline_parallel)

    @property
    def microbatches(self) -> int:
        """Micro-batches per step of a pipeline-parallel plan (as many as stages when not given)."""
        return self.pipeline_microbatches or self.pipeline_parallel

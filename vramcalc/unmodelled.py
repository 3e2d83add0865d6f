"""Effects the engine does not model for given inputs, each with its likely size (decision 0463).

An estimate never leaves out an effect silently: :func:`unmodelled` names each one that applies to the inputs,
in English (the web layer translates by ``key``), with the size it is likely to have on one card and which way it
moves the measured peak. An effect that moves the peak by default (``direction`` +1: the measured peak may be
higher by up to ``high_bytes``; -1: lower) moves that end of the range (:mod:`vramcalc.calibration`); one that
depends on a setting the inputs do not state (``direction`` 0, e.g. ``expandable_segments``) is named with its
size and leaves the range alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from .components.activations import compute_bytes, sequence_tokens
from .components.kv import kv_cache
from .diffusion import autocast_norm_bytes, vae_workspace_bytes
from .infer import decodes_with_transformers, vision_mask_bytes
from .inputs import EstimateInput
from .options import Strategy, Workload
from .train_activations import logits_bytes
from .units import MIB

__all__ = [
    "DEEPSPEED_BUCKET_PARAMS",
    "DEEPSPEED_MAX_LIVE_PARAMS",
    "VARYING_LENGTH_LOGITS",
    "Unmodelled",
    "cache_growth_bytes",
    "unmodelled",
]

# PyTorch's caching allocator (c10/cuda/CUDACachingAllocator.cpp, get_allocation_size): a request of at least
# kMinLargeAlloc (10 MiB) gets a block of its own, rounded up to kRoundLarge (2 MiB); smaller ones share 20 MiB blocks.
ALLOC_MIN_LARGE = 10 * MIB
ALLOC_ROUND_LARGE = 2 * MIB
# DeepSpeed's default stage3_max_live_parameters and stage3_max_reuse_distance (deepspeed/runtime/zero/config.py).
DEEPSPEED_MAX_LIVE_PARAMS = 1_000_000_000
# DeepSpeed's default reduce_bucket_size and allgather_bucket_size (elements).
DEEPSPEED_BUCKET_PARAMS = 500_000_000
# A serving engine's profiling pass keeps about this many activation elements per token and hidden unit alive
# (residual, norm output, attention and MLP intermediates of one layer; vLLM's logged activation peak over its
# dummy multimodal batch, decision 0463).
PROFILE_ELEMENTS_PER_HIDDEN = 6
# A training run whose steps change length (samples padded to the longest of their batch, not packed to a fixed
# length: ``training.varying_lengths``) reserves up to this many more logits-and-loss spikes than one step needs:
# PyTorch's caching allocator keeps the blocks of earlier, shorter steps (it frees cached blocks only when a
# cudaMalloc fails) and maps new ones for a longer step, and the loss's tensors are the largest of a step. Read on
# ms-swift's single-card LoRA table (fresh-3: torch.cuda.max_memory_reserved over whole runs on cls-fudan-news-zh),
# where what the estimate misses is 2.8 to 3.5 times the logits spike whether checkpointing or flash attention is on
# or off and at any LoRA rank or target set, and grows with batch x length (decisions 0505, 0511).
VARYING_LENGTH_LOGITS = 3.5


@dataclass(frozen=True)
class Unmodelled:
    """One effect left out of this estimate.

    Attributes:
        key: stable identifier (the web layer translates by it).
        text: English explanation.
        low_bytes: likely size on one card, low end (0 when only an upper bound is known).
        high_bytes: likely size on one card, high end.
        direction: +1 the measured peak may be higher by up to ``high_bytes``, -1 lower, 0 depends on a setting
            the inputs do not state (the range is not moved).
    """

    key: str
    text: str
    low_bytes: int
    high_bytes: int
    direction: int


def _server_vision(inp: EstimateInput) -> Unmodelled:
    rt, model = inp.runtime, inp.model
    per_token = PROFILE_ELEMENTS_PER_HIDDEN * model.hidden_size * compute_bytes(inp) // inp.parallel.tensor_parallel
    low = max(rt.max_num_batched_tokens, model.image_tokens) * per_token
    high = max(low, rt.max_num_seqs * model.image_tokens * per_token)
    return Unmodelled(
        "server_vision_profile",
        "The server's start-up profiling pass runs the vision encoder over dummy images (one scheduler step of "
        "them, or max_num_seqs of them in older versions) and reserves its activation peak before sizing the KV "
        "cache.",
        low,
        high,
        1,
    )


def _vision_activations(inp: EstimateInput) -> Unmodelled:
    tokens = inp.batch_size * inp.image_tokens
    h = inp.model.hidden_size
    # The encoder runs over its patches before they are merged into image tokens (2x2 to 3x3 merges) at a width
    # close to the text model's: from one to eight hidden-sized tensors per patch in compute precision.
    return Unmodelled(
        "vision_encoder_activations",
        "The vision encoder's own activations over the image patches (before they are merged into image tokens).",
        tokens * h * 4 * compute_bytes(inp),
        tokens * h * 32 * compute_bytes(inp),
        1,
    )


def _deepspeed(inp: EstimateInput, total_params: int) -> Unmodelled:
    plan = inp.parallel
    h = inp.model.hidden_size
    # With overlap_comm, DeepSpeed's buckets take 4.5 x (reduce_bucket_size + allgather_bucket_size) 16-bit values
    # (Hugging Face's DeepSpeed guide): 9 GB at DeepSpeed's defaults (5e8 each), 18 h^2 bytes at the integration's
    # "auto" (h^2 each).
    low = 18 * h * h
    high = 18 * DEEPSPEED_BUCKET_PARAMS
    if plan.strategy is Strategy.ZERO3:
        live = min(total_params // plan.tensor_parallel, plan.zero3_max_live_params or DEEPSPEED_MAX_LIVE_PARAMS)
        high += live * compute_bytes(inp)
    return Unmodelled(
        "deepspeed_buffers",
        "DeepSpeed's communication buckets (4.5 x reduce_bucket_size + allgather_bucket_size with overlap_comm) "
        "and, under ZeRO-3, the parameters it keeps gathered because it will use them again soon "
        "(stage3_max_reuse_distance, up to stage3_max_live_parameters).",
        low,
        high,
        1,
    )


def _varying_lengths(inp: EstimateInput) -> Unmodelled | None:
    size = int(logits_bytes(inp) * VARYING_LENGTH_LOGITS)
    if not size:
        return None
    return Unmodelled(
        "varying_lengths_reserve",
        "Steps of different lengths (samples padded to the longest of their batch, not packed): the allocator keeps "
        "the blocks of earlier, shorter steps and reserves new ones for a longer step, so a run's reserved peak "
        "can exceed one step's by a few times the logits and loss spike.",
        0,
        size,
        1,
    )


def cache_growth_bytes(inp: EstimateInput) -> int:
    """What PyTorch's caching allocator may keep reserved after transformers' generate grew each layer's key and value
    tensors token by token (decision 0546).

    Both the legacy tuple cache and DynamicCache (4.36 on) build a layer's key and value anew with ``torch.cat`` at
    every new token, so each is a request one token longer than the last. Once such a tensor is 10 MiB or more, the
    allocator gives it a block of its own rounded up to 2 MiB; a freed block is reused only for a request that fits
    it, and a cached block is released only when a cudaMalloc fails or ``empty_cache`` is called. Each 2 MiB size the
    tensor passes through may therefore stay reserved, once per key and value of every layer on the card: at most the
    sum of those sizes, below the last one (the cache itself). What is actually kept depends on which cached blocks
    the run's other tensors take, so it is an upper bound, and a figure of allocated memory does not contain it. The
    allocator frees its cached blocks and retries when a cudaMalloc fails (``release_cached_blocks``), so these blocks
    never make a run fail: the effect is named with its size and leaves the range alone (direction 0).
    """
    kv = kv_cache(inp)
    per_token = kv.per_token_layer * inp.concurrent_sequences // 2
    first = max(per_token * sequence_tokens(inp), ALLOC_MIN_LARGE)
    last = per_token * inp.context_tokens
    lo = -(-first // ALLOC_ROUND_LARGE) * ALLOC_ROUND_LARGE
    hi = -(-last // ALLOC_ROUND_LARGE) * ALLOC_ROUND_LARGE
    sizes = max(0, (hi - lo) // ALLOC_ROUND_LARGE)
    return 2 * kv.layers * sizes * (lo + hi - ALLOC_ROUND_LARGE) // 2


def _cache_growth(inp: EstimateInput) -> Unmodelled | None:
    size = cache_growth_bytes(inp)
    if not size:
        return None
    return Unmodelled(
        "kv_cache_growth_blocks",
        "generate builds each layer's key and value anew at every new token (torch.cat); PyTorch's allocator keeps "
        "the freed blocks of the shorter sizes (10 MiB and up, rounded to 2 MiB) reserved, so reserved memory or "
        "nvidia-smi after a long generate may be higher by up to that much or until the card is full (allocated "
        "memory is not). PyTorch frees these blocks when an allocation would not fit, so the run does not need them.",
        0,
        size,
        0,
    )


def _tuple_cache(inp: EstimateInput) -> Unmodelled:
    # transformers before 4.36 (and models with their own modelling code) pass the cache as tuples: generate keeps
    # the previous step's tuple in its model_kwargs while the forward builds every layer's new key and value with
    # torch.cat, so at the end of a decoding step both caches are alive. transformers' Cache classes (4.36 on)
    # replace each layer's tensor in place, one layer at a time.
    size = kv_cache(inp).bytes
    return Unmodelled(
        "tuple_kv_cache",
        "Older transformers (before 4.36) and models with their own code keep the previous step's key/value tuples "
        "while generate's next step builds new ones with torch.cat: up to one more KV cache at the last step.",
        0,
        size,
        1,
    )


def unmodelled(
    inp: EstimateInput, total_params: int, fragmentation_bytes: int, decode_excess: int
) -> tuple[Unmodelled, ...]:
    """The effects not modelled for ``inp``, with their likely sizes on one card.

    Args:
        inp: the inputs.
        total_params: the model's parameter count (for DeepSpeed's live-parameter limit).
        fragmentation_bytes: the allocator slack counted at the peak (what ``expandable_segments`` would return).
        decode_excess: how far the VAE decode's phase total exceeds every other phase's (0 unless the decode is the
            peak phase): a smaller decode lowers the peak by no more than this.
    """
    found: list[Unmodelled] = []
    serving = not inp.workload.is_training and inp.model.diffusion is None
    if serving and inp.runtime.engine.is_server:
        graphs = inp.runtime.cuda_graph_mib * MIB
        found.append(
            Unmodelled(
                "cuda_graph_pool_counted",
                "The CUDA-graph pool is counted in the peak; a server that captures its graphs after sizing the KV "
                "cache reports a profiled peak without it.",
                graphs,
                graphs,
                -1,
            )
        )
        if inp.image_tokens:
            found.append(_server_vision(inp))
    elif serving and inp.image_tokens:
        found.append(_vision_activations(inp))
        mask = vision_mask_bytes(inp)
        if mask:
            found.append(
                Unmodelled(
                    "vision_mask_flash_attention",
                    "The vision encoder's dense attention mask is counted (transformers' default SDPA); with "
                    'attn_implementation="flash_attention_2" no mask is built and the peak is lower by up to that '
                    "much.",
                    0,
                    mask,
                    0,
                )
            )
    # A run that says its cache is tuples has the previous step's cache counted (runtime.tuple_kv_cache, 0516).
    if serving and inp.model.has_kv_cache and decodes_with_transformers(inp) and not inp.runtime.tuple_kv_cache:
        found.append(_tuple_cache(inp))
    growth = _cache_growth(inp) if serving and inp.model.has_kv_cache and decodes_with_transformers(inp) else None
    if growth is not None:
        found.append(growth)
    # A stated ZeRO-2 reduce buffer is counted (train.py): its all-gather runs in place in the flat 16-bit buffer
    # (stage2.py's step narrows the partitions themselves), so nothing of the buckets is left to widen for.
    deepspeed = (Strategy.ZERO1, Strategy.ZERO2, Strategy.ZERO3)
    if inp.workload.is_training and inp.parallel.strategy in deepspeed and not inp.parallel.zero2_reduce_buffer_params:
        found.append(_deepspeed(inp, total_params))
    varying = _varying_lengths(inp) if inp.workload.is_training and inp.training.varying_lengths else None
    if varying is not None:
        found.append(varying)
    norms = autocast_norm_bytes(inp) if inp.workload is Workload.DIFFUSION else 0
    if norms:
        found.append(
            Unmodelled(
                "autocast_norms",
                "Under autocast the group and layer norms return fp32 outputs, which the denoiser's working set "
                "counts in the compute dtype: the peak may be higher by up to that much.",
                0,
                norms,
                1,
            )
        )
    # The workspace lowers only the decode: where another phase is the peak it moves nothing, and where the decode is
    # the peak it lowers it no further than the next phase's total (decision 0582).
    workspace = min(vae_workspace_bytes(inp), decode_excess)
    if workspace:
        found.append(
            Unmodelled(
                "vae_conv_workspace",
                "The VAE's working set counts the convolutions' cuDNN workspace; PyTorch passes over a convolution "
                "plan whose workspace cannot be allocated for one that needs less, so on a card with little free "
                "memory the decode's peak may be lower by up to that much.",
                0,
                workspace,
                -1,
            )
        )
    if fragmentation_bytes:
        found.append(
            Unmodelled(
                "expandable_segments",
                "PyTorch's allocator slack is counted; with PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True most "
                "of it is returned and the peak is lower by up to that much.",
                0,
                fragmentation_bytes,
                0,
            )
        )
    return tuple(found)

"""Questions about a card: does it fit, how many tokens of KV cache fit, how many cards are needed."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from .errors import InvalidInput
from .estimate import estimate
from .inputs import EstimateInput
from .option_schema import option_range
from .options import Strategy, Workload
from .ranges import MAX_BYTES, Range

__all__ = [
    "CARD_BYTES",
    "CARD_COUNTS",
    "USABLE_PCT",
    "Fit",
    "KVCapacity",
    "fits",
    "fixed_card_count",
    "kv_token_capacity",
    "min_cards",
]

# The ranges of these functions' own inputs (the CLI's --card-gib and --max-cards read them): a card's memory,
# the share of it counted as usable, and the card counts `min_cards` may try (those a plan may have).
CARD_BYTES = Range(1, MAX_BYTES)
USABLE_PCT = Range(1, 100)
CARD_COUNTS = option_range("parallel.cards")


@dataclass(frozen=True)
class Fit:
    """Whether a per-card peak fits in a card.

    Attributes:
        fits: ``peak <= usable``.
        headroom_bytes: ``usable - peak`` (negative when it does not fit).
        usable_bytes: the card bytes considered usable.
    """

    fits: bool
    headroom_bytes: int
    usable_bytes: int


def fits(peak_bytes: int, card_bytes: int, usable_pct: int = 100) -> Fit:
    """Does ``peak_bytes`` fit in ``usable_pct``% of ``card_bytes``?

    Args:
        peak_bytes: the estimate's per-card peak.
        card_bytes: the card's memory as reported by the driver.
        usable_pct: share of the card that may be used (e.g. 90 to keep a safety margin).

    Raises:
        InvalidInput: a card size outside `CARD_BYTES` or a percentage outside `USABLE_PCT`.
    """
    if card_bytes not in CARD_BYTES:
        raise InvalidInput("card_bytes", f"must be within {CARD_BYTES}")
    if usable_pct not in USABLE_PCT:
        raise InvalidInput("usable_pct", f"must be within {USABLE_PCT}")
    usable = card_bytes * usable_pct // 100
    return Fit(peak_bytes <= usable, usable - peak_bytes, usable)


@dataclass(frozen=True)
class KVCapacity:
    """KV-cache capacity of one card (vLLM-style: everything left is KV blocks).

    Attributes:
        tokens: tokens of KV cache that fit at the average per-token cost of the requested context.
        sequences: full-context sequences that fit (``tokens // context``).
        free_bytes: bytes left for KV after weights, workspace, context and slack.
        per_token_bytes: average KV bytes per cached token at the requested context.
    """

    tokens: int
    sequences: int
    free_bytes: int
    per_token_bytes: int


def kv_token_capacity(inp: EstimateInput, card_bytes: int) -> KVCapacity:
    """Tokens of KV cache that fit on a card of ``card_bytes`` for inference inputs ``inp``.

    ``tokens = floor((U x card - everything but the KV cache) / per_token)`` with ``U`` =
    ``runtime.gpu_memory_utilization_pct`` (estimator.md §2.5).

    Raises:
        InvalidInput: the workload has no KV cache.
    """
    if inp.workload.is_training or not inp.model.has_kv_cache:
        raise InvalidInput("workload", "KV capacity applies to inference of models with a KV cache")
    result = estimate(inp)
    per_token = result.kv_bytes_per_token or 1
    others = result.peak_bytes - result.bytes_of("kv_cache")
    free = card_bytes * inp.runtime.gpu_memory_utilization_pct // 100 - others
    tokens = max(0, free // per_token)
    return KVCapacity(tokens, tokens // inp.context_tokens, free, per_token)


def fixed_card_count(inp: EstimateInput) -> bool:
    """The recipe cannot use more cards than chosen: DDP replicas, or a one-card fine-tune or image
    generation (a single-device recipe is not split by tensor parallelism on its own)."""
    plan = inp.parallel
    if plan.strategy is Strategy.DDP:
        return True
    one_card = plan.strategy is Strategy.SINGLE and plan.cards == 1
    return one_card and (inp.workload.is_training or inp.workload is Workload.DIFFUSION)


def _with_cards(inp: EstimateInput, cards: int) -> EstimateInput | None:
    plan = inp.parallel
    tp = cards if plan.strategy is Strategy.SINGLE else plan.tensor_parallel
    try:
        return dataclasses.replace(inp, parallel=dataclasses.replace(plan, cards=cards, tensor_parallel=tp))
    except InvalidInput:
        return None


def min_cards(inp: EstimateInput, card_bytes: int, max_cards: int = 8, usable_pct: int = 100) -> int | None:
    """Smallest number of cards (1..``max_cards``) on which the high end of ``inp``'s peak fits.

    ``single`` grows tensor parallelism; other strategies keep ``tensor_parallel`` and grow the
    data-parallel/sharding/pipeline degree. Card counts the plan rejects (e.g. TP not dividing the
    heads) are skipped; a recipe that cannot use more cards (:func:`fixed_card_count`) is tried at its
    own count only. Returns ``None`` when nothing up to ``max_cards`` fits.
    """
    if max_cards not in CARD_COUNTS:
        raise InvalidInput("max_cards", f"must be within {CARD_COUNTS}")
    counts = [inp.parallel.cards] if fixed_card_count(inp) else range(1, max_cards + 1)
    for cards in counts:
        candidate = _with_cards(inp, cards)
        if candidate is None:
            continue
        if fits(estimate(candidate).peak_high_bytes, card_bytes, usable_pct).fits:
            return cards
    return None

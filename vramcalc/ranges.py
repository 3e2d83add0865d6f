"""The range of every numeric input: declared once, on the input's own dataclass field, and checked there.

A field takes its range as ``field(default=…, metadata=within(1, MAX_CARDS))``; the dataclass's
``__post_init__`` calls :func:`check_ranges` first, so an input out of range raises
:class:`~vramcalc.errors.InvalidInput` naming the field (``parallel.cards: must be within 1..65536``) however the
input was built (library, JSON, CLI, web form). :func:`field_range` and :func:`bounded_fields` read the ranges
back for the option schema, the CLI's help, the shop's web form and API schema, and README's table.

The bounds are generous on purpose (decision 0374): every real workload is inside them, with room to spare, and
nothing far outside them is a workload (10^30 cards is a typo or a probe). Each bound below says why.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from .errors import InvalidInput

__all__ = [
    "MAX_BITS",
    "MAX_BYTES",
    "MAX_CARDS",
    "MAX_FACTOR",
    "MAX_FRAMES",
    "MAX_ITEMS",
    "MAX_LAYERS",
    "MAX_MIB",
    "MAX_PARAMS",
    "MAX_PIXELS",
    "MAX_TOKENS",
    "MAX_VOCAB",
    "MAX_WIDTH",
    "Range",
    "bounded_fields",
    "check_ranges",
    "field_range",
    "within",
]

# Cards in one plan: the largest training runs published use 16,384 (Llama 3) to ~100,000 GPUs; a per-card
# estimate over more than 65,536 cards of one job is not something anyone rents.
MAX_CARDS = 65_536
# Tokens in one sequence or one step: 2^24 = 16.8 M, above the longest context offered (10 M tokens).
MAX_TOKENS = 16_777_216
# Sequences in a batch, requests whose KV cache is held, sequences per scheduler step, images in a sequence:
# real values are in the hundreds or low thousands.
MAX_ITEMS = 65_536
# Pixels on one side of an image, a video frame, a patch or a tile: 64K px, above any generation or vision input.
MAX_PIXELS = 65_536
# Frames of a video (and latent frames): 65,536 frames is 36 minutes at 30 frames a second.
MAX_FRAMES = 65_536
# Layers (and blocks per level): the deepest models have a few hundred; 16,384 leaves room for experiments.
MAX_LAYERS = 16_384
# A width (hidden, MLP, head, rank, channels) or a count within one (heads, experts): 2^20, about 20 times the
# widest MLP of a released model, and above the million-expert layers of research models.
MAX_WIDTH = 1_048_576
# A vocabulary: 2^24 tokens, about 60 times the largest released vocabulary (262,144).
MAX_VOCAB = 16_777_216
# A parameter count: 10^15, about 500 times the largest model announced (about 2 trillion).
MAX_PARAMS = 10**15
# A checkpoint's bytes: 2^53 (8 PiB), 10^15 parameters at 8 bytes each.
MAX_BYTES = 2**53
# Memory in MiB of a per-card overhead (CUDA context, NCCL buffers, CUDA graphs): 1 TiB, more than any card holds.
MAX_MIB = 1_048_576
# A small multiplier (pixels per latent pixel, frames per latent frame, tensors per pixel): real values are 1 to 64.
MAX_FACTOR = 1_024
# Bits per quantized weight: 2 to 8 are used; 16 is the unquantized width.
MAX_BITS = 16

_KEY = "vramcalc.range"


@dataclass(frozen=True)
class Range:
    """Inclusive bounds of a numeric input (``None`` stays allowed where the field is optional)."""

    minimum: int
    maximum: int

    def __str__(self) -> str:
        return f"{self.minimum}..{self.maximum}"

    def __contains__(self, value: object) -> bool:
        return isinstance(value, int) and self.minimum <= value <= self.maximum


def within(minimum: int, maximum: int) -> dict[str, Range]:
    """The ``metadata`` of a dataclass field whose value (each item, for a tuple) lies in ``minimum..maximum``."""
    return {_KEY: Range(minimum, maximum)}


_BOUNDED: dict[type, tuple[tuple[str, Range], ...]] = {}


def bounded_fields(cls: type) -> tuple[tuple[str, Range], ...]:
    """The fields of dataclass ``cls`` that declare a range, with it, in field order (read once per class)."""
    found = _BOUNDED.get(cls)
    if found is None:
        fields = dataclasses.fields(cls)
        found = _BOUNDED[cls] = tuple((f.name, f.metadata[_KEY]) for f in fields if _KEY in f.metadata)
    return found


def field_range(cls: type, name: str) -> Range | None:
    """The range of field ``name`` of dataclass ``cls``, or ``None`` when it declares none."""
    return dict(bounded_fields(cls)).get(name)


def check_ranges(obj: object, prefix: str) -> None:
    """Raise :class:`InvalidInput` for the first field of ``obj`` out of its range; ``prefix`` is its dotted path
    (``"parallel."``). ``None`` (an optional field left out) is not checked; a tuple is checked item by item."""
    for name, bounds in bounded_fields(type(obj)):
        value = getattr(obj, name)
        if value is None:
            continue
        items = enumerate(value) if isinstance(value, tuple) else [(None, value)]
        for index, item in items:
            if item not in bounds:
                where = prefix + name if index is None else f"{prefix}{name}[{index}]"
                raise InvalidInput(where, f"must be within {bounds}")

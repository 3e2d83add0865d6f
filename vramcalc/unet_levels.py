"""What autograd keeps for one training step of a diffusers ``UNet2DConditionModel``, level by level.

Decision 0220. Counts are elements per image (multiply by the batch and the compute dtype's bytes), walking
the UNet as diffusers builds it: ``conv_in``; per down level ``layers_per_block`` resnets, each followed by a
``Transformer2DModel`` where the level has attention, and a stride-2 convolution except at the last level;
the mid block (resnet, transformer, resnet); per up level ``layers_per_block + 1`` resnets over the skip
concatenation, each followed by a transformer, and a nearest upsample + convolution except at level 0; the
output head (GroupNorm, SiLU, convolution).

Per token, in units of the level's channels ``C``:

* ``ResnetBlock2D(C_in→C)``: GroupNorm input, its output (SiLU saves its input), SiLU's output (the
  convolution saves its input), twice: ``3·C_in + 3·C``.
* ``Transformer2DModel``: GroupNorm input, ``proj_in`` and ``proj_out`` inputs (``3·C``), and per
  ``BasicTransformerBlock`` ``21·C`` whatever trains (three LayerNorm inputs, the self-attention input and the
  cross-attention query input (LoRA on q/v or the weights keep them), the head-split q, k, v copies and the
  cross-attention query copy the batched matmuls keep, GEGLU's ``8·C`` projection output and its ``4·C`` GELU
  output) plus the inputs of the trained linears that nothing else keeps: ``+2·C`` (both ``to_out`` inputs) for
  LoRA on attention, ``+7·C`` (also the feed-forward input and its ``4·C`` product) for full fine-tuning or LoRA
  on all linears. A frozen matmul does not keep its input (autograd saves it only for the weight's gradient).
* Attention without a memory-efficient kernel keeps the softmax output: ``heads·N`` per token for the
  self-attention (N = the level's tokens) and ``heads·T`` for the cross-attention (T text tokens); a
  memory-efficient kernel (xformers, SDPA) keeps its output instead (``+2·C``).

At the start of backward everything is live, plus (without a memory-efficient kernel) two more score
matrices of the widest self-attention (the gradients of the probabilities and of the scores). With gradient
checkpointing (each resnet and each ``Transformer2DModel`` a checkpoint) only the checkpointed modules' inputs
are kept, plus the samplers and the output head, plus the largest module recomputed with its transients.

Limits: everything is counted in the compute dtype. Under autocast (mixed precision) the norms and the softmax
produce fp32 outputs, and an eager attention keeps both the fp32 probabilities and their 16-bit copy (6 bytes
per score element instead of 2): a 16-bit eager run is undercounted there. With LoRA, the tensors before the
first adapted layer need no gradient and are not kept; they are counted (a small overcount).
"""

from __future__ import annotations

from dataclasses import dataclass

from .model import DiffusionSpec

__all__ = ["UNetCount", "has_layout", "unet_training_elements", "widest_self_attention"]

_BLOCK_BASE = 21
_TRANSFORMER_BASE = 3
_TRAINED_EXTRA = {"frozen_qv": 0, "attention": 2, "all": 7}
_FUSED_OUTPUTS = 2


@dataclass(frozen=True)
class UNetCount:
    """Elements per image live at the training peak, and how they split."""

    saved: int
    scores: int
    transient: int
    checkpointed: bool

    @property
    def total(self) -> int:
        return self.saved + self.scores + self.transient


def has_layout(spec: DiffusionSpec) -> bool:
    """Whether ``spec`` describes its UNet's levels (``unet_channels``)."""
    return spec.denoiser_kind == "unet" and bool(spec.unet_channels)


@dataclass
class _Walk:
    trained: str
    fused: bool
    text_tokens: int
    inputs: int = 0
    saved: int = 0
    scores: int = 0
    uncheckpointed: int = 0
    largest: int = 0

    def _module(self, inp: int, saved: int, scores: int, transient: int) -> None:
        self.inputs += inp
        self.saved += saved
        self.scores += scores
        self.largest = max(self.largest, saved + scores + transient)

    def resnet(self, c_in: int, c: int, tokens: int) -> None:
        self._module(tokens * c_in, tokens * (3 * c_in + 3 * c), 0, 0)

    def transformer(self, c: int, depth: int, heads: int, tokens: int) -> None:
        if depth <= 0:
            return
        per_block = _BLOCK_BASE + _TRAINED_EXTRA[self.trained] + (_FUSED_OUTPUTS if self.fused else 0)
        saved = tokens * c * (_TRANSFORMER_BASE + depth * per_block)
        scores = 0 if self.fused else depth * heads * tokens * (tokens + self.text_tokens)
        transient = 0 if self.fused else 2 * heads * tokens * tokens
        self._module(tokens * c, saved, scores, transient)

    def plain(self, elements: int) -> None:
        """Tensors outside the checkpointed modules (samplers, the output head)."""
        self.uncheckpointed += elements


def _tokens(latent_h: int, latent_w: int, level: int) -> int:
    height, width = latent_h, latent_w
    for _ in range(level):
        height, width = -(-height // 2), -(-width // 2)
    return height * width


def widest_self_attention(spec: DiffusionSpec, latent_h: int, latent_w: int) -> tuple[int, int]:
    """``(heads, tokens)`` of the self-attention with the largest score matrix (``heads x tokens²`` per image) over
    the levels that have attention; ``(0, 0)`` when none has. A level without transformer blocks (SDXL's first,
    ``DownBlock2D``) builds no score matrix, so its tokens do not count."""
    found = [
        (spec.unet_heads[level], _tokens(latent_h, latent_w, level))
        for level in range(len(spec.unet_channels))
        if spec.unet_transformer_depth[level]
    ]
    return max(found, key=lambda found: found[0] * found[1] * found[1], default=(0, 0))


def unet_training_elements(
    spec: DiffusionSpec, latent_h: int, latent_w: int, trained: str, fused: bool, checkpointing: bool
) -> UNetCount:
    """Elements per image at the training peak; ``trained`` is ``frozen_qv``, ``attention`` or ``all``."""
    channels, depth, heads = spec.unet_channels, spec.unet_transformer_depth, spec.unet_heads
    levels, layers = len(channels), spec.unet_layers_per_block
    walk = _Walk(trained, fused, spec.text_tokens)
    tokens = [_tokens(latent_h, latent_w, level) for level in range(levels)]
    skips, prev = [channels[0]], channels[0]
    for level in range(levels):
        for _ in range(layers):
            walk.resnet(prev, channels[level], tokens[level])
            prev = channels[level]
            walk.transformer(prev, depth[level], heads[level], tokens[level])
            skips.append(prev)
        if level < levels - 1:
            walk.plain(tokens[level] * prev)  # the stride-2 convolution keeps its input
            skips.append(prev)
    last = levels - 1
    walk.resnet(prev, prev, tokens[last])
    walk.transformer(prev, spec.unet_mid_transformer_depth, heads[last], tokens[last])
    walk.resnet(prev, prev, tokens[last])
    for level in reversed(range(levels)):
        for _ in range(layers + 1):
            walk.resnet(prev + skips.pop(), channels[level], tokens[level])
            prev = channels[level]
            walk.transformer(prev, depth[level], heads[level], tokens[level])
        if level > 0:
            walk.plain(tokens[level - 1] * prev)  # the upsampled tensor the convolution keeps
    walk.plain(tokens[0] * 3 * channels[0])  # output head: GroupNorm input, SiLU input, convolution input
    widest = max((heads[level] * tokens[level] * tokens[level] for level in range(levels) if depth[level]), default=0)
    if checkpointing:
        return UNetCount(walk.inputs + walk.uncheckpointed, 0, walk.largest, True)
    return UNetCount(walk.saved + walk.uncheckpointed, walk.scores, 0 if fused else 2 * widest, False)

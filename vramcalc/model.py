"""Model architecture description (frozen dataclasses), independent of any workload."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from .errors import InvalidInput
from .ranges import (
    MAX_BYTES,
    MAX_FACTOR,
    MAX_FRAMES,
    MAX_LAYERS,
    MAX_PARAMS,
    MAX_PIXELS,
    MAX_TOKENS,
    MAX_VOCAB,
    MAX_WIDTH,
    check_ranges,
    within,
)

__all__ = ["DiffusionSpec", "MLASpec", "MoESpec", "ModelKind", "ModelSpec"]


class ModelKind(StrEnum):
    """What the network is, which decides which workloads and formulas apply.

    decoder: causal LM (Llama, Mistral, GPT-2); has a KV cache and vocabulary logits.
    encoder: bidirectional encoder (BERT); no KV cache, a small classifier head when fine-tuned.
    encoder_decoder: T5-style; ``num_layers`` encoder layers and ``num_decoder_layers`` decoder layers.
    vision: ViT-style image encoder; sequence length comes from image resolution and patch size.
    diffusion: an image-generation pipeline described by ``ModelSpec.diffusion``.
    """

    DECODER = "decoder"
    ENCODER = "encoder"
    ENCODER_DECODER = "encoder_decoder"
    VISION = "vision"
    DIFFUSION = "diffusion"


def _positive(field: str, value: int) -> None:
    """A size the field's range allows to be 0 (unused by some kinds of model) that this kind needs."""
    if value <= 0:
        raise InvalidInput(field, f"must be > 0, got {value}")


@dataclass(frozen=True)
class MoESpec:
    """Mixture-of-experts MLP: every expert is resident, ``experts_per_token`` are active per token.

    Args:
        num_experts: routed experts per MoE layer.
        experts_per_token: top-k routing.
        expert_intermediate_size: MLP width of one expert.
        num_shared_experts: always-active experts (DeepSeek), same width.
        dense_layers: leading layers that use a dense MLP of ``ModelSpec.intermediate_size``.
    """

    num_experts: int = field(metadata=within(1, MAX_WIDTH))
    experts_per_token: int = field(metadata=within(1, MAX_WIDTH))
    expert_intermediate_size: int = field(metadata=within(1, MAX_WIDTH))
    num_shared_experts: int = field(default=0, metadata=within(0, MAX_WIDTH))
    dense_layers: int = field(default=0, metadata=within(0, MAX_LAYERS))

    def __post_init__(self) -> None:
        check_ranges(self, "model.moe.")
        if self.experts_per_token > self.num_experts:
            raise InvalidInput("model.moe.experts_per_token", "cannot exceed num_experts")


@dataclass(frozen=True)
class MLASpec:
    """Multi-head latent attention (DeepSeek-V2/V3): the KV cache is one latent vector per token and layer.

    Args:
        kv_lora_rank: width of the compressed KV latent.
        qk_rope_head_dim: decoupled RoPE key width, cached next to the latent.
        qk_nope_head_dim: per-head non-RoPE query/key width.
        v_head_dim: per-head value width.
        q_lora_rank: query compression rank, 0 when queries are not compressed.
    """

    kv_lora_rank: int = field(metadata=within(1, MAX_WIDTH))
    qk_rope_head_dim: int = field(metadata=within(1, MAX_WIDTH))
    qk_nope_head_dim: int = field(metadata=within(1, MAX_WIDTH))
    v_head_dim: int = field(metadata=within(1, MAX_WIDTH))
    q_lora_rank: int = field(default=0, metadata=within(0, MAX_WIDTH))

    def __post_init__(self) -> None:
        check_ranges(self, "model.mla.")


@dataclass(frozen=True)
class DiffusionSpec:
    """A text-to-image pipeline: text encoders, a denoiser (UNet or DiT) and a KL-VAE.

    Args:
        denoiser_params: parameters of the UNet/transformer.
        denoiser_kind: ``"unet"`` or ``"dit"``.
        denoiser_hidden: width of the denoiser's attention blocks (UNet: the first level's channels).
        denoiser_heads: attention heads at that width.
        denoiser_linear_fraction_pct: share of denoiser parameters in linear layers (what weight-only
            quantizers convert), in percent.
        text_encoder_params: one entry per text encoder.
        text_tokens: prompt tokens the denoiser attends to (77 for CLIP, 512 for T5 in Flux).
        vae_params: parameters of the whole KL-VAE.
        latent_channels: 4 (SD 1.x/SDXL) or 16 (SD3/Flux).
        vae_scale_factor: pixels per latent pixel (8).
        patch_size: DiT patchification (2); 1 for UNets.
        vae_tile_px: tile edge used by ``enable_tiling`` (SD 512, SDXL 1024).
        text_encoder_fp32_params: text-encoder parameters that transformers keeps in fp32 when it loads
            the encoder in fp16 or through bitsandbytes (T5's ``_keep_in_fp32_modules = ["wo"]``: the
            FFN output projections, 24 x 10240 x 4096 = 1,006,632,960 in T5-XXL); 0 for CLIP-only pipelines.
        text_encoder_hidden: width of each text encoder (same order as ``text_encoder_params``; CLIP-L 768,
            OpenCLIP-bigG 1280, T5-XXL 4096); empty: 768 each. Used when the text encoders train.
        unet_channels: a UNet's ``block_out_channels`` (one entry per level, the first at the latent
            resolution); empty: no per-level layout (diffusion training then uses the equivalent-depth
            allowance; decision 0220).
        unet_layers_per_block: resnets per down level (``layers_per_block``; up levels have one more).
        unet_transformer_depth: transformer blocks after each resnet, per level (0: no attention there).
        unet_mid_transformer_depth: transformer blocks in the mid block.
        unet_heads: attention heads per level.
        vae_channels: the VAE's ``block_out_channels`` (128/256/512/512 for the SD, SDXL, SD3 and Flux VAEs):
            the encoder's first level runs at full resolution with the first width, the decoder's last
            upsampler brings the second width to full resolution (decision 0222).
        temporal_compression: frames per latent frame of a video model's 3D causal VAE (4 for CogVideoX);
            0 for an image model. A video's ``F`` frames are ``(F - 1) // t + 1`` latent frames (decision 0223).
        default_frames: frames a video pipeline generates by default (CogVideoX 49).
        default_height_px / default_width_px: a video pipeline's default frame size (CogVideoX 480x720);
            image pipelines default to 1024x1024.
        vae_decode_latent_frames: latent frames the 3D VAE decodes per pass (CogVideoX 2, its
            ``num_latent_frames_batch_size``; the causal conv cache carries the rest); 0: all at once.
        vae_decode_extra_tensors: full-resolution tensors per pixel-frame the 3D decoder holds beyond the image
            VAE's (causal padding copy, spatial-norm scale and shift of CogVideoX: 3).
        vae_tile_width_px: tile width of ``enable_tiling`` when it differs from ``vae_tile_px`` (CogVideoX tiles
            are half its 480x720 sample: 240x360); 0: square tiles.
        vae_force_upcast: the pipeline casts an fp16 VAE to fp32 to encode and decode (diffusers' SDXL pipelines:
            ``needs_upcasting = self.vae.dtype == torch.float16 and self.vae.config.force_upcast``, then
            ``upcast_vae()``); the Flux, SD3 and SD 1.5 pipelines do not, whatever the VAE's config says.
        denoiser_blocks: a DiT's transformer blocks, as its config counts them (SD3's ``num_layers`` joint blocks;
            Flux's ``num_layers`` double-stream plus ``num_single_layers`` single-stream blocks), each an attention
            and an MLP over the latent (and text) tokens; a block with a second self-attention over the image tokens
            (SD3.5 Medium's ``dual_attention_layers``) counts twice. Diffusion training keeps its saved activations
            per block; 0: the *equivalent depth* ``denoiser_params / (12·h²)``, which counts the adaLN modulation
            and a joint block's second stream as blocks of their own (decision 0597).
    """

    denoiser_params: int = field(metadata=within(1, MAX_PARAMS))
    denoiser_kind: str
    denoiser_hidden: int = field(metadata=within(1, MAX_WIDTH))
    denoiser_heads: int = field(metadata=within(1, MAX_WIDTH))
    vae_params: int = field(metadata=within(1, MAX_PARAMS))
    text_encoder_params: tuple[int, ...] = field(default=(), metadata=within(1, MAX_PARAMS))
    text_tokens: int = field(default=77, metadata=within(1, MAX_TOKENS))
    denoiser_linear_fraction_pct: int = field(default=95, metadata=within(0, 100))
    latent_channels: int = field(default=4, metadata=within(1, MAX_WIDTH))
    vae_scale_factor: int = field(default=8, metadata=within(1, MAX_FACTOR))
    patch_size: int = field(default=1, metadata=within(1, MAX_FACTOR))
    vae_tile_px: int = field(default=512, metadata=within(1, MAX_PIXELS))
    text_encoder_fp32_params: int = field(default=0, metadata=within(0, MAX_PARAMS))
    text_encoder_hidden: tuple[int, ...] = field(default=(), metadata=within(1, MAX_WIDTH))
    unet_channels: tuple[int, ...] = field(default=(), metadata=within(1, MAX_WIDTH))
    unet_layers_per_block: int = field(default=2, metadata=within(1, MAX_LAYERS))
    unet_transformer_depth: tuple[int, ...] = field(default=(), metadata=within(0, MAX_LAYERS))
    unet_mid_transformer_depth: int = field(default=1, metadata=within(0, MAX_LAYERS))
    unet_heads: tuple[int, ...] = field(default=(), metadata=within(1, MAX_WIDTH))
    vae_channels: tuple[int, ...] = field(default=(128, 256, 512, 512), metadata=within(1, MAX_WIDTH))
    temporal_compression: int = field(default=0, metadata=within(0, MAX_FACTOR))
    default_frames: int = field(default=0, metadata=within(0, MAX_FRAMES))
    default_height_px: int = field(default=0, metadata=within(0, MAX_PIXELS))
    default_width_px: int = field(default=0, metadata=within(0, MAX_PIXELS))
    vae_decode_latent_frames: int = field(default=0, metadata=within(0, MAX_FRAMES))
    vae_decode_extra_tensors: int = field(default=0, metadata=within(0, MAX_FACTOR))
    vae_tile_width_px: int = field(default=0, metadata=within(0, MAX_PIXELS))
    vae_force_upcast: bool = False
    denoiser_blocks: int = field(default=0, metadata=within(0, MAX_LAYERS))

    @property
    def is_video(self) -> bool:
        """A video pipeline (3D VAE with temporal compression)."""
        return self.temporal_compression > 0

    def __post_init__(self) -> None:
        check_ranges(self, "model.diffusion.")
        if self.denoiser_kind not in ("unet", "dit"):
            raise InvalidInput("model.diffusion.denoiser_kind", "must be 'unet' or 'dit'")
        if self.text_encoder_fp32_params > max(self.text_encoder_params, default=0):
            raise InvalidInput(
                "model.diffusion.text_encoder_fp32_params", "must be within 0 and the largest text encoder's count"
            )
        if self.text_encoder_hidden and len(self.text_encoder_hidden) != len(self.text_encoder_params):
            raise InvalidInput("model.diffusion.text_encoder_hidden", "needs one width per text encoder")
        if len(self.vae_channels) < 2:
            raise InvalidInput("model.diffusion.vae_channels", "needs at least two VAE levels")
        if self.is_video and (self.unet_channels or self.default_frames < 1):
            raise InvalidInput("model.diffusion.temporal_compression", "a video model is a DiT with default frames")
        if self.denoiser_blocks and self.denoiser_kind != "dit":
            raise InvalidInput("model.diffusion.denoiser_blocks", "only a DiT counts its blocks")
        self._check_unet()

    def _check_unet(self) -> None:
        levels = len(self.unet_channels)
        if not levels:
            return
        if self.denoiser_kind != "unet":
            raise InvalidInput("model.diffusion.unet_channels", "only a UNet has levels")
        for name in ("unet_transformer_depth", "unet_heads"):
            if len(getattr(self, name)) != levels:
                raise InvalidInput(f"model.diffusion.{name}", "needs one entry per UNet level (unet_channels)")


@dataclass(frozen=True)
class ModelSpec:
    """A transformer (or diffusion pipeline) architecture, as read from a preset or a ``config.json``.

    Sizes are element counts. ``param_count`` (exact total, when known) overrides the count derived
    from the architecture; the difference is treated as non-linear parameters kept in 16-bit
    (norms, biases, position embeddings). ``checkpoint_bytes`` is the exact weight size read from a
    safetensors header; with ``checkpoint_prequantized`` it is used as-is for the weights.

    Args:
        name: display name.
        kind: see :class:`ModelKind`.
        num_layers: transformer layers (encoder layers for encoder-decoder models).
        hidden_size: model width ``h``.
        num_attention_heads: query heads ``a``.
        num_kv_heads: key/value heads ``k`` (MHA: ``a``; GQA: fewer; MQA: 1). ``None`` means ``a``.
        head_dim: per-head width ``d``; ``None`` means ``h / a``.
        intermediate_size: MLP width ``f`` (dense layers).
        vocab_size: vocabulary ``V``.
        gated_mlp: SwiGLU/GeGLU (three matrices) instead of a two-matrix GeLU MLP.
        tie_word_embeddings: the LM head shares the embedding matrix.
        num_decoder_layers: decoder layers of an encoder-decoder model.
        sliding_window: attention window of sliding-window layers, ``None`` if there are none.
        sliding_window_layers: how many layers use the window; ``None`` means all layers.
        moe: mixture-of-experts MLP, if any.
        mla: multi-head latent attention, if any.
        image_size: default input resolution of a vision model (pixels per side).
        patch_size: ViT patch edge in pixels.
        dropout: dropout is active in training (BERT, GPT-2): dropout masks are saved for backward.
        relative_position_bias: every layer builds an attention bias of heads x tokens² from a learned table of
            relative positions (BEiT, Data2Vec-Vision: ``use_relative_position_bias`` or
            ``use_shared_relative_position_bias``); in training a fused kernel saves it with its inputs, and the
            gather that builds it saves its int64 index while the table trains (engine 0.3.14).
        param_count: exact total parameter count, when known.
        checkpoint_bytes: exact weight bytes from a safetensors header, when known.
        checkpoint_prequantized: the checkpoint already stores quantized tensors (packed ints, fp8).
        diffusion: the pipeline description for ``kind == diffusion``.
        vision_encoder_params: a vision-language model's vision tower + projector parameters (LLaVA: CLIP
            ViT-L/14-336 and a 2-layer MLP), kept in the weights dtype, frozen in fine-tuning unless
            ``training.vision_encoder_trained`` (engine 0.3.21).
        image_tokens: tokens each image adds to the language model's sequence after the projector
            (LLaVA-1.5: 576; Qwen2-VL: depends on the resolution, give the count for yours).
        vision_packed_patches: the vision encoder runs the patches of every image as one packed sequence,
            this many patches per image token (Qwen2-VL and Qwen2.5-VL: 4, their 2x2 merge); transformers'
            SDPA path then masks it with a dense block mask over all patches. 0: each image (or tile) runs on
            its own (CLIP, SigLIP).
    """

    name: str
    kind: ModelKind = ModelKind.DECODER
    num_layers: int = field(default=0, metadata=within(0, MAX_LAYERS))
    hidden_size: int = field(default=0, metadata=within(0, MAX_WIDTH))
    num_attention_heads: int = field(default=0, metadata=within(0, MAX_WIDTH))
    num_kv_heads: int | None = field(default=None, metadata=within(1, MAX_WIDTH))
    head_dim: int | None = field(default=None, metadata=within(1, MAX_WIDTH))
    intermediate_size: int = field(default=0, metadata=within(0, MAX_WIDTH))
    vocab_size: int = field(default=0, metadata=within(0, MAX_VOCAB))
    gated_mlp: bool = True
    tie_word_embeddings: bool = False
    num_decoder_layers: int = field(default=0, metadata=within(0, MAX_LAYERS))
    sliding_window: int | None = field(default=None, metadata=within(1, MAX_TOKENS))
    sliding_window_layers: int | None = field(default=None, metadata=within(0, MAX_LAYERS))
    moe: MoESpec | None = None
    mla: MLASpec | None = None
    image_size: int = field(default=0, metadata=within(0, MAX_PIXELS))
    patch_size: int = field(default=0, metadata=within(0, MAX_PIXELS))
    dropout: bool = False
    relative_position_bias: bool = False
    param_count: int | None = field(default=None, metadata=within(1, MAX_PARAMS))
    checkpoint_bytes: int | None = field(default=None, metadata=within(1, MAX_BYTES))
    checkpoint_prequantized: bool = False
    diffusion: DiffusionSpec | None = None
    vision_encoder_params: int = field(default=0, metadata=within(0, MAX_PARAMS))
    image_tokens: int = field(default=0, metadata=within(0, MAX_TOKENS))
    vision_packed_patches: int = field(default=0, metadata=within(0, 64))

    def __post_init__(self) -> None:
        if not self.name.strip():
            raise InvalidInput("model.name", "must not be empty")
        check_ranges(self, "model.")
        if self.kind is ModelKind.DIFFUSION:
            if self.diffusion is None:
                raise InvalidInput("model.diffusion", "a diffusion model needs its pipeline description")
            return
        self._check_transformer()

    def _check_transformer(self) -> None:
        for name in ("num_layers", "hidden_size", "num_attention_heads", "intermediate_size"):
            _positive(f"model.{name}", getattr(self, name))
        if self.kind is not ModelKind.VISION:
            _positive("model.vocab_size", self.vocab_size)
        kv = self.kv_heads
        if not 0 < kv <= self.num_attention_heads or self.num_attention_heads % kv:
            raise InvalidInput("model.num_kv_heads", "must divide num_attention_heads")
        if self.head_dim is None and self.hidden_size % self.num_attention_heads:
            raise InvalidInput("model.head_dim", "hidden_size is not a multiple of the heads; give head_dim")
        if self.sliding_window_layers is not None:
            if self.sliding_window is None:
                raise InvalidInput("model.sliding_window_layers", "needs model.sliding_window")
            if not 0 <= self.sliding_window_layers <= self.num_layers:
                raise InvalidInput("model.sliding_window_layers", "must be within 0..num_layers")
        if self.kind is ModelKind.ENCODER_DECODER:
            _positive("model.num_decoder_layers", self.num_decoder_layers)
        if self.kind is ModelKind.VISION:
            _positive("model.image_size", self.image_size)
            _positive("model.patch_size", self.patch_size)
        if self.moe is not None and self.moe.dense_layers > self.num_layers:
            raise InvalidInput("model.moe.dense_layers", "cannot exceed num_layers")
        if (self.vision_encoder_params > 0) != (self.image_tokens > 0):
            raise InvalidInput("model.image_tokens", "a vision-language model gives both its encoder and image tokens")
        if self.checkpoint_prequantized and self.checkpoint_bytes is None:
            raise InvalidInput("model.checkpoint_prequantized", "needs model.checkpoint_bytes")

    @property
    def kv_heads(self) -> int:
        """Key/value heads ``k`` (defaults to the query heads)."""
        return self.num_attention_heads if self.num_kv_heads is None else self.num_kv_heads

    @property
    def dim_per_head(self) -> int:
        """Per-head width ``d``: ``head_dim`` from the config, else ``h / a``."""
        return self.head_dim if self.head_dim is not None else self.hidden_size // self.num_attention_heads

    @property
    def total_layers(self) -> int:
        """Encoder plus decoder layers."""
        return self.num_layers + self.num_decoder_layers

    @property
    def has_kv_cache(self) -> bool:
        """Autoregressive models keep a KV cache during generation."""
        return self.kind in (ModelKind.DECODER, ModelKind.ENCODER_DECODER)

    @property
    def has_vocab_logits(self) -> bool:
        """Language-model heads produce ``V`` logits per token (encoders/vision: small classifier)."""
        return self.kind in (ModelKind.DECODER, ModelKind.ENCODER_DECODER)

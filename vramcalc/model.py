"""Model architecture description (frozen dataclasses), independent of any workload."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .errors import InvalidInput

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


def _positive(field: str, value: int, allow_zero: bool = False) -> None:
    if value < 0 or (value == 0 and not allow_zero):
        raise InvalidInput(field, f"must be {'>= 0' if allow_zero else '> 0'}, got {value}")


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

    num_experts: int
    experts_per_token: int
    expert_intermediate_size: int
    num_shared_experts: int = 0
    dense_layers: int = 0

    def __post_init__(self) -> None:
        _positive("model.moe.num_experts", self.num_experts)
        _positive("model.moe.experts_per_token", self.experts_per_token)
        _positive("model.moe.expert_intermediate_size", self.expert_intermediate_size)
        _positive("model.moe.num_shared_experts", self.num_shared_experts, allow_zero=True)
        _positive("model.moe.dense_layers", self.dense_layers, allow_zero=True)
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

    kv_lora_rank: int
    qk_rope_head_dim: int
    qk_nope_head_dim: int
    v_head_dim: int
    q_lora_rank: int = 0

    def __post_init__(self) -> None:
        _positive("model.mla.kv_lora_rank", self.kv_lora_rank)
        _positive("model.mla.qk_rope_head_dim", self.qk_rope_head_dim)
        _positive("model.mla.qk_nope_head_dim", self.qk_nope_head_dim)
        _positive("model.mla.v_head_dim", self.v_head_dim)
        _positive("model.mla.q_lora_rank", self.q_lora_rank, allow_zero=True)


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
    """

    denoiser_params: int
    denoiser_kind: str
    denoiser_hidden: int
    denoiser_heads: int
    vae_params: int
    text_encoder_params: tuple[int, ...] = ()
    text_tokens: int = 77
    denoiser_linear_fraction_pct: int = 95
    latent_channels: int = 4
    vae_scale_factor: int = 8
    patch_size: int = 1
    vae_tile_px: int = 512
    text_encoder_fp32_params: int = 0
    text_encoder_hidden: tuple[int, ...] = ()
    unet_channels: tuple[int, ...] = ()
    unet_layers_per_block: int = 2
    unet_transformer_depth: tuple[int, ...] = ()
    unet_mid_transformer_depth: int = 1
    unet_heads: tuple[int, ...] = ()
    vae_channels: tuple[int, ...] = (128, 256, 512, 512)
    temporal_compression: int = 0
    default_frames: int = 0
    default_height_px: int = 0
    default_width_px: int = 0
    vae_decode_latent_frames: int = 0
    vae_decode_extra_tensors: int = 0
    vae_tile_width_px: int = 0

    @property
    def is_video(self) -> bool:
        """A video pipeline (3D VAE with temporal compression)."""
        return self.temporal_compression > 0

    def __post_init__(self) -> None:
        for name in ("denoiser_params", "denoiser_hidden", "denoiser_heads", "vae_params", "text_tokens"):
            _positive(f"model.diffusion.{name}", getattr(self, name))
        for name in ("latent_channels", "vae_scale_factor", "patch_size", "vae_tile_px"):
            _positive(f"model.diffusion.{name}", getattr(self, name))
        if self.denoiser_kind not in ("unet", "dit"):
            raise InvalidInput("model.diffusion.denoiser_kind", "must be 'unet' or 'dit'")
        if not 0 <= self.denoiser_linear_fraction_pct <= 100:
            raise InvalidInput("model.diffusion.denoiser_linear_fraction_pct", "must be within 0..100")
        for index, params in enumerate(self.text_encoder_params):
            _positive(f"model.diffusion.text_encoder_params[{index}]", params)
        if not 0 <= self.text_encoder_fp32_params <= max(self.text_encoder_params, default=0):
            raise InvalidInput(
                "model.diffusion.text_encoder_fp32_params", "must be within 0 and the largest text encoder's count"
            )
        if self.text_encoder_hidden and len(self.text_encoder_hidden) != len(self.text_encoder_params):
            raise InvalidInput("model.diffusion.text_encoder_hidden", "needs one width per text encoder")
        for index, width in enumerate(self.text_encoder_hidden):
            _positive(f"model.diffusion.text_encoder_hidden[{index}]", width)
        if len(self.vae_channels) < 2:
            raise InvalidInput("model.diffusion.vae_channels", "needs at least two VAE levels")
        for index, width in enumerate(self.vae_channels):
            _positive(f"model.diffusion.vae_channels[{index}]", width)
        for name in (
            "temporal_compression",
            "default_frames",
            "default_height_px",
            "default_width_px",
            "vae_decode_latent_frames",
            "vae_decode_extra_tensors",
        ):
            if getattr(self, name) < 0:
                raise InvalidInput(f"model.diffusion.{name}", "must be >= 0")
        if self.vae_tile_width_px < 0:
            raise InvalidInput("model.diffusion.vae_tile_width_px", "must be >= 0")
        if self.is_video and (self.unet_channels or self.default_frames < 1):
            raise InvalidInput("model.diffusion.temporal_compression", "a video model is a DiT with default frames")
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
        for index in range(levels):
            _positive(f"model.diffusion.unet_channels[{index}]", self.unet_channels[index])
            _positive(f"model.diffusion.unet_heads[{index}]", self.unet_heads[index])
            if self.unet_transformer_depth[index] < 0:
                raise InvalidInput(f"model.diffusion.unet_transformer_depth[{index}]", "must be >= 0")
        _positive("model.diffusion.unet_layers_per_block", self.unet_layers_per_block)
        if self.unet_mid_transformer_depth < 0:
            raise InvalidInput("model.diffusion.unet_mid_transformer_depth", "must be >= 0")


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
        param_count: exact total parameter count, when known.
        checkpoint_bytes: exact weight bytes from a safetensors header, when known.
        checkpoint_prequantized: the checkpoint already stores quantized tensors (packed ints, fp8).
        diffusion: the pipeline description for ``kind == diffusion``.
        vision_encoder_params: a vision-language model's vision tower + projector parameters (LLaVA: CLIP
            ViT-L/14-336 and a 2-layer MLP), kept in the weights dtype, frozen in fine-tuning.
        image_tokens: tokens each image adds to the language model's sequence after the projector
            (LLaVA-1.5: 576; Qwen2-VL: depends on the resolution, give the count for yours).
    """

    name: str
    kind: ModelKind = ModelKind.DECODER
    num_layers: int = 0
    hidden_size: int = 0
    num_attention_heads: int = 0
    num_kv_heads: int | None = None
    head_dim: int | None = None
    intermediate_size: int = 0
    vocab_size: int = 0
    gated_mlp: bool = True
    tie_word_embeddings: bool = False
    num_decoder_layers: int = 0
    sliding_window: int | None = None
    sliding_window_layers: int | None = None
    moe: MoESpec | None = None
    mla: MLASpec | None = None
    image_size: int = 0
    patch_size: int = 0
    dropout: bool = False
    param_count: int | None = None
    checkpoint_bytes: int | None = None
    checkpoint_prequantized: bool = False
    diffusion: DiffusionSpec | None = None
    vision_encoder_params: int = 0
    image_tokens: int = 0

    def __post_init__(self) -> None:
        if not self.name.strip():
            raise InvalidInput("model.name", "must not be empty")
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
        if self.head_dim is not None:
            _positive("model.head_dim", self.head_dim)
        if self.sliding_window is not None:
            _positive("model.sliding_window", self.sliding_window)
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
        if self.param_count is not None:
            _positive("model.param_count", self.param_count)
        if self.checkpoint_bytes is not None:
            _positive("model.checkpoint_bytes", self.checkpoint_bytes)
        if (self.vision_encoder_params > 0) != (self.image_tokens > 0) or min(
            self.vision_encoder_params, self.image_tokens
        ) < 0:
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

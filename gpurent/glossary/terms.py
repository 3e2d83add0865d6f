"""The glossary (DESIGN §8): the twelve terms it names plus LoRA (linked from the estimator's rank field):
thirteen terms a customer meets while sizing and renting, each at a stable anchor.

Terms are data in code rather than rows so that they are translated with the rest of the shop
(`makemessages` picks up every string) and their anchors never change: `/glossary/#kv-cache`.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

__all__ = ["TERMS", "Term", "term_get"]


@dataclass(frozen=True, slots=True)
class Term:
    """One glossary entry. `slug` is its anchor and never changes once published."""

    slug: str
    name: Promise
    paragraphs: tuple[Promise, ...]
    see_also: tuple[str, ...] = ()

    def related(self) -> tuple[Term, ...]:
        """The entries named in `see_also`."""
        return tuple(_BY_SLUG[slug] for slug in self.see_also)


TERMS: tuple[Term, ...] = (
    Term(
        slug="vram",
        name=_("VRAM (GPU memory)"),
        paragraphs=(
            _(
                "The memory soldered next to the GPU chip. Everything a job touches while it runs on the card "
                "has to fit in it at the same moment: model weights, the KV cache, activations, gradients and "
                "optimizer state, plus a few hundred MiB to a few GiB that the driver and libraries keep for "
                "themselves."
            ),
            _(
                "We always state memory per card. Two cards are not one card with twice the memory: a model "
                "only spreads across cards when the software splits it (see tensor parallelism and FSDP). The "
                "figure on each catalog card is what the driver reports as usable, which is a little less than "
                "the number in the product name."
            ),
        ),
        see_also=("kv-cache", "quantization", "tensor-parallelism"),
    ),
    Term(
        slug="kv-cache",
        name=_("KV cache"),
        paragraphs=(
            _(
                "While a language model generates text it keeps, for every token already seen and for every "
                "layer, the attention keys and values so it does not have to recompute them. That store is the "
                "KV cache, and in serving it is often larger than the weights."
            ),
            _(
                "It grows linearly with context length and with the number of requests served at once, and "
                "shrinks with grouped-query or multi-query attention, sliding-window layers and a lower KV "
                "precision (for example FP8). Doubling the context of 16 concurrent requests doubles the cache."
            ),
        ),
        see_also=("vram", "quantization"),
    ),
    Term(
        slug="quantization",
        name=_("Quantization"),
        paragraphs=(
            _(
                "Storing weights (and sometimes activations or the KV cache) in fewer bits than the 16 of "
                "bf16/fp16: 8-bit, FP8, 4-bit formats such as GPTQ, AWQ, NF4 or MXFP4, and the GGUF types of "
                "llama.cpp."
            ),
            _(
                "A 4-bit model is not exactly a quarter of the 16-bit one: each group of weights carries scales "
                "(and often zero points), embeddings and the output head frequently stay in 16 bits, and "
                "kernels need workspace. Quality can change too, so measure it on your own task."
            ),
        ),
        see_also=("vram", "kv-cache"),
    ),
    Term(
        slug="tensor-parallelism",
        name=_("Tensor parallelism"),
        paragraphs=(
            _(
                "Splitting each layer's weight matrices across several cards so that each card holds and "
                "computes a slice. Weights and the KV cache (by attention heads) are divided between the "
                "cards; every layer then exchanges partial results between them."
            ),
            _(
                "It is how a model too large for one card is served, and it works best over a fast link "
                "between cards in the same machine. The slices must divide evenly: the number of cards usually "
                "has to divide the number of attention heads."
            ),
        ),
        see_also=("ddp", "fsdp", "vram"),
    ),
    Term(
        slug="ddp",
        name=_("DDP (distributed data parallel)"),
        paragraphs=(
            _(
                "PyTorch's way of training on several cards by giving each card a full copy of the model and a "
                "different slice of every batch, then averaging the gradients."
            ),
            _(
                "It speeds training up but does not save memory: every card still needs the whole model, its "
                "gradients and its optimizer state. If a job does not fit on one card, DDP over more cards will "
                "not make it fit."
            ),
        ),
        see_also=("fsdp", "tensor-parallelism"),
    ),
    Term(
        slug="fsdp",
        name=_("FSDP and ZeRO (sharded data parallel)"),
        paragraphs=(
            _(
                "Data-parallel training in which the model states are split across the cards instead of "
                "copied: ZeRO stage 1 shards the optimizer state, stage 2 also the gradients, and stage 3 (and "
                "PyTorch FSDP's full sharding) the parameters as well. Layers are gathered just in time for "
                "their computation."
            ),
            _(
                "Each added card lowers the memory each card needs for model states, but activations are not "
                "sharded: they depend on the batch and sequence length on each card."
            ),
        ),
        see_also=("ddp", "tensor-parallelism", "training-checkpoint"),
    ),
    Term(
        slug="cuda",
        name=_("CUDA"),
        paragraphs=(
            _(
                "NVIDIA's platform for programming its GPUs: the driver, the compiler and libraries such as "
                "cuBLAS and cuDNN that PyTorch, JAX and most inference servers are built on."
            ),
            _(
                "Framework builds are made for a range of CUDA versions; check that the version your code needs "
                "matches the driver on the rented machine. Every process that uses the GPU also reserves some "
                "memory for the CUDA context."
            ),
        ),
        see_also=("rocm", "vram"),
    ),
    Term(
        slug="rocm",
        name=_("ROCm"),
        paragraphs=(
            _(
                "AMD's open platform for programming its GPUs, the counterpart of CUDA. PyTorch ships ROCm "
                "builds, and code written against PyTorch usually runs unchanged; code with hand-written CUDA "
                "kernels does not."
            ),
            _(
                "Before renting an AMD card, check that every library you rely on (attention kernels, "
                "quantization, inference servers) supports ROCm at the version you need."
            ),
        ),
        see_also=("cuda",),
    ),
    Term(
        slug="training-checkpoint",
        name=_("Training checkpoint"),
        paragraphs=(
            _(
                "A saved copy of the state of a training run (weights, optimizer state, learning-rate schedule, "
                "random number generator state and step) from which it can resume after a stop or a failure."
            ),
            _(
                "A checkpoint only counts once it has actually been reloaded and training has continued from it. "
                "Save checkpoints off the rented machine before the term ends: access to it closes then. "
                "Not to be confused with activation (gradient) checkpointing, which trades compute for memory."
            ),
        ),
        see_also=("fixed-rental-term", "fsdp"),
    ),
    Term(
        slug="lora",
        name=_("LoRA (low-rank adaptation)"),
        paragraphs=(
            _(
                "A way to fine-tune a large model by training two small matrices beside each chosen weight matrix "
                "while the original weights stay frozen. The rank sets the size of those matrices: rank 16 on a "
                "4096-wide layer adds about 131,000 trainable numbers instead of 16.8 million."
            ),
            _(
                "Frozen weights need no gradients and no optimizer state, so memory is mostly the weights plus "
                "activations; QLoRA also stores the frozen weights in 4 bits. A higher rank costs little memory; "
                "longer sequences and larger batches cost much more."
            ),
        ),
        see_also=("quantization", "vram"),
    ),
    Term(
        slug="vae",
        name=_("VAE (variational autoencoder)"),
        paragraphs=(
            _(
                "In latent diffusion models such as Stable Diffusion and Flux, the VAE turns the small latent "
                "image the denoiser works on into full-resolution pixels at the very end."
            ),
            _(
                "That decode step often has the highest memory peak of the whole generation, higher than the "
                "denoising loop, and it grows with the number of pixels. Tiled decoding lowers the peak at some "
                "cost in speed."
            ),
        ),
        see_also=("vram",),
    ),
    Term(
        slug="fixed-rental-term",
        name=_("Fixed rental term"),
        paragraphs=(
            _(
                "Rentals are sold for exactly 3, 7 or 30 days. A week is always 7 days and a month always 30 "
                "days; a term lasts its number of days times 24 hours from the moment access becomes ready, "
                "with no calendar arithmetic."
            ),
            _(
                "The paid period runs without pause: stopping or restarting the machine does not pause it and "
                "does not extend it. When the term ends, access is closed and the cards return to stock."
            ),
        ),
        see_also=("training-checkpoint",),
    ),
    Term(
        slug="idempotency-key",
        name=_("Idempotency key"),
        paragraphs=(
            _(
                "A unique value sent with a request that creates or moves something, so that sending the same "
                "request twice, after a double click or a network retry, has the effect of sending it once."
            ),
            _(
                "Our forms add one for you. API clients send it in the Idempotency-Key header: a repeat with the "
                "same key returns the first answer, the same key with a different request is refused, and a "
                "repeat while the first is still running is asked to retry."
            ),
        ),
        see_also=(),
    ),
)

_BY_SLUG = {term.slug: term for term in TERMS}


def term_get(slug: str) -> Term | None:
    """The glossary entry with this anchor, if there is one."""
    return _BY_SLUG.get(slug)

"""The estimator's formula lines in the customer's language (decision 0225; decision 0164 kept them English).

A formula is arithmetic with a few words between the numbers (``8,030,261,248 params: 2 B per parameter =
14.96 GiB``). The engine builds it as one English string (the API's ``formula`` field and the CLI keep it), so
the page translates its words here: each entry below is an English phrase, with ``{name}`` for a value it
carries, and its translation (``pgettext`` context "estimator formula", ``%(name)s`` for the value, so a
language can move the value, as Turkish does). The numbers, the operators, units (B, MiB, GiB), symbols
(h, P, ad, kd, f), dtypes, identifiers (``all_linear``, ``forward_backward``) and product names (LoRA, KV,
GGUF, softmax) are notation and stay as they are, like the byte figures elsewhere on the page.

The quantization notes inside a weights formula are the engine's own texts (``quant.*``), as is the "plus … text-encoder
parameters" of a LoRA with text encoders; they are rendered through :mod:`.engine`, with the translations the
assumptions use.

Replacement is one pass from left to right, longest phrase first at each position, so a translated phrase is
never translated again. ``test_formula_texts`` fails when a formula of any estimator variant keeps an English
word that is neither translated here nor notation.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from django.utils.translation import npgettext_lazy, pgettext_lazy

from gpurent.core.formats import decimal_text
from vramcalc.text import TEMPLATES

from .engine import render

__all__ = ["COUNTED", "PHASES", "PHRASES", "formula_text"]

# English phrase (``{name}``: a value) -> translation (``%(name)s``).
PHRASES: dict[str, Any] = {
    # Whole lines the engine writes without numbers.
    "foreach step: one temporary per trainable parameter": pgettext_lazy(
        "estimator formula", "foreach step: one temporary per trainable parameter"
    ),
    "foreach step: one {b} B temporary per parameter": pgettext_lazy(
        "estimator formula", "foreach step: one %(b)s B temporary per parameter"
    ),
    "per-tensor step: one fp32 temporary of the largest tensor": pgettext_lazy(
        "estimator formula", "per-tensor step: one fp32 temporary of the largest tensor"
    ),
    "one more copy of the gradients": pgettext_lazy("estimator formula", "one more copy of the gradients"),
    "fused step": pgettext_lazy("estimator formula", "fused step"),
    "B of gradients": pgettext_lazy("estimator formula", "B of gradients"),
    "B of layer inputs and logits": pgettext_lazy("estimator formula", "B of layer inputs and logits"),
    "in CUDA managed memory, evicted to host": pgettext_lazy(
        "estimator formula", "in CUDA managed memory, evicted to host"
    ),
    # Fragmentation: "15% x N B allocated and freed during <phase>".
    "B allocated and freed during {phase}": pgettext_lazy(
        "estimator formula", "B allocated and freed during %(phase)s"
    ),
    # Engine 0.3.38: a training step's share of what the allocator holds.
    "B held by the allocator in {phase}": pgettext_lazy("estimator formula", "B held by the allocator in %(phase)s"),
    # Weights.
    "embeddings/LM head, norms and routers {b}-byte": pgettext_lazy(
        "estimator formula", "embeddings/LM head, norms and routers %(b)s-byte"
    ),
    "per parameter": pgettext_lazy("estimator formula", "per parameter"),
    "per card": pgettext_lazy("estimator formula", "per card"),
    "all denoiser parameters": pgettext_lazy("estimator formula", "all denoiser parameters"),
    "all parameters": pgettext_lazy("estimator formula", "all parameters"),
    "all parameters + vision encoder": pgettext_lazy("estimator formula", "all parameters + vision encoder"),
    "vision encoder params": pgettext_lazy("estimator formula", "vision encoder params"),
    "linear params": pgettext_lazy("estimator formula", "linear params"),
    "params": pgettext_lazy("estimator formula", "params"),
    "trainable": pgettext_lazy("estimator formula", "trainable"),
    "offloaded": pgettext_lazy("estimator formula", "offloaded"),
    "linear weights": pgettext_lazy("estimator formula", "linear weights"),
    "{pct}% linear": pgettext_lazy("estimator formula", "%(pct)s%% linear"),
    "on {targets}": pgettext_lazy("estimator formula", "on %(targets)s"),
    "sum": pgettext_lazy("estimator formula", "sum"),
    "of {n} blocks + embedding on the first stage": pgettext_lazy(
        "estimator formula", "of %(n)s blocks + embedding on the first stage"
    ),
    "replicated norms/biases": pgettext_lazy("estimator formula", "replicated norms/biases"),
    # Gradients, optimizer, gathered parameters.
    "largest tensor": pgettext_lazy("estimator formula", "largest tensor"),
    "step in backward": pgettext_lazy("estimator formula", "step in backward"),
    "largest linear": pgettext_lazy("estimator formula", "largest linear"),
    "largest unit": pgettext_lazy("estimator formula", "largest unit"),
    "prefetch": pgettext_lazy("estimator formula", "prefetch"),
    "max live": pgettext_lazy("estimator formula", "max live"),
    "stored bytes": pgettext_lazy("estimator formula", "stored bytes"),
    "1 state": pgettext_lazy("estimator formula", "1 state"),
    "2 states": pgettext_lazy("estimator formula", "2 states"),
    "factored": pgettext_lazy("estimator formula", "factored"),
    "rows + cols": pgettext_lazy("estimator formula", "rows + cols"),
    "per matrix": pgettext_lazy("estimator formula", "per matrix"),
    "paged": pgettext_lazy("estimator formula", "paged"),
    # Activations and logits.
    "layer inputs": pgettext_lazy("estimator formula", "layer inputs"),
    "{n} micro-batch(es) in flight": npgettext_lazy(
        "estimator formula", "%(n)s micro-batch in flight", "%(n)s micro-batches in flight", "n"
    ),
    "one layer recomputed": pgettext_lazy("estimator formula", "one layer recomputed"),
    "embedding output": pgettext_lazy("estimator formula", "embedding output"),
    "block inputs": pgettext_lazy("estimator formula", "block inputs"),
    "one block recomputed": pgettext_lazy("estimator formula", "one block recomputed"),
    "equivalent blocks": pgettext_lazy("estimator formula", "equivalent blocks"),
    "DiT blocks": pgettext_lazy("estimator formula", "DiT blocks"),
    "per token": pgettext_lazy("estimator formula", "per token"),
    "latent tokens / 16 at the deepest level": pgettext_lazy(
        "estimator formula", "latent tokens / 16 at the deepest level"
    ),
    "latent + {n} text tokens at": pgettext_lazy("estimator formula", "latent + %(n)s text tokens at"),
    "scores and softmax": pgettext_lazy("estimator formula", "scores and softmax"),
    "scores": pgettext_lazy("estimator formula", "scores"),
    "heads": pgettext_lazy("estimator formula", "heads"),
    "logits + probs": pgettext_lazy("estimator formula", "logits + probs"),
    "fp32, last token": pgettext_lazy("estimator formula", "fp32, last token"),
    "fp32 upcast": pgettext_lazy("estimator formula", "fp32 upcast"),
    "fp32 grad": pgettext_lazy("estimator formula", "fp32 grad"),
    "B grad": pgettext_lazy("estimator formula", "B grad"),
    "fp32 chunk (1/8 of the vocab rows)": pgettext_lazy("estimator formula", "fp32 chunk (1/8 of the vocab rows)"),
    # Engine 0.3.36: torchtune's chunked loss, compiled.
    "B grad of one chunk (1/8)": pgettext_lazy("estimator formula", "B grad of one chunk (1/8)"),
    # Engine 0.3.28: fp32 logits returned by the model and held by the loop through backward (prime-rl).
    "fp32 logits held through backward": pgettext_lazy("estimator formula", "fp32 logits held through backward"),
    "fp32 log-softmax": pgettext_lazy("estimator formula", "fp32 log-softmax"),
    "fp32 grads": pgettext_lazy("estimator formula", "fp32 grads"),
    # Engine 0.3.27: the logits of every prompt position, beyond what the prefill's logits outlive.
    "prompt tokens": pgettext_lazy("estimator formula", "prompt tokens"),
    # Engine 0.3.30: llama.cpp keeps an untied model's token embedding on the host.
    "token embedding on the host": pgettext_lazy("estimator formula", "token embedding on the host"),
    # Engine 0.3.31: what one card holds of the weights where the token embedding stays on the host.
    "on the card": pgettext_lazy("estimator formula", "on the card"),
    "B prefill working set": pgettext_lazy("estimator formula", "B prefill working set"),
    "B cache grown after the prefill": pgettext_lazy("estimator formula", "B cache grown after the prefill"),
    # Engine 0.3.14: Unsloth's in-place loss, LitGPT's fp32 norm inputs and expanded keys and values, BEiT's bias.
    "their gradient in place": pgettext_lazy("estimator formula", "their gradient in place"),
    "keys, values expanded": pgettext_lazy("estimator formula", "keys, values expanded"),
    "fp32 norms": pgettext_lazy("estimator formula", "fp32 norms"),
    "relative position bias": pgettext_lazy("estimator formula", "relative position bias"),
    # Engine 0.3.15: the 1-byte dropout masks of a model with dropout (BERT, GPT-2), never translated before.
    "masks": pgettext_lazy("estimator formula", "masks"),
    "gathered": pgettext_lazy("estimator formula", "gathered"),
    "vocab": pgettext_lazy("estimator formula", "vocab"),
    "seqs": pgettext_lazy("estimator formula", "seqs"),
    "{n} seqs": npgettext_lazy("estimator formula", "%(n)s seq", "%(n)s seqs", "n"),
    "tokens": pgettext_lazy("estimator formula", "tokens"),
    # KV cache.
    "sliding layers": pgettext_lazy("estimator formula", "sliding layers"),
    "cross-attention layers": pgettext_lazy("estimator formula", "cross-attention layers"),
    "encoder tokens": pgettext_lazy("estimator formula", "encoder tokens"),
    "layers": pgettext_lazy("estimator formula", "layers"),
    "KV heads": pgettext_lazy("estimator formula", "KV heads"),
    "MLA latent": pgettext_lazy("estimator formula", "MLA latent"),
    "B per token-layer": pgettext_lazy("estimator formula", "B per token-layer"),
    # UNet levels (diffusion training).
    "checkpoint inputs": pgettext_lazy("estimator formula", "checkpoint inputs"),
    "recomputed module": pgettext_lazy("estimator formula", "recomputed module"),
    "attention probabilities": pgettext_lazy("estimator formula", "attention probabilities"),
    "score gradients": pgettext_lazy("estimator formula", "score gradients"),
    "saved": pgettext_lazy("estimator formula", "saved"),
    "elements": pgettext_lazy("estimator formula", "elements"),
    "levels": pgettext_lazy("estimator formula", "levels"),
    "per layer": pgettext_lazy("estimator formula", "per layer"),
    # Images (diffusion).
    "{n} image(s)": npgettext_lazy("estimator formula", "%(n)s image", "%(n)s images", "n"),
    "{n} ch": pgettext_lazy("estimator formula", "%(n)s ch"),
    "decode tensor count": pgettext_lazy("estimator formula", "decode tensor count"),
    # Video (diffusion, decision 0223).
    "{n} video(s)": npgettext_lazy("estimator formula", "%(n)s video", "%(n)s videos", "n"),
    "frames per pass": pgettext_lazy("estimator formula", "frames per pass"),
    "frames": pgettext_lazy("estimator formula", "frames"),
}

# The phases the fragmentation line names (``during forward_backward``): the engine's identifiers are the msgids
# (so the English page keeps them); other languages read them as words.
PHASES: dict[str, Any] = {
    "serving": pgettext_lazy("estimator formula", "serving"),
    "text_encode": pgettext_lazy("estimator formula", "text_encode"),
    "denoise": pgettext_lazy("estimator formula", "denoise"),
    "vae_decode": pgettext_lazy("estimator formula", "vae_decode"),
    "vae_encode": pgettext_lazy("estimator formula", "vae_encode"),
    "forward_backward": pgettext_lazy("estimator formula", "forward_backward"),
    "optimizer_step": pgettext_lazy("estimator formula", "optimizer_step"),
}

# Phrases that count (``{n}`` a whole number): ngettext picks the language's plural form for the count.
COUNTED = frozenset({"{n} seqs", "{n} image(s)", "{n} video(s)", "{n} micro-batch(es) in flight"})

# Engine texts (besides the ``quant.*`` notes) that a formula quotes: rendered as records, like the assumptions.
_QUOTED = {"dtrain.plus_text_encoders"}

_VALUE = r"\w(?:[\w.,]*\w)?"


def _pattern(english: str, prefix: str) -> str:
    """The regular expression of one phrase: literal text, ``{name}`` as a value group, whole words only."""
    parts = re.split(r"\{(\w+)\}", english)
    body = "".join(
        re.escape(part) if index % 2 == 0 else f"(?P<{prefix}_{part}>{_VALUE})" for index, part in enumerate(parts)
    )
    head = r"(?<![A-Za-z0-9_-])" if re.match(r"[\w{]", english) else ""
    tail = r"(?![A-Za-z0-9_-])" if re.search(r"[\w}]$", english) else ""
    return f"(?P<{prefix}>{head}{body}{tail})"


@cache
def _compiled() -> tuple[re.Pattern[str], tuple[tuple[str, str, str, Any], ...]]:
    """One alternation of every phrase, longest English first; each entry: (group, kind, English, key or
    translation)."""
    entries: list[tuple[str, str, Any]] = [("phrase", english, translated) for english, translated in PHRASES.items()]
    # The quantization notes the weights formula quotes from the engine (``quant.*``), translated as records.
    entries += [
        ("quant", template, key) for key, template in TEMPLATES.items() if key in _QUOTED or key.startswith("quant.")
    ]
    entries.sort(key=lambda entry: -len(re.sub(r"\{\w+\}", "", entry[1])))
    table = tuple((f"e{index}", kind, english, value) for index, (kind, english, value) in enumerate(entries))
    alternation = "|".join(_pattern(english, f"e{index}") for index, (_kind, english, _value) in enumerate(entries))
    return re.compile(alternation), table


def formula_text(formula: str) -> str:
    """``formula`` (the engine's English) with its words in the active language."""
    pattern, table = _compiled()

    def replace(match: re.Match[str]) -> str:
        for group, kind, english, value in table:
            if match.group(group) is None:
                continue
            values = {
                name.removeprefix(f"{group}_"): text
                for name, text in match.groupdict().items()
                if name.startswith(f"{group}_") and text is not None
            }
            if kind == "quant":
                rendered = render({"key": value, "params": values})
                return match.group(0) if rendered is None else rendered
            if english in COUNTED:  # the language's plural of the count ("1 imagen", "2 imágenes")
                count = int(re.sub(r"\D", "", values["n"]))
                return str(value % {"n": count}).replace(str(count), values["n"], 1)
            if "phase" in values:
                values["phase"] = str(PHASES.get(values["phase"], values["phase"]))
            try:
                return str(value) % values if values else str(value).replace("%%", "%")
            except (KeyError, TypeError, ValueError):
                return match.group(0)
        return match.group(0)

    return _NUMBER.sub(_number_text, pattern.sub(replace, str(formula)))


# A number the engine wrote in English ("8,030,261,248", "14.96"), not part of a name or a version ("bf16", "0.2.3").
_NUMBER = re.compile(r"(?<![\w.,])(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+\.\d+)(?![\w.,]*\d)")


def _number_text(match: re.Match[str]) -> str:
    """The number with the active language's marks, the same decimals, grouped where the engine grouped it
    ("8.030.261.248", "14,96", "1002,00")."""
    number = match.group(1).replace(",", "")
    places = len(number.partition(".")[2])
    return decimal_text(number, places=places, grouping="," in match.group(1))

"""What a guide asks to record in the next measurement, and how the data is handled (location, retention,
access, logs), per workload where it differs. Translated with the rest of the shop; no figures here."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from .enums import GuideWorkload

__all__ = ["DATA_ACCESS", "DATA_LOCATION", "DATA_RETENTION", "LEGAL_NOTE", "LOG_SCOPE", "MEASUREMENTS"]


# What every guide asks to record in the next measurement (DESIGN §8), before the workload's own items.
_PEAK_MEMORY = _("the peak memory per card (nvidia-smi, rocm-smi or torch.cuda.max_memory_reserved())")
_DATA_REFRESH = _("how often the data is refreshed, and how long a refresh takes")
_TRAINING_FAILURES = _("failed and out-of-memory runs, and the step at which each one stopped")

# What to record in the next measurement, per workload: only what that workload has (no tokens on a vision guide).
MEASUREMENTS: dict[GuideWorkload, tuple[Promise, ...]] = {
    GuideWorkload.LLM_SERVING: (
        _("input tokens per request (or per sample), as a distribution, not only the average"),
        _("output tokens per request"),
        _("requests in flight at the same moment (concurrency), at the average and at the peak"),
        _("error rate: failed, timed-out and out-of-memory runs or requests, per thousand"),
        _DATA_REFRESH,
        _PEAK_MEMORY,
    ),
    GuideWorkload.LORA_FINETUNING: (
        _("tokens per training sample, as a distribution, not only the average"),
        _("samples per second at the steady state, after the first steps"),
        _TRAINING_FAILURES,
        _DATA_REFRESH,
        _PEAK_MEMORY,
    ),
    GuideWorkload.FULL_FINETUNING: (
        _("tokens per training sample, as a distribution, not only the average"),
        _("samples per second at the steady state, after the first steps"),
        _("time to write one full checkpoint and to copy it off the machine"),
        _TRAINING_FAILURES,
        _PEAK_MEMORY,
    ),
    GuideWorkload.IMAGE_GENERATION: (
        _("image resolution and images per batch as actually requested"),
        _("requests waiting in the queue, at the average and at the peak"),
        _("error rate: failed, timed-out and out-of-memory runs or requests, per thousand"),
        _("the VAE decode peak, separately from the denoising loop"),
        _PEAK_MEMORY,
    ),
    GuideWorkload.VISION_FINETUNING: (
        _("images per second the data loader delivers, against images per second the GPU processes"),
        _("image resolution and batch size per card"),
        _TRAINING_FAILURES,
        _DATA_REFRESH,
        _PEAK_MEMORY,
    ),
}

# Data location, retention, access authorisation and log scope: the same questions for every guide; the log
# scope depends on what the workload handles.
DATA_LOCATION = _(
    "Location: the data sits on the rented machine's local disks and wherever you copy it. Keep the source of "
    "truth outside the machine."
)
DATA_RETENTION = _(
    "Retention: when the term ends, access to the machine closes and what is left on it is out of your reach; "
    "what you copy off it follows your own retention rules."
)
DATA_ACCESS = _(
    "Access: whoever holds an SSH key installed on the machine, its one-time password or its Jupyter URL can "
    "read everything on it. Decide who in your team holds them, and remove the keys of people who leave."
)
LOG_SCOPE: dict[GuideWorkload, Promise] = {
    GuideWorkload.LLM_SERVING: _(
        "Logs: decide whether prompts and answers are logged, for how long and who reads them; by default log "
        "request counts, token counts and latencies, not the content."
    ),
    GuideWorkload.LORA_FINETUNING: _(
        "Logs: training metrics rarely contain raw data, but samples printed for debugging do; keep those out "
        "of shared dashboards."
    ),
    GuideWorkload.FULL_FINETUNING: _(
        "Logs: training metrics rarely contain raw data, but samples printed for debugging do; keep those out "
        "of shared dashboards."
    ),
    GuideWorkload.IMAGE_GENERATION: _(
        "Logs: prompts and generated images are your users' content; log their identifiers and timings, and "
        "the content only if you need it."
    ),
    GuideWorkload.VISION_FINETUNING: _(
        "Logs: training metrics rarely contain raw data, but images saved for debugging do; keep those out of "
        "shared dashboards."
    ),
}
LEGAL_NOTE = _(
    "Legal requirements (data protection, sector rules, contracts) and security requirements are checked "
    "separately: this page does not check them."
)

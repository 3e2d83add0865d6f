"""Catalog vocabularies."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class Vendor(models.TextChoices):
    """Who makes the card."""

    NVIDIA = "NVIDIA", "NVIDIA"
    AMD = "AMD", "AMD"


class Stack(models.TextChoices):
    """The vendor's GPU programming platform the card runs: CUDA for NVIDIA, ROCm for AMD."""

    CUDA = "CUDA", "CUDA"
    ROCM = "ROCm", "ROCm"


class Term(models.IntegerChoices):
    """The fixed rental terms. A term is exactly `days × 24 h` from the moment access is ready: a week is
    7 days, a month is 30 days, with no calendar arithmetic. Stopping a machine does not pause the term."""

    THREE_DAYS = 3, _("3 days")
    WEEK = 7, _("7 days")
    MONTH = 30, _("30 days")


MIN_LOTS_PER_ORDER = 1
MAX_LOTS_PER_ORDER = 10

"""Estimator errors: the engine's `InvalidInput` as the shop's `invalid_request`, keeping the field."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from gpurent.core.errors import InvalidRequest
from vramcalc import InvalidInput

from .texts.engine_errors import engine_message

__all__ = ["EstimateInputInvalid", "EstimateTooLarge"]


class EstimateInputInvalid(InvalidRequest):
    """Inputs the engine cannot estimate (422 `invalid_request`); `field` is the engine's dotted field."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        super().__init__(f"{field}: {message}")

    @classmethod
    def from_engine(cls, error: InvalidInput) -> EstimateInputInvalid:
        return cls(error.field, engine_message(error.message))


class EstimateTooLarge(InvalidRequest):
    """A peak beyond any card by orders of magnitude: almost always a typo in a size (422)."""

    default_message = _("The estimate is larger than 1 PiB per card: check the batch, sequence and image sizes.")

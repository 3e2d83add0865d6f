"""Errors raised by the estimator engine."""

from __future__ import annotations

__all__ = ["InvalidInput"]


class InvalidInput(ValueError):
    """An input value, or a combination of inputs, that the engine cannot estimate.

    Attributes:
        field: dotted path of the offending input (``"parallel.tensor_parallel"``), so a form
            or an API can attach the message to the right field.
        message: the human-readable reason, without the field name.
    """

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message

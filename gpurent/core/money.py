"""US dollars as integer cents.

`Usd` is the one money type of the shop: an immutable number of cents. It never holds a float and refuses
one; it parses decimal strings exactly and formats for people (`$1,234.50`) and for the API (`"1234.50"`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import ROUND_DOWN, Decimal

__all__ = ["MAX_CENTS", "Usd"]

# ASCII digits only, nothing around them: Decimal() would also take "1e3", " 12 ", "1_000" and "١٢".
_AMOUNT = re.compile(r"-?[0-9]{1,17}(?:\.[0-9]{1,2})?", re.ASCII)
# The largest amount a database BIGINT column holds; anything larger is input error, not money.
MAX_CENTS = 2**63 - 1


@dataclass(frozen=True, order=True, slots=True)
class Usd:
    """An exact amount of US dollars, stored as integer cents (may be negative for ledger arithmetic)."""

    cents: int

    def __post_init__(self) -> None:
        # bool is an int subclass; a float or Decimal here is a bug in a money path, never a rounding choice.
        if type(self.cents) is not int:
            raise TypeError(f"Usd needs integer cents, got {type(self.cents).__name__}")

    @classmethod
    def zero(cls) -> Usd:
        return cls(0)

    @classmethod
    def parse(cls, text: str) -> Usd:
        """Parse a plain decimal string such as "1234.5", "1234.50" or "-3" exactly.

        Only ASCII digits, an optional leading minus and at most two decimals: no exponent ("1e3"), no
        whitespace, sign "+", digit separators or non-ASCII digits.

        Raises:
            ValueError: the text is not such a number, has more than two decimals, or is beyond what a
                BIGINT of cents holds.
        """
        if not isinstance(text, str):
            raise TypeError("Usd.parse takes a string")
        if _AMOUNT.fullmatch(text) is None:
            if re.fullmatch(r"-?[0-9]+\.[0-9]{3,}", text, re.ASCII):
                raise ValueError(f"more than two decimals: {text!r}")
            if re.fullmatch(r"-?[0-9]{18,}(?:\.[0-9]*)?", text, re.ASCII):
                raise ValueError(f"amount out of range: {text!r}")
            raise ValueError(f"not a dollar amount: {text!r}")
        cents = Decimal(text) * 100
        if abs(cents) > MAX_CENTS:
            raise ValueError(f"amount out of range: {text!r}")
        return cls(int(cents))

    @classmethod
    def from_decimal_rounded_down(cls, value: Decimal) -> Usd:
        """Convert a computed dollar value to cents, rounding toward zero (DESIGN §5: create USD rounded down)."""
        if not isinstance(value, Decimal):
            raise TypeError("from_decimal_rounded_down takes a Decimal")
        return cls(int((value * 100).to_integral_value(rounding=ROUND_DOWN)))

    def __add__(self, other: Usd) -> Usd:
        if not isinstance(other, Usd):
            return NotImplemented
        return Usd(self.cents + other.cents)

    def __sub__(self, other: Usd) -> Usd:
        if not isinstance(other, Usd):
            return NotImplemented
        return Usd(self.cents - other.cents)

    def __mul__(self, factor: int) -> Usd:
        if type(factor) is not int:
            return NotImplemented
        return Usd(self.cents * factor)

    __rmul__ = __mul__

    def __neg__(self) -> Usd:
        return Usd(-self.cents)

    def __bool__(self) -> bool:
        return self.cents != 0

    def as_decimal(self) -> Decimal:
        return Decimal(self.cents).scaleb(-2)

    def to_api(self) -> str:
        """The API form: a decimal string with exactly two decimals, e.g. "1234.50"."""
        sign = "-" if self.cents < 0 else ""
        whole, part = divmod(abs(self.cents), 100)
        return f"{sign}{whole}.{part:02d}"

    def display(self) -> str:
        """The human form: "$1,234.50" (or "-$3.00")."""
        sign = "-" if self.cents < 0 else ""
        whole, part = divmod(abs(self.cents), 100)
        return f"{sign}${whole:,}.{part:02d}"

    def display_short(self) -> str:
        """Like `display`, without ".00" on whole dollars: "$1,234" but "$1,234.50"."""
        if self.cents % 100 == 0:
            sign = "-" if self.cents < 0 else ""
            return f"{sign}${abs(self.cents) // 100:,}"
        return self.display()

    def __str__(self) -> str:
        return self.display()

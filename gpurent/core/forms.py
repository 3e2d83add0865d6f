"""Form fields shared by every HTML form of the shop.

`UsdField` is the one money field: it reads the comma or the dot as the decimal mark and grouping in threes
(`formats.amount_input`, decision 0400), then parses by `Usd.parse`, the rule the API uses, so a form and an
endpoint agree on what an amount is ("1e3", non-ASCII digits and padded text are not amounts) and the view gets
exact cents, never a float or a Decimal it has to convert again. The API itself takes only the plain form.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from .formats import AmbiguousAmount, amount_input, decimal_text, usd_text
from .money import Usd

__all__ = ["UsdField"]


class UsdField(forms.Field):
    """A US dollar amount with at most two decimals, cleaned to a `Usd`, between `min_value` and `max_value`."""

    widget = forms.TextInput
    default_error_messages = {
        "invalid": _('Enter a dollar amount with at most two decimals, e.g. "250.00".'),
        "ambiguous": _(
            '"%(amount)s" can be read two ways. For %(whole)s dollars write "%(whole)s" or "%(example)s"; '
            "cents take one or two decimals."
        ),
        # Django's own messages (already in every catalog), with the limit written for the reader: "5,00 US$".
        "min_value": _("Ensure this value is greater than or equal to %(limit_value)s."),
        "max_value": _("Ensure this value is less than or equal to %(limit_value)s."),
    }

    def __init__(self, *, min_value: Usd, max_value: Usd, **kwargs: Any) -> None:
        self.min_value, self.max_value = min_value, max_value
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> Usd | None:
        if value in self.empty_values:
            return None
        if isinstance(value, Usd):
            return value
        try:
            # No strip: " 120" is refused here exactly as the API refuses it.
            return Usd.parse(amount_input(str(value)))
        except AmbiguousAmount as ambiguous:
            whole = Usd.parse(ambiguous.whole)
            params = {"amount": value, "whole": ambiguous.whole, "example": decimal_text(whole.to_api(), places=2)}
            raise forms.ValidationError(self.error_messages["ambiguous"], code="ambiguous", params=params) from None
        except ValueError:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid") from None

    def validate(self, value: Usd | None) -> None:
        super().validate(value)
        # Not Django's Min/MaxValueValidator: they would show the limit as str(Usd), "$5.00" in every language.
        for code, outside, limit in (
            ("min_value", value is not None and value < self.min_value, self.min_value),
            ("max_value", value is not None and value > self.max_value, self.max_value),
        ):
            if outside:
                params = {"limit_value": usd_text(limit)}
                raise forms.ValidationError(self.error_messages[code], code=code, params=params)

    def prepare_value(self, value: Any) -> Any:
        # Written as the reader writes it ("100,00" in Spanish), which `to_python` reads back exactly.
        return decimal_text(value.to_api(), places=2, grouping=False) if isinstance(value, Usd) else value

    def widget_attrs(self, widget: forms.Widget) -> dict[str, Any]:
        # A text input with a decimal keypad: a number input would let the browser submit "1e3" or a locale's
        # "1,5" as it likes; the server's rule is the only one.
        return {**super().widget_attrs(widget), "inputmode": "decimal", "autocomplete": "off"}

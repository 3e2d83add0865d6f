from django import forms
from django.utils.translation import gettext_lazy as _

from .enums import MAX_LOTS_PER_ORDER, MIN_LOTS_PER_ORDER, Term


class QuoteForm(forms.Form):
    """A term and a number of lots, as chosen on a catalog card."""

    term = forms.TypedChoiceField(
        label=_("Term"), choices=Term.choices, coerce=int, initial=Term.WEEK, widget=forms.RadioSelect
    )
    lots = forms.IntegerField(
        label=_("Lots"),
        min_value=MIN_LOTS_PER_ORDER,
        max_value=MAX_LOTS_PER_ORDER,
        initial=1,
        error_messages={
            "min_value": _("Choose at least %(limit_value)s lot."),
            "max_value": _("An order holds at most %(limit_value)s lots."),
            "invalid": _("Enter a whole number of lots."),
            "required": _("Enter a number of lots."),
        },
    )

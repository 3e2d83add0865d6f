"""Fields that English labels apart stay apart in every language: the Turkish run form said "Sonuç" for both the
outcome (a choice) and the conclusion (a text), so a reader could not tell which box was which. (The first-step
and steady-state figures share their labels on purpose: their fieldsets' legends tell them apart.)"""

import pytest
from django.conf import settings
from django.utils import translation

from gpurent.journal.forms import EntryForm, RunForm


def _labels(language: str) -> list[list[str]]:
    with translation.override(language):
        return [
            [str(field.label) for field in form.fields.values()]
            for form in (RunForm(), EntryForm(estimates=[], orders=[]))
        ]


@pytest.mark.parametrize("language", [code for code, _name in settings.LANGUAGES if code != "en"])
def test_journal_form_labels_distinct_in_english_stay_distinct(language):
    for english, translated in zip(_labels("en"), _labels(language), strict=True):
        shared: dict[str, set[str]] = {}
        for source, label in zip(english, translated, strict=True):
            shared.setdefault(label, set()).add(source)
        assert {label: sources for label, sources in shared.items() if len(sources) > 1} == {}

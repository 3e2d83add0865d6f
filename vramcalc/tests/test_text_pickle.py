"""Texts survive pickling (Django's cache pickles guide reports that hold them) with their key and values."""

from __future__ import annotations

import copy
import pickle

from vramcalc.text import Text, joined, text
from vramcalc.texts_en import TEMPLATES


def _any_key_without_placeholders() -> str:
    return next(key for key, template in TEMPLATES.items() if "{" not in template)


def test_a_text_and_a_join_come_back_from_pickle_as_records():
    one = text(_any_key_without_placeholders())
    both = joined(one, one, sep=", ")
    for original in (one, both):
        restored = pickle.loads(pickle.dumps(original))  # noqa: S301 - our own bytes, as the cache does
        assert isinstance(restored, Text)
        assert restored == original
        assert restored.to_dict() == original.to_dict()
    assert copy.deepcopy(both).parts == both.parts


def test_placeholders_are_the_named_fields_of_a_template() -> None:
    from vramcalc.text import placeholders

    assert placeholders("{low} % to {high} % of {cases}") == {"low", "high", "cases"}
    assert placeholders("no fields") == set()

"""Test data that is too large or too specialised to live beside one app's tests: corpora and their generators.

Nothing under `gpurent/` or `vramcalc/` (outside their `tests/` folders) imports from here
(`tests/test_test_data_location.py`); the shipped package holds no test data.

- `redaction_corpus/`: the secret redactor's corpus, its parts and the builders that wrote them
  (docs/redaction.md, "The corpus" and "The held-out independence rules").
"""

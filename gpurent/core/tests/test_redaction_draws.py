"""Misses found by drawing the redaction tests' fake secrets from other seeds (decision 0592): each one a real value
of its kind that the seeds the tests use happened not to draw."""

import base64
import random

import pytest

from gpurent.core.redaction import redact_text
from gpurent.core.redaction.seed_phrases import find_seed_phrases


def redacted(text: str) -> str:
    return redact_text(text, field="logs").text


def test_keys_of_32_random_bytes_on_the_line_after_their_name_are_removed():
    # 666 of 3,000 were kept: padded base64 that starts with a letter and holds no "+" or "/" reads as an empty
    # setting, `NAME=`, on the line after the name
    rng = random.Random(592)  # noqa: S311 (fake secrets, the same in every run)
    keys = [base64.b64encode(rng.randbytes(32)).decode() for _ in range(300)]
    kept = [key for key in keys if key in redacted(f"the private key of the tunnel:\n{key}")]
    assert kept == []


_TUNNEL = "the private key of the tunnel:\n"
_DOCKER = '{{"auths": {{"ghcr.io": {{"auth": "{}"}}}}}}'


@pytest.mark.parametrize(
    ("template", "value"),
    [
        (_TUNNEL + "{}", "Dnxr1YhNga3CcCySEU52c5cDyp2HmQbGnJJnmU1gQBE="),
        (_TUNNEL + "{}", "SZflybAsgkHXCwVZxPNcbhKblCpFqrEMvEZoKLOUYEg="),  # no digit at all
        ("modal token set --token-id {} --token-secret $MODAL_SECRET", "ak-ksuYICfdiJaIeriVYavwuq"),  # no digit
        ("mc alias set lake http://10.0.0.5:9000 {} $MINIO_SECRET_KEY", "cXzWQIMRqNozuxokScsN"),  # letters only
        (_DOCKER, base64.b64encode(b"robot:?b\xfb\xff-8e_Q?\xfc?=").decode()),  # three slashes, no path
    ],
)
def test_a_random_value_without_a_digit_or_with_slashes_is_removed(template, value):
    assert value not in redacted(template.format(value))


def test_a_list_word_that_names_a_phrase_names_nothing_inside_its_own_list():
    # "semilla" ("seed") is a word of the Spanish list: among 14 words of the list it names no phrase
    text = (
        "Lista de vocabulario para el TTS: rosa, buzón, fácil, guapo, gemelo, exento, placa, asunto, luto, golfo,"
        " semilla, cueva, oponer, flúor"
    )
    assert list(find_seed_phrases(text)) == []
    assert redacted(text) == text

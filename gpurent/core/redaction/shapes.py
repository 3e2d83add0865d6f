"""Credentials known by their structure rather than by a prefix or a name next to them (round 8, issue 32).

- An AWS secret access key pasted right after its access key id, with nothing but a separator between them
  (`AKIA… / wJalr…`, `AKIA…:wJalr…`, a CSV row, two quoted strings, the next line) (decision 0389). A 40-character
  string alone says nothing; right after an access key id it is the other half of the pair. It must look like
  one: upper and lower case letters and a digit, `/` or `+`, and exactly 40 characters (a commit hash after a key
  id stays). AWS's documented examples (`…EXAMPLEKEY`) stay (round 9, 0395). Round 10 (decision 0397): the secret
  a few words or lines further on counts too — a list ("- AKIA…" / "- wJalr…"), `aws iam create-access-key
  --output text` (the date between them), "AKIA… + wJalr…", "key id AKIA…, and the secret IAM gave me: wJalr…":
  the first such 40-character string within 200 characters and three line breaks after an access key id.
- The legacy NVIDIA NGC API key: the base64 of 26 lower-case letters and digits, a colon and a UUID (84
  characters), or that text itself; the base64 is decoded to check it (decision 0391).
- An ngrok authtoken: `2`, 26 letters and digits, `_`, a digit and 20 more (trufflehog's ngrok rule), with both
  cases of letters.
- An Azure Container Registry password: 42 base64 characters, `+ACR` and 6 more (trufflehog's rule).
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterator

from .kinds import Kind

__all__ = ["ACR_PASSWORD", "AWS_PAIR", "NGC_KEY", "NGC_KEY_TEXT", "NGROK_AUTHTOKEN", "shape_spans"]

_ID = r"(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}"  # detect-secrets' AWS access key id
# Between the id and the secret: a closing quote, spaces or tabs, one separator (a dash too, as prose puts one:
# `AKIA… — wJalr…`, round 9), one line break, an opening quote.
_BETWEEN = r"[\"'`]?[ \t]*(?:[,:;|/=—–-]|--|->|=>|→)?[ \t]*(?:\r?\n[ \t]*)?[\"'`]?"
AWS_PAIR = re.compile(rf"(?<![A-Za-z0-9]){_ID}{_BETWEEN}(?P<secret>[A-Za-z0-9/+]{{40}})(?![A-Za-z0-9/+=])")
_UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
NGC_KEY = re.compile(r"(?<![A-Za-z0-9+/])[A-Za-z0-9]{84}(?![A-Za-z0-9+/=])")
NGC_KEY_TEXT = re.compile(rf"(?<![A-Za-z0-9_-])[a-z0-9]{{26}}:{_UUID}(?![A-Za-z0-9_-])")
NGROK_AUTHTOKEN = re.compile(r"(?<![A-Za-z0-9_-])2[A-Za-z0-9]{26}_[0-9][A-Za-z0-9]{20}(?![A-Za-z0-9_-])")
ACR_PASSWORD = re.compile(r"\+ACR[A-Za-z0-9]{6}(?![A-Za-z0-9+/=])")
_ACR_HEAD = re.compile(r"[A-Za-z0-9+/]{42}")


def _mixed(value: str, *, digit: bool) -> bool:
    """Upper and lower case letters (and, with `digit`, a digit or `/`/`+`): a random value, not a word or a hash."""
    has_digit = any(char.isdigit() or char in "/+" for char in value)
    return any(char.isupper() for char in value) and any(char.islower() for char in value) and (has_digit or not digit)


_ID_ALONE = re.compile(rf"(?<![A-Za-z0-9]){_ID}(?![A-Za-z0-9])")
_SECRET_SHAPE = re.compile(r"(?<![A-Za-z0-9/+=_.-])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=_-])")
_NEARBY, _NEARBY_LINES = 200, 3


def _aws_pairs(text: str) -> Iterator[tuple[int, int, Kind]]:
    for match in AWS_PAIR.finditer(text):
        if _mixed(match.group("secret"), digit=True) and "EXAMPLE" not in match.group("secret"):
            yield match.start("secret"), match.end("secret"), Kind.AWS_SECRET_KEY
    for key_id in _ID_ALONE.finditer(text):
        window = text[key_id.end() : key_id.end() + _NEARBY]
        for secret in _SECRET_SHAPE.finditer(window):
            if window.count("\n", 0, secret.start()) > _NEARBY_LINES:
                break
            value = secret.group()
            if _mixed(value, digit=True) and "EXAMPLE" not in value:
                yield key_id.end() + secret.start(), key_id.end() + secret.end(), Kind.AWS_SECRET_KEY
                break


def _ngc_id(value: str) -> bool:
    return any(char.isdigit() for char in value) and any(char.isalpha() for char in value)


def _ngc_keys(text: str) -> Iterator[tuple[int, int, Kind]]:
    if ":" in text:
        for match in NGC_KEY_TEXT.finditer(text):
            if _ngc_id(match.group()[:26]):
                yield match.start(), match.end(), Kind.SECRET
    for match in NGC_KEY.finditer(text):
        try:
            decoded = base64.b64decode(match.group(), validate=True).decode("ascii")
        except (binascii.Error, ValueError):
            continue
        if NGC_KEY_TEXT.fullmatch(decoded) and _ngc_id(decoded[:26]):
            yield match.start(), match.end(), Kind.SECRET


def _ngrok_tokens(text: str) -> Iterator[tuple[int, int, Kind]]:
    for match in NGROK_AUTHTOKEN.finditer(text):
        if _mixed(match.group(), digit=False):
            yield match.start(), match.end(), Kind.SECRET


def _acr_passwords(text: str) -> Iterator[tuple[int, int, Kind]]:
    for match in ACR_PASSWORD.finditer(text):
        start = match.start() - 42
        if start < 0 or (start > 0 and (text[start - 1].isalnum() or text[start - 1] in "+/")):
            continue  # shorter than a password, or the tail of a longer run
        if _ACR_HEAD.fullmatch(text, start, match.start()):
            yield start, match.end(), Kind.SECRET


def shape_spans(text: str) -> Iterator[tuple[int, int, Kind]]:
    """(start, end, kind) of each credential above in `text`."""
    yield from _aws_pairs(text)
    yield from _ngc_keys(text)
    yield from _ngrok_tokens(text)
    yield from _acr_passwords(text)

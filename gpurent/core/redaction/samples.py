"""Published sample tokens: JSON Web Tokens signed with a key that a specification or jwt.io prints (round 10,
decision 0399).

jwt.io's debugger opens on a token signed with `your-256-bit-secret` (now `a-string-secret-at-least-256-bits-long`),
and RFC 7515 (A.1) and RFC 7519 (3.1) sign theirs with a key printed in the RFC. Whoever holds such a token holds
nothing secret: anyone can make it, or any other, with the published key; customers paste them from tutorials to
ask why their API rejects them. A token whose HMAC signature checks with one of these keys is left alone, whatever
its claims (a tutorial's edited payload too); any other token is still removed.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import re
from collections.abc import Iterator

__all__ = ["sample_token_spans"]


def _b64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


_PUBLISHED_KEYS = (
    b"your-256-bit-secret",  # jwt.io, HS256 (and its HS384, HS512 forms)
    b"your-384-bit-secret",
    b"your-512-bit-secret",
    b"a-string-secret-at-least-256-bits-long",  # jwt.io since 2024
    # RFC 7515, appendix A.1 (the JWK's "k"), also the key of RFC 7519's example in 3.1
    _b64url("AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow"),
)
_HASHES = {43: hashlib.sha256, 64: hashlib.sha384, 86: hashlib.sha512}  # the signature's length in base64url
_JWT = re.compile(r"(?<![\w-])(eyJ[\w-]{10,4000}\.eyJ[\w-]{2,8000})\.([\w-]{43}|[\w-]{64}|[\w-]{86})(?![\w-])")


def _signed_with_published_key(signing_input: str, signature: str) -> bool:
    try:
        expected = _b64url(signature)
    except (binascii.Error, ValueError):
        return False
    digest = _HASHES[len(signature)]
    return any(
        hmac.compare_digest(hmac.new(key, signing_input.encode(), digest).digest(), expected) for key in _PUBLISHED_KEYS
    )


def sample_token_spans(text: str) -> Iterator[tuple[int, int]]:
    """(start, end) of each JSON Web Token in `text` signed with a published sample key."""
    if "eyJ" not in text:
        return
    for match in _JWT.finditer(text):
        if _signed_with_published_key(match.group(1), match.group(2)):
            yield match.start(), match.end()

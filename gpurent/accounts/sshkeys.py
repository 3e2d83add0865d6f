"""SSH public keys: parsed and checked by `cryptography` (not by hand), fingerprinted like `ssh-keygen -l`.

A key is accepted only if `cryptography` loads it as a public key of a type OpenSSH servers take. Anything
that looks like a private key is refused before parsing, with an error that says so, and is never stored
or logged: the caller gets only the normalised public line and its fingerprint.
"""

from __future__ import annotations

import base64
import hashlib
import re
from dataclasses import dataclass

from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives.serialization import load_ssh_public_key
from django.utils.translation import gettext as _

from gpurent.core.errors import InvalidRequest

__all__ = ["ParsedPublicKey", "public_key_parse"]

MAX_KEY_LENGTH = 16_000  # an RSA-16384 public line is about 2,800 characters
_PRIVATE_MARKERS = ("PRIVATE KEY", "PuTTY-User-Key-File", "ENCRYPTED")
_LINE = re.compile(r"^(?P<type>[a-z0-9@.-]+)\s+(?P<body>[A-Za-z0-9+/=]+)(?:\s+(?P<comment>.*))?$")


@dataclass(frozen=True, slots=True)
class ParsedPublicKey:
    """A checked public key: `line` is "type base64 [comment]" on one line; `fingerprint` is "SHA256:…"."""

    key_type: str
    line: str
    fingerprint: str
    comment: str


def _fingerprint(blob: bytes) -> str:
    # The form ssh-keygen prints: SHA-256 of the key blob, base64 without padding.
    return "SHA256:" + base64.b64encode(hashlib.sha256(blob).digest()).decode().rstrip("=")


def public_key_parse(text: str) -> ParsedPublicKey:
    """Check one OpenSSH public key line (as in `id_ed25519.pub` or `authorized_keys`).

    Raises:
        InvalidRequest: empty, too long, a private key, several lines, or not a valid public key.
    """
    text = text.strip()
    if not text:
        raise InvalidRequest(_("Paste your SSH public key (the contents of a .pub file)."))
    if any(marker in text for marker in _PRIVATE_MARKERS):
        # Refused before anything else touches it; the text is not kept, echoed or logged.
        raise InvalidRequest(
            _(
                "This is a private key. Never share it: paste the public key instead, the one in the .pub file "
                "(for example ~/.ssh/id_ed25519.pub). The private key was not stored."
            )
        )
    if len(text) > MAX_KEY_LENGTH or "\n" in text:
        raise InvalidRequest(_("Paste one public key, on one line."))
    match = _LINE.match(text)
    invalid = _("This is not a valid SSH public key. It starts with ssh-ed25519, ssh-rsa or ecdsa-sha2-….")
    if match is None:
        raise InvalidRequest(invalid)
    key_type, body, comment = match["type"], match["body"], (match["comment"] or "").strip()
    # A comment keeps printable characters only: a GPU host's agent takes key lines that hold no control or
    # line-breaking character (tools/host-agent). DSA keys are refused: OpenSSH no longer accepts them.
    comment = "".join(char for char in comment if char.isprintable())
    if key_type == "ssh-dss":
        raise InvalidRequest(invalid)
    try:
        load_ssh_public_key(f"{key_type} {body}".encode())
        blob = base64.b64decode(body, validate=True)
    except (ValueError, UnsupportedAlgorithm):
        raise InvalidRequest(invalid) from None
    line = f"{key_type} {body} {comment}".strip()
    return ParsedPublicKey(key_type=key_type, line=line, fingerprint=_fingerprint(blob), comment=comment[:100])

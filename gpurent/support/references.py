"""Support request references such as `S-7KQ3-M9XA`, in the alphabet of order references."""

from __future__ import annotations

import secrets

__all__ = ["new_request_ref"]

# Crockford's base32 alphabet: no I, L, O or U, so nothing is mistaken for 1, 0 or V.
ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def new_request_ref() -> str:
    """A random reference (40 bits); uniqueness is enforced by the database, callers retry on a clash."""
    chars = "".join(secrets.choice(ALPHABET) for _ in range(8))
    return f"S-{chars[:4]}-{chars[4:]}"

"""Human order references such as `R-7KQ3-M9XA`: short, unambiguous when read aloud or typed."""

from __future__ import annotations

import secrets

__all__ = ["new_order_ref"]

# Crockford's base32 alphabet: no I, L, O or U, so nothing is mistaken for 1, 0 or V.
ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def new_order_ref() -> str:
    """A random reference (40 bits); uniqueness is enforced by the database, callers retry on a clash."""
    chars = "".join(secrets.choice(ALPHABET) for _ in range(8))
    return f"R-{chars[:4]}-{chars[4:]}"

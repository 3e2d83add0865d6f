"""Human references such as `R-7KQ3-M9XA` (orders), `D-…` (deposits), `S-…` (support requests).

Short and unambiguous when read aloud or typed: Crockford's base32 alphabet has no I, L, O or U.
"""

from __future__ import annotations

import secrets

__all__ = ["ALPHABET", "new_reference"]

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def new_reference(prefix: str) -> str:
    """A random reference with 40 bits of entropy; uniqueness is enforced by the database, callers retry."""
    chars = "".join(secrets.choice(ALPHABET) for _ in range(8))
    return f"{prefix}-{chars[:4]}-{chars[4:]}"

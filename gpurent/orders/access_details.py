"""The access given to a rental as operators see it (QA walk 3, defects 8 and 30): which machine and which account
an operator (or a provisioner) gave: host, port, user, the kind of login, the installed keys' fingerprints, who gave
it and when. Never the secret itself (the one-time password, the Jupyter URL with its token). The provisioning desk,
the access-removal e-mail and the machine-request e-mail show it; `access_correction` changes it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from gpurent.core.admin import with_zone
from gpurent.core.models import AuditLogEntry

from .installed_keys import key_fingerprints
from .models import Order, OrderAccess

__all__ = ["ACCESS_CHANGES", "ACCESS_GIVEN_ACTIONS", "AccessGiven", "access_given", "runs_on_host"]

# The audit actions that give a rental its access; the latest says who gave the access it has now, and when.
ACCESS_GIVEN_ACTIONS = ("provisioning.ready", "provisioning.access_corrected")

# What a correction can change, as its audit row and the customer's e-mail name it.
ACCESS_CHANGES = ("host", "port", "user", "login", "jupyter")


@dataclass(frozen=True, slots=True)
class AccessGiven:
    """What a rental was given, without its secret: `keys` are "name SHA256:…" (the customer's key's name, or
    "other key" for one an operator installed), `login` the kind of login in words."""

    host: str
    port: int
    username: str
    login: str
    keys: tuple[str, ...]
    jupyter: bool
    given_by: str
    given_at: datetime | None
    corrected: bool

    @property
    def ssh_command(self) -> str:
        return f"ssh -p {self.port} {self.username}@{self.host}"

    def lines(self) -> list[str]:
        """The access as an operator's e-mail writes it, one fact a line (English, like the desks)."""
        lines = [f"Machine: {self.host}, port {self.port}, user {self.username} ({self.ssh_command})"]
        lines.append(f"Login: {self.login}")
        if self.keys:
            lines.append("Keys installed: " + "; ".join(self.keys))
        if self.jupyter:
            lines.append("Jupyter: a URL with its token was given (not shown here)")
        verb = "Corrected" if self.corrected else "Given"
        lines.append(f"{verb} by {self.given_by}, {with_zone(self.given_at)}")
        return lines


def _login(access: OrderAccess, keys: Sequence[str], *, password: bool) -> str:
    """The kind of login in words: the keys, and a one-time password where one was given (`password`), with
    whether the customer revealed it; the shop erases an unrevealed one at the term's end."""
    kinds = []
    if keys:
        kinds.append("SSH key" if len(keys) == 1 else f"{len(keys)} SSH keys")
    if access.revealed_at is not None:
        kinds.append(f"one-time password (revealed by the customer {with_zone(access.revealed_at)})")
    elif access.one_time_secret:
        kinds.append("one-time password (not revealed)")
    elif password or not keys:
        kinds.append("one-time password (never revealed, erased at the term's end)")
    return " and ".join(kinds)


def access_given(order: Order) -> AccessGiven | None:
    """The access `order` was given (None before it was): three queries, the access row, the order's keys and the
    latest audit row that gave it (who, when, and whether a password and a Jupyter URL were given: the shop
    erases both at the term's end)."""
    access = OrderAccess.objects.filter(order=order).first()
    if access is None:
        return None
    names = {key.fingerprint: key.name for key in order.ssh_keys.all()}
    fingerprints = key_fingerprints(access.public_key)
    keys = tuple(f"{names.get(fingerprint, 'other key')} {fingerprint}" for fingerprint in fingerprints)
    entry = (
        AuditLogEntry.objects.filter(target_type=Order._meta.label_lower, target_id=str(order.pk))
        .filter(action__in=ACCESS_GIVEN_ACTIONS)
        .order_by("-created_at", "-id")
        .first()
    )
    given = (entry.after if entry is not None else None) or {}
    return AccessGiven(
        host=access.host,
        port=access.port,
        username=access.username,
        login=_login(access, fingerprints, password=bool(given.get("one_time_password"))),
        keys=keys,
        jupyter=bool(access.jupyter_url) or bool(given.get("jupyter")),
        given_by=entry.actor_label if entry is not None else "system",
        given_at=entry.created_at if entry is not None else access.created_at,
        corrected=entry is not None and entry.action == "provisioning.access_corrected",
    )


def runs_on_host(order: Order) -> bool:
    """Whether a GPU host's agent made `order`'s account (its access is the host's: not corrected at the desk)."""
    # The hosts app's row, reached backwards: orders does not import hosts (hosts imports orders).
    rental = getattr(order, "host_rental", None)
    return rental is not None and rental.state == "active"

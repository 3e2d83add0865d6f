"""Operators' work on hosts: register one (its key pinned, its inventory read), check, drain, pin a new key.

Each change writes an audit row and re-counts the model's stock in the same transaction; the SSH calls are
made before it, with no lock held.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone

from gpurent.catalog.selectors import gpu_get
from gpurent.core.audit import audit_record
from gpurent.core.errors import Conflict, InvalidRequest, NotFound
from gpurent.core.notices import notify_operators

from .agent import agent_run, host_first_contact, host_key_fetch
from .enums import HostHealth, RentalState
from .errors import HostError
from .models import GpuHost, HostOperation, HostRental
from .stock import stock_sync

__all__ = ["HostSpec", "host_add", "host_check", "host_drain", "host_repin"]

_NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,62}$")
_USER = re.compile(r"^[a-z_][a-z0-9_-]{0,31}$")
# A host whose cards report a memory this far from the model's is probably registered under the wrong model.
_MEMORY_TOLERANCE = 0.05


@dataclass(frozen=True, slots=True)
class HostSpec:
    """What an operator types to register a host (`manage.py hosts add`, the back office)."""

    name: str
    address: str
    port: int
    user: str
    gpu_slug: str
    gpu_indices: tuple[int, ...]
    fingerprint: str = ""  # when given, the key the host shows must be this one

    def validated(self) -> HostSpec:
        if not _NAME.match(self.name):
            raise InvalidRequest("A host name is lower-case letters, digits and dashes (e.g. gpu-node-1).")
        if not self.address or any(char.isspace() or char in "[]@" for char in self.address):
            raise InvalidRequest("Give the host's address as a name or an IP, without spaces.")
        if not 1 <= self.port <= 65535:
            raise InvalidRequest("The SSH port must be between 1 and 65535.")
        if not _USER.match(self.user):
            raise InvalidRequest("The SSH user is a Unix user name (e.g. root).")
        if not self.gpu_indices or len(set(self.gpu_indices)) != len(self.gpu_indices):
            raise InvalidRequest("List the GPUs to rent out once each, e.g. --gpus 0,1,2,3.")
        if min(self.gpu_indices) < 0:
            raise InvalidRequest("GPU indices are 0 or more.")
        return self


def _inventory_check(spec: HostSpec, memory_mib: int, inventory: dict[str, Any]) -> None:
    cards: dict[int, dict[str, Any]] = {
        int(card["index"]): card for card in inventory.get("gpus", []) if isinstance(card, dict) and "index" in card
    }
    missing = [index for index in spec.gpu_indices if index not in cards]
    if missing:
        raise InvalidRequest(f"The host has no GPU {', '.join(map(str, missing))} (it reports {sorted(cards)}).")
    for index in spec.gpu_indices:
        reported = int(cards[index].get("memory_mib") or 0)
        if abs(reported - memory_mib) > memory_mib * _MEMORY_TOLERANCE:
            raise InvalidRequest(
                f"GPU {index} ({cards[index].get('name')}) has {reported} MiB; the model {spec.gpu_slug} says "
                f"{memory_mib} MiB per card. Is it another model?"
            )


def host_add(spec: HostSpec, *, actor: AbstractBaseUser | None = None) -> GpuHost:
    """Register a host: connect once, pin the host key it shows (only `spec.fingerprint`'s when given), read
    its inventory through the agent on that connection, check the offered GPUs exist and match the model, then
    save it; its free GPUs are in stock from then on.

    Raises:
        InvalidRequest: bad input, a fingerprint that does not match, GPUs the host does not have.
        NotFound: no such GPU model. Conflict: the name is taken.
        HostError: the host could not be reached or its agent refused.
    """
    spec = spec.validated()
    try:
        gpu = gpu_get(spec.gpu_slug, include_off_sale=True)
    except NotFound:
        raise NotFound(f"No GPU model {spec.gpu_slug!r} in the catalog.") from None
    if GpuHost.objects.filter(name=spec.name).exists():
        raise Conflict(f"A host named {spec.name} is already registered.")
    started = timezone.now()
    key, inventory = host_first_contact(spec.address, spec.port, spec.user, fingerprint=spec.fingerprint)
    host = GpuHost(
        name=spec.name,
        address=spec.address,
        port=spec.port,
        user=spec.user,
        gpu=gpu,
        gpu_indices=sorted(spec.gpu_indices),
        host_key=key.line,
        host_key_fingerprint=key.fingerprint,
    )
    _inventory_check(spec, gpu.memory_mib_per_card, inventory)
    try:
        with transaction.atomic():
            host.inventory, host.checked_at = inventory, timezone.now()
            host.save()
            HostOperation.objects.create(
                host=host, operation="inventory", ok=True, exit_code=0, result=inventory, started_at=started
            )
            audit_record(actor=actor, action="hosts.added", target=host, after=_facts(host))
            stock_sync(gpu.pk)
    except IntegrityError:
        raise Conflict(f"A host named {spec.name} is already registered.") from None
    return host


def host_check(host: GpuHost) -> GpuHost:
    """Read the host's inventory again: a host that answers is healthy (back in stock if it was not); one that
    does not is unreachable (out of stock, operators told). An offered GPU it no longer reports leaves stock
    (operators told); a host that booted again has its running rentals' grants made again. Never raises for
    the host's own failures."""
    try:
        inventory = agent_run(host, "inventory")
    except HostError:  # recorded by agent_run; the host's health says what happened
        return host
    booted = host.inventory.get("boot_id"), inventory.get("boot_id")
    reported = {card.get("index") for card in inventory.get("gpus", []) if isinstance(card, dict)}
    with transaction.atomic():
        GpuHost.objects.filter(pk=host.pk).update(inventory=inventory)
        host.inventory = inventory
        if booted[0] and booted[1] != booted[0]:
            # It booted again: its device files were made anew without the rentals' grants; the next round
            # of host work gives every running rental on it its GPUs again (`lifecycle.rental_refresh`).
            HostRental.objects.filter(host=host, state=RentalState.ACTIVE).update(next_attempt_at=timezone.now())
        stock_sync(host.gpu_id)  # offered GPUs it no longer reports leave stock (`stock.free_gpus`)
    missing = sorted(set(host.gpu_indices) - reported)
    if missing:
        notify_operators(HostError(detail=f"{host.name} no longer reports GPU {missing}: out of stock until it does"))
    return host


def host_drain(host: GpuHost, *, drained: bool = True, actor: AbstractBaseUser | None = None) -> GpuHost:
    """Take the host out of placement (its running rentals go on to their end) or put it back."""
    with transaction.atomic():
        before = {"drained": host.drained}
        GpuHost.objects.filter(pk=host.pk).update(drained=drained, updated_at=timezone.now())
        host.drained = drained
        audit_record(
            actor=actor,
            action="hosts.drained" if drained else "hosts.undrained",
            target=host,
            before=before,
            after={"drained": drained},
        )
        stock_sync(host.gpu_id)
    return host


def host_repin(host: GpuHost, fingerprint: str, *, actor: AbstractBaseUser | None = None) -> GpuHost:
    """Pin the key the host shows now, which must be `fingerprint` (read on the host's console with
    `ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub`), then check it; work on the host resumes.

    Raises:
        InvalidRequest: the host shows another key (the old one stays pinned). HostError: it could not be reached.
    """
    key = host_key_fetch(host.address, host.port, host.user, fingerprint=fingerprint)
    with transaction.atomic():
        before = {"fingerprint": host.host_key_fingerprint}
        GpuHost.objects.filter(pk=host.pk).update(
            host_key=key.line, host_key_fingerprint=key.fingerprint, health=HostHealth.UNREACHABLE
        )
        audit_record(
            actor=actor, action="hosts.repinned", target=host, before=before, after={"fingerprint": key.fingerprint}
        )
    host.refresh_from_db()
    return host_check(host)


def _facts(host: GpuHost) -> dict[str, Any]:
    return {
        "address": f"{host.user}@{host.address}:{host.port}",
        "gpu": host.gpu.slug,
        "gpus": host.gpu_indices,
        "fingerprint": host.host_key_fingerprint,
    }

"""What every chain watcher shares: the scan report, the per-network lease and the saved cursor.

A scan never holds a database lock while it talks to a node (DESIGN: no network call inside a lock). Instead a
watcher takes the network's *lease*, a conditional UPDATE on its `ChainCursor` row, for
`CHAIN_WATCH_LEASE_SECONDS`; a second process finds it taken and skips the network, and a killed process's
lease runs out so the next one resumes from the saved cursor. Crediting is idempotent anyway (one payment row
per network, txid and index), so the lease avoids wasted work; it is not what prevents double credits.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Protocol

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from gpurent.payments.models import ChainCursor

from .rpc import JsonRpcClient

__all__ = [
    "ChainWatcher",
    "Lease",
    "LeasedWatcher",
    "ScanReport",
    "cursor_get",
    "cursor_save",
    "rescan_start",
    "tip_save",
]


@dataclass
class ScanReport:
    network: str
    skipped: bool = False
    blocks: int = 0
    transfers: int = 0
    credited: int = 0
    imported: int = 0
    height: int | None = None
    notes: list[str] = field(default_factory=list)


class ChainWatcher(Protocol):
    """Reads one network's node and records what reached the shop's addresses."""

    network: str

    def scan(self, *, now: datetime | None = None) -> ScanReport: ...


class LeasedWatcher:
    """A watcher's `scan`: its `_scan(report)` runs while this process holds the network's lease; a scan that
    finds the lease taken reports `skipped` and reads nothing."""

    network: str

    @classmethod
    def from_url(cls, network: str, url: str) -> LeasedWatcher:
        """The watcher of `network` reading the node at `url` (CHAIN_WATCH_URLS): a JSON-RPC node unless the
        watcher says otherwise."""
        return cls(JsonRpcClient(url))  # type: ignore[call-arg]

    def scan(self, *, now: datetime | None = None) -> ScanReport:
        report = ScanReport(self.network)
        with Lease(self.network, now=now) as held:
            if not held:
                report.skipped = True
                return report
            self._scan(report)
            if report.height is not None:
                tip_save(self.network, tip=report.height, now=now)
        return report

    def _scan(self, report: ScanReport) -> None:
        raise NotImplementedError


def rescan_start(
    network: str, *, tip: int, required: int, block_id_at: Callable[[int], str | None], report: ScanReport
) -> int:
    """The first block a block-reading watcher (Ethereum, Tron) reads: `2 × required` below the tip on its first
    scan; else the block after its cursor, unless the saved block's id changed (`block_id_at(height)`, None for
    no such block): a reorg deeper than the depth, so it reads again from `required` below the saved block."""
    cursor = cursor_get(network)
    if not cursor.block_hash:
        return max(0, tip - 2 * required)
    if block_id_at(cursor.height) == cursor.block_hash:
        return cursor.height + 1
    start = max(0, cursor.height - required)
    report.notes.append(f"saved block {cursor.height} left the chain; rescanning from {start}")
    return start


def cursor_get(network: str) -> ChainCursor:
    cursor, _created = ChainCursor.objects.get_or_create(network=network)
    return cursor


def cursor_save(network: str, *, height: int, block_hash: str) -> None:
    ChainCursor.objects.filter(network=network).update(height=height, block_hash=block_hash, updated_at=timezone.now())


def tip_save(network: str, *, tip: int, now: datetime | None = None) -> None:
    """Record the node's tip that a complete scan saw: `/metrics` reports the lag behind it (decision 0413)."""
    ChainCursor.objects.filter(network=network).update(tip_height=tip, tip_seen_at=now or timezone.now())


class Lease:
    """`with Lease(network) as held:` — `held` is False when another live process is scanning the network."""

    def __init__(self, network: str, *, now: datetime | None = None) -> None:
        self.network = network
        self.owner = f"{socket.gethostname()[:40]}:{os.getpid()}:{id(self):x}"[:64]
        self.now = now or timezone.now()
        self.held = False

    def __enter__(self) -> bool:
        cursor_get(self.network)
        seconds = int(getattr(settings, "CHAIN_WATCH_LEASE_SECONDS", 300))
        free = Q(leased_until__isnull=True) | Q(leased_until__lte=self.now) | Q(lease_owner=self.owner)
        self.held = bool(
            ChainCursor.objects.filter(free, network=self.network).update(
                lease_owner=self.owner, leased_until=self.now + timedelta(seconds=seconds)
            )
        )
        return self.held

    def __exit__(self, *exc_info: object) -> None:
        if self.held:
            ChainCursor.objects.filter(network=self.network, lease_owner=self.owner).update(
                lease_owner="", leased_until=None
            )

"""The configured watchers (`CHAIN_WATCH_URLS`), and one pass over all of them.

No URL for a network: no watcher, and its payments are verified by operators exactly as before.
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.conf import settings
from django_tasks import task

from .base import ChainWatcher, ScanReport
from .bitcoin import BitcoinFamilyWatcher
from .ethereum import EthereumWatcher
from .rpc import HttpApiClient, JsonRpcClient, RpcError
from .solana import SolanaWatcher
from .tron import TronWatcher

__all__ = ["configured_watchers", "watch_chains_once", "watch_chains_task"]

logger = logging.getLogger(__name__)


def configured_watchers() -> list[ChainWatcher]:
    urls: dict[str, str] = settings.CHAIN_WATCH_URLS
    watchers: list[ChainWatcher] = []
    for network, url in urls.items():
        if not url:
            continue
        if network in ("bitcoin", "litecoin"):
            watchers.append(BitcoinFamilyWatcher(network, JsonRpcClient(url)))
        elif network == "ethereum":
            watchers.append(EthereumWatcher(JsonRpcClient(url)))
        elif network == "tron":
            key = getattr(settings, "CHAIN_WATCH_TRON_API_KEY", "")
            watchers.append(TronWatcher(HttpApiClient(url, headers={"TRON-PRO-API-KEY": key} if key else None)))
        elif network == "solana":
            watchers.append(SolanaWatcher(JsonRpcClient(url)))
        else:
            logger.warning("no chain watcher runs for %s: no watcher reads that network", network)
    return watchers


def watch_chains_once(*, now: datetime | None = None) -> list[ScanReport]:
    """Scan every configured network once. A node that is down is reported and skipped; the others go on."""
    reports = []
    for watcher in configured_watchers():
        try:
            reports.append(watcher.scan(now=now))
        except RpcError as error:
            logger.warning("chain watcher %s: %s", watcher.network, error)
            reports.append(ScanReport(watcher.network, skipped=True, notes=[str(error)]))
    return reports


@task()
def watch_chains_task() -> int:
    """One scan of every configured network by the background worker; enqueued by `manage.py sweep`, so it
    runs on the sweep's schedule. Several workers at once are safe (a lease per network)."""
    return sum(report.credited for report in watch_chains_once())

"""The configured watchers (`CHAIN_WATCH_URLS`), and one pass over all of them.

No URL for a network: no watcher, and its payments are verified by operators exactly as before. Which class
reads a network is the network's (`Network.watcher`, a dotted path), built with its `from_url(network, url)`.
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.conf import settings
from django.utils.module_loading import import_string
from django_tasks import task

from gpurent.payments.networks import network_get

from .base import ChainWatcher, ScanReport
from .rpc import RpcError

__all__ = ["configured_watchers", "watch_chains_once", "watch_chains_task"]

logger = logging.getLogger(__name__)


def configured_watchers() -> list[ChainWatcher]:
    urls: dict[str, str] = settings.CHAIN_WATCH_URLS
    watchers: list[ChainWatcher] = []
    for network, url in urls.items():
        if not url:
            continue
        try:
            path = network_get(network).watcher
        except KeyError:
            logger.warning("no chain watcher runs for %s: no watcher reads that network", network)
            continue
        watchers.append(import_string(path).from_url(network, url))
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

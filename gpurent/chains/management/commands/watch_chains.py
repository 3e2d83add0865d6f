"""`python manage.py watch_chains [--once]`: read the configured nodes and confirm payments that reached depth.

It runs until stopped (deploy/systemd/gpurent-watcher.service). A round whose database connection is lost is
logged and the next round reconnects (`gpurent.core.reconnect`); a network whose lease the lost round held is
skipped until the lease runs out (`CHAIN_WATCH_LEASE_SECONDS`). SIGTERM ends it at once (no handler: the
default action); a credit cut short rolls back and is made by a later scan.
"""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.db import close_old_connections

from gpurent.chains.watchers import configured_watchers, watch_chains_once
from gpurent.core.reconnect import DATABASE_LOST, connection_lost


class Command(BaseCommand):
    help = "Scan the chain nodes in CHAIN_WATCH_URLS; payments at their confirmation depth are credited once."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--once", action="store_true", help="scan every network once and exit")

    def handle(self, *args: Any, **options: Any) -> None:
        if not configured_watchers():
            self.stdout.write(
                "No chain node configured (CHAIN_WATCH_<NETWORK>_URL): payments are verified by operators."
            )
            return
        while True:
            try:
                reports = watch_chains_once()
            except DATABASE_LOST as error:
                if options["once"]:
                    raise
                connection_lost(error, "watch_chains")
                reports = []
            for report in reports:
                state = "skipped (another process holds it, or the node is down)" if report.skipped else "scanned"
                self.stdout.write(
                    f"{report.network}: {state}; height {report.height}, {report.transfers} transfers, "
                    f"{report.credited} credited, {report.imported} addresses imported"
                    + "".join(f"; {note}" for note in report.notes)
                )
            self.stdout.flush()
            if options["once"]:
                return
            # As between two requests: the next round's first query checks the connection, so one that dies
            # while this sleeps is replaced, not used.
            close_old_connections()
            time.sleep(settings.CHAIN_WATCH_INTERVAL_SECONDS)

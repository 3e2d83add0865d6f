"""`python manage.py watch_chains [--once]`: read the configured nodes and confirm payments that reached depth."""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from gpurent.chains.watchers import configured_watchers, watch_chains_once


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
            for report in watch_chains_once():
                state = "skipped (another process holds it, or the node is down)" if report.skipped else "scanned"
                self.stdout.write(
                    f"{report.network}: {state}; height {report.height}, {report.transfers} transfers, "
                    f"{report.credited} credited, {report.imported} addresses imported"
                    + "".join(f"; {note}" for note in report.notes)
                )
            if options["once"]:
                return
            time.sleep(settings.CHAIN_WATCH_INTERVAL_SECONDS)

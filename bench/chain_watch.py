"""Benchmark: the Litecoin watcher's scan on a real regtest node, addresses watched × blocks scanned per second.

    .venv/bin/python bench/chain_watch.py [--addresses 10,100,1000] [--blocks 20] [--repeat 3]

Starts `litecoind -regtest` (as the tests do: free ports, throwaway datadir) and a scratch SQLite database.
For each size it registers a fresh account key, derives and imports that many addresses, pays ten of them in
`--blocks` new blocks, then times full scans of those blocks from a cursor rewound before them (median of
`--repeat`). The baseline, measured in the same run, is the same scan with one watched address; each size is
reported as its time divided by the baseline's, and as (addresses × blocks) per second.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--addresses", default="10,100,1000")
    parser.add_argument("--blocks", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    scratch = tempfile.TemporaryDirectory()
    os.environ["DATABASE_URL"] = f"sqlite:///{scratch.name}/bench.sqlite3"
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings.test"
    import django

    django.setup()
    from bip_utils import Bip32KeyNetVersions, Bip32Secp256k1
    from django.conf import settings
    from django.core.management import call_command
    from django.db import transaction

    from gpurent.chains.bitcoin import BitcoinFamilyWatcher
    from gpurent.chains.tests.nodes import LitecoinRegtest
    from gpurent.payments.intents.allocation import _derived_take, extended_key_register
    from gpurent.payments.models import ChainCursor, DerivedAddress, ExtendedPublicKey

    call_command("migrate", verbosity=0)
    settings.PAYMENTS_SEGWIT_HRP = {"litecoin": "rltc"}
    tpub = Bip32KeyNetVersions(bytes.fromhex("043587cf"), bytes.fromhex("04358394"))
    node = LitecoinRegtest()
    try:
        watcher = BitcoinFamilyWatcher("litecoin", node.client("watch"))
        rows = []
        for size in [1, *[int(n) for n in args.addresses.split(",")]]:
            ExtendedPublicKey.objects.filter(network="litecoin").update(active=False)
            DerivedAddress.objects.all().delete()
            key = Bip32Secp256k1.FromSeed(os.urandom(32), tpub).DerivePath("m/84'/1'/0'")
            extended_key_register(network="litecoin", key=key.PublicKey().ToExtended())
            with transaction.atomic():
                addresses = [_derived_take("litecoin").address for _ in range(size)]  # type: ignore[union-attr]
            watcher.scan()  # imports the addresses
            start_hash = node.call("getbestblockhash")
            start_height = int(node.call("getblockcount"))
            for block in range(args.blocks):
                if block < 10:
                    node.send(addresses[block % len(addresses)], Decimal("0.01"))
                node.mine(1)
            timings = []
            for attempt in range(args.repeat + 1):  # the first is a warm-up, not timed
                ChainCursor.objects.filter(network="litecoin").update(block_hash=start_hash, height=start_height)
                began = time.perf_counter()
                report = watcher.scan()
                if attempt:
                    timings.append(time.perf_counter() - began)
                assert report.transfers >= min(10, args.blocks), report
            rows.append((size, statistics.median(timings)))
    finally:
        node.stop()
    baseline = rows[0][1]
    print(
        f"litecoind regtest, {args.blocks} blocks per scan (10 with a payment to a watched address), "
        f"median of {args.repeat}"
    )
    print(f"{'addresses':>10} {'scan s':>8} {'× baseline':>11} {'blocks/s':>9} {'addr×blocks/s':>14}")
    for size, seconds in rows:
        print(
            f"{size:>10} {seconds:>8.3f} {seconds / baseline:>11.2f} {args.blocks / seconds:>9.0f}"
            f" {size * args.blocks / seconds:>14.0f}"
        )


if __name__ == "__main__":
    main()

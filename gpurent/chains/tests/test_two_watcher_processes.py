"""Two `manage.py watch_chains` processes at once against Litecoin Core regtest, on PostgreSQL: every payment is
credited exactly once and neither process reports an error, with the lease (one scans, the other skips) and
without it (a zero-second lease: both scan the same blocks at the same time; there the node may refuse one
process's concurrent address import, a warning after which that scan is skipped and the next one imports)."""

import os
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

import pytest
from django.db import connection

from gpurent.core.money import Usd
from gpurent.ledger.selectors import balance_for, ledger_check
from gpurent.orders.enums import PaymentStatus
from gpurent.payments.intents.lifecycle import intent_issue_for_deposit, intent_issue_for_order
from gpurent.payments.models import ChainObservation, DerivedAddress, Payment, PaymentIntent
from gpurent.payments.services import deposit_create

from .nodes import RPC_PASSWORD, RPC_USER
from .test_litecoin_node import ltc, ltc_amount  # noqa: F401 (the fixture and a helper)

pytestmark = [pytest.mark.chain_node, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[3]
RESCANNING = " chain watcher litecoin: importmulti: Wallet is currently rescanning. Abort existing rescan or wait.\n"
CONFIRMATIONS = 6  # the LTC pair's default: the subprocesses read settings from the environment only


def database_url() -> str:
    db = connection.settings_dict
    credentials = quote(db["USER"] or "", safe="") + (f":{quote(db['PASSWORD'], safe='')}" if db["PASSWORD"] else "")
    return f"postgres://{credentials}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def start_watcher(node, lease_seconds: int, log_dir: Path, name: str) -> tuple[subprocess.Popen, Path, Path]:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "DATABASE_URL": database_url(),
        "CHAIN_WATCH_LITECOIN_URL": f"http://{RPC_USER}:{RPC_PASSWORD}@127.0.0.1:{node.rpc_port}/wallet/watch",
        "PAYMENTS_SEGWIT_HRP_LITECOIN": "rltc",
        "CHAIN_WATCH_INTERVAL_SECONDS": "0",
        "CHAIN_WATCH_LEASE_SECONDS": str(lease_seconds),
        "LOG_LEVEL": "WARNING",
    }
    out, err = log_dir / f"{name}.out", log_dir / f"{name}.err"
    process = subprocess.Popen(
        [sys.executable, "manage.py", "watch_chains"],
        cwd=ROOT,
        env=env,
        stdout=out.open("w"),
        stderr=err.open("w"),
    )
    return process, out, err


def wait_for(condition, processes, what: str) -> None:
    """Poll the database until `condition()` holds; fail at once if a watcher process died."""
    for _attempt in range(3000):
        for process in processes:
            assert process.poll() is None, f"a watcher exited with {process.returncode} while waiting for {what}"
        if condition():
            return
        time.sleep(0.1)
    pytest.fail(f"the watchers never got to: {what}")


@pytest.mark.parametrize("lease_seconds", [300, 0], ids=["with-lease", "both-scan-at-once"])
def test_two_watcher_processes_credit_every_payment_exactly_once(ltc, order, customer, tmp_path, lease_seconds):  # noqa: F811
    if connection.vendor != "postgresql":
        pytest.skip("two watcher processes need a database both can reach: run with DATABASE_URL=postgres://…")
    order_intent = intent_issue_for_order(order=order, owner=customer, asset="LTC", network="litecoin")
    top_ups = [
        intent_issue_for_deposit(
            deposit=deposit_create(owner=customer, amount=Usd(cents)), owner=customer, asset="LTC", network="litecoin"
        )
        for cents in (2_000, 3_500)
    ]
    watchers = [start_watcher(ltc, lease_seconds, tmp_path, name) for name in ("first", "second")]
    processes = [process for process, _out, _err in watchers]
    try:
        addresses = {order_intent.address, *(intent.address for intent in top_ups)}
        wait_for(
            lambda: DerivedAddress.objects.filter(address__in=addresses, imported_at__isnull=False).count() == 3,
            processes,
            "import the three addresses",
        )
        half = order_intent.amount_units // 2
        sent = [
            ltc.send(order_intent.address, ltc_amount(half)),
            ltc.send(order_intent.address, ltc_amount(order_intent.amount_units - half)),
            *(ltc.send(intent.address, ltc_amount(intent.amount_units)) for intent in top_ups),
        ]
        ltc.mine(1)
        wait_for(
            lambda: ChainObservation.objects.filter(txid__in=sent, confirmations__gte=1).count() == 4,
            processes,
            "see the four transactions at one confirmation",
        )
        ltc.mine(CONFIRMATIONS - 1)
        wait_for(lambda: Payment.objects.filter(txid__in=sent).count() == 4, processes, "credit the four payments")
        # Let both go on scanning the same blocks for a while: nothing more may happen.
        scans = [out.read_text().count("litecoin:") for _process, out, _err in watchers]
        wait_for(
            lambda: all(
                out.read_text().count("litecoin:") >= before + 5
                for before, (_process, out, _err) in zip(scans, watchers, strict=True)
            ),
            processes,
            "scan five more times each",
        )
    finally:
        for process in processes:
            process.terminate()
            process.wait()
    outputs = [(out.read_text(), err.read_text()) for _process, out, err in watchers]
    for stdout, stderr in outputs:
        if lease_seconds == 0:
            # Without the lease both may import the new addresses at once; the node refuses the second import
            # while the first one rescans, that scan is skipped with this warning and the next one imports. The
            # only message allowed; with the lease (the real set-up) none at all.
            # Log lines start with a time, the level and the logger (decision 0412’s text format).
            stderr = "".join(line for line in stderr.splitlines(keepends=True) if not line.endswith(RESCANNING))
        assert stderr == "", stderr
        assert "unreachable" not in stdout, stdout
        assert "Error" not in stdout, stdout
    if lease_seconds == 0:
        assert all("litecoin: scanned" in stdout for stdout, _stderr in outputs)
    payments = Payment.objects.filter(txid__in=sent)
    assert sorted(payment.txid for payment in payments) == sorted(sent)  # one row per transaction
    assert {payment.state for payment in payments} == {"credited"}
    assert ChainObservation.objects.filter(txid__in=sent).count() == 4
    order.refresh_from_db()
    assert order.payment_status == PaymentStatus.PAID
    assert {intent.status for intent in PaymentIntent.objects.filter(pk__in=[i.pk for i in top_ups])} == {"confirmed"}
    assert balance_for(customer).cents == 2_000 + 3_500  # the order's payment spent on it; the top-ups once each
    assert ledger_check() == []

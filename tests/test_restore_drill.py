"""The restore drill (issue 28): a backup restores into a fresh database that is the same shop.

A small history is written and committed (a deposit credited from a received payment, an order paid from the
balance, another paid and refunded, a withdrawal sent, a second customer), `scripts/backup.sh` dumps the test
database with pg_dump, `scripts/restore.sh` restores the dump into a new database, and there `manage.py
ledger_check` passes with the same counts and each customer's balance statement (the CSV they download) is the
same, byte for byte. The restored copy also takes new writes (its id sequences came back) and still refuses to
change a ledger row (its append-only triggers came back). deploy/backup.md is the procedure this follows.

PostgreSQL only (pg_dump and pg_restore are PostgreSQL's tools): skipped on SQLite with the reason, run by
`make test-postgres`; there, with CI=true, missing client tools fail the test instead of skipping it.
"""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

import pytest
from django.core.management import call_command
from django.db import DatabaseError, connection, transaction
from django.test import Client
from django.urls import reverse

from gpurent.core.money import Usd
from gpurent.ledger.models import LedgerEntry
from gpurent.ledger.services import EXTERNAL_CRYPTO, customer_account, system_account, transfer_post
from gpurent.orders.provisioning import provision_fail, provision_start
from gpurent.orders.services import Contact, order_place
from gpurent.payments.intents.lifecycle import intent_issue_for_deposit
from gpurent.payments.payouts import payout_mark_sent, payout_request
from gpurent.payments.received.receive import payment_receive
from gpurent.payments.services import deposit_create, order_pay_from_balance

# Real commits: pg_dump reads from its own connection and sees only committed rows.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("usdt_on_tron")]

ROOT = Path(__file__).resolve().parents[1]
TRON = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"
TOOLS = ("pg_dump", "pg_restore", "psql", "age", "age-keygen")


def _url(name: str) -> str:
    """A libpq URL for database `name` on the test database's server, as its user."""
    db = connection.settings_dict
    password = f":{quote(db['PASSWORD'], safe='')}" if db.get("PASSWORD") else ""
    return f"postgres://{quote(db['USER'], safe='')}{password}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{name}"


def _run(*argv: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(  # a guard against a hung tool, not a speed limit
        argv, cwd=ROOT, env={**os.environ, **env}, capture_output=True, text=True, timeout=300
    )


@contextmanager
def _connected_to(name: str) -> Iterator[None]:
    """This thread's queries (views through the test client included) go to database `name` meanwhile."""
    original = connection.settings_dict["NAME"]
    connection.close()
    connection.settings_dict["NAME"] = name
    try:
        yield
    finally:
        connection.close()
        connection.settings_dict["NAME"] = original


@pytest.fixture
def restored_name() -> Iterator[str]:
    """The name of the fresh database to restore into (dropped before and after: nothing of it outlives the test)."""
    if connection.vendor != "postgresql":
        if os.environ.get("CI") == "true" and os.environ.get("DATABASE_URL", "").startswith("postgres"):
            pytest.fail(f"CI=true and DATABASE_URL names PostgreSQL, but the tests run on {connection.vendor}")
        pytest.skip("the restore drill needs PostgreSQL (pg_dump, pg_restore): make test-postgres runs it")
    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    if missing:
        reason = f"{', '.join(missing)} not found (apt-get install postgresql-client age)"
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true on PostgreSQL but {reason}")
        pytest.skip(reason)
    name = f"{connection.settings_dict['NAME']}_restored"
    drop = f"DROP DATABASE IF EXISTS {connection.ops.quote_name(name)} WITH (FORCE)"
    with connection.cursor() as cursor:
        cursor.execute(drop)
    yield name
    with connection.cursor() as cursor:
        cursor.execute(drop)


def _customer(django_user_model, email: str, first: str):
    return django_user_model.objects.create_user(email, "passphrase 12", first_name=first, last_name="Drill")


def _place(owner, gpu, term_days: int):
    contact = Contact(owner.first_name, owner.last_name, owner.email)
    return order_place(
        owner=owner, gpu_slug=gpu.slug, term_days=term_days, lots=1, environment="ubuntu", contact=contact
    )


def _shop_history(django_user_model, gpu) -> list:
    """Two customers' money, through the services a real shop runs; returns the customers."""
    alice = _customer(django_user_model, "alice@example.com", "Alice")
    # A $500 top-up in USDT on Tron, credited when the payment arrives.
    deposit = deposit_create(owner=alice, amount=Usd(50_000))
    intent = intent_issue_for_deposit(deposit=deposit, owner=alice, asset="USDT", network="tron")
    payment_receive(intent_id=intent.pk, txid="ab" * 32, amount_units=intent.amount_units, source="operator")
    # A rental paid from the balance ($95), and another ($205) paid, then not provided: refunded.
    order_pay_from_balance(order=_place(alice, gpu, 3), owner=alice)
    failed = provision_start(order=order_pay_from_balance(order=_place(alice, gpu, 7), owner=alice), actor=None)
    provision_fail(order=failed, actor=None, reason="no GPU free on the host")
    # A $50 withdrawal, sent ($49 after the $1 fee).
    payout = payout_request(owner=alice, asset="USDT", network="tron", address=TRON, amount=Usd(5_000))
    payout_mark_sent(payout_id=payout.pk, txid="cd" * 32, sent_units=49_000_000, actor=None)
    bob = _customer(django_user_model, "bob@example.com", "Bob")
    transfer_post(
        reference="deposit:D-BOB",
        debit=system_account(EXTERNAL_CRYPTO),
        credit=customer_account(bob),
        amount=Usd(9_500),
    )
    order_pay_from_balance(order=_place(bob, gpu, 3), owner=bob)
    _place(bob, gpu, 30)  # left unpaid
    return [alice, bob]


def _statement(user) -> bytes:
    """The balance statement the customer downloads (`/balance/summary.csv`), as the bytes they get."""
    client = Client()
    client.force_login(user)
    response = client.get(reverse("payments:balance_csv"))
    assert response.status_code == 200
    return response.getvalue()  # streamed or not, the bytes the customer gets


def _ledger_check_here() -> str:
    out = io.StringIO()
    call_command("ledger_check", stdout=out)
    return out.getvalue()


def test_backup_restores_into_a_fresh_database_with_the_same_ledger_and_statements(
    django_user_model, gpu, settings, tmp_path, restored_name
):
    settings.PAYOUTS_MIN_CENTS, settings.PAYOUTS_FEE_CENTS = 2_000, 100
    customers = _shop_history(django_user_model, gpu)
    statements = [_statement(customer) for customer in customers]
    references = statements[0].decode()
    assert all(f"{kind}:" in references for kind in ("deposit", "order", "refund", "payout")), references
    checked = _ledger_check_here()
    assert checked.startswith("ledger_check: OK (")

    # Given an earlier dump older than the retention and a file that is not a dump,
    backups = tmp_path / "backups"
    backups.mkdir()
    (old := backups / "gpurent-20200101T000000Z.dump.age").write_bytes(b"an old dump")
    (notes := backups / "notes.txt").write_text("not a dump")
    past = time.time() - 30 * 86_400
    os.utime(old, (past, past))
    os.utime(notes, (past, past))
    # when backup.sh dumps the database, plain and then encrypted to an age key,
    database_url = _url(connection.settings_dict["NAME"])
    plain = _run("bash", "scripts/backup.sh", database_url, BACKUP_DIR=str(backups))
    assert plain.returncode == 0, plain.stderr
    key = tmp_path / "backup-key.txt"
    assert _run("age-keygen", "-o", str(key)).returncode == 0
    (recipients := tmp_path / "recipients.txt").write_text(_run("age-keygen", "-y", str(key)).stdout)
    encrypted = _run(
        "bash", "scripts/backup.sh", database_url, BACKUP_DIR=str(backups), BACKUP_AGE_RECIPIENTS=str(recipients)
    )
    assert encrypted.returncode == 0, encrypted.stderr
    # then each is there under its UTC time, the old dump is gone, anything else stays, and only the owner reads them;
    dump, sealed = Path(plain.stdout.strip()), Path(encrypted.stdout.strip())
    assert re.fullmatch(r"gpurent-\d{8}T\d{6}Z\.dump", dump.name), dump.name
    assert sealed.name.endswith(".dump.age")
    assert sorted(path.name for path in backups.iterdir()) == sorted([dump.name, sealed.name, "notes.txt"])
    assert dump.read_bytes().startswith(b"PGDMP")  # pg_dump's custom format
    assert not sealed.read_bytes().startswith(b"PGDMP")
    assert all(path.stat().st_mode & 0o077 == 0 for path in (dump, sealed))

    # and the encrypted one restores, with the private key, into a database that did not exist.
    restored = _run("bash", "scripts/restore.sh", str(sealed), _url(restored_name), AGE_IDENTITY=str(key))
    assert restored.returncode == 0, restored.stderr
    # A second restore into the same (now full) database is refused: restore.sh never overwrites a database.
    again = _run("bash", "scripts/restore.sh", str(dump), _url(restored_name))
    assert again.returncode == 1
    assert "not empty" in again.stderr

    with _connected_to(restored_name):
        # The operator's check on the restored copy (deploy/backup.md): no violation, the same counts.
        assert _ledger_check_here() == checked
        assert [_statement(customer) for customer in customers] == statements
        # The restored sequences continue after the restored rows, and the ledger is still append-only.
        transfer_post(
            reference="deposit:D-AFTER",
            debit=system_account(EXTERNAL_CRYPTO),
            credit=customer_account(customers[1]),
            amount=Usd(100),
        )
        after = _ledger_check_here()
        assert after != checked
        assert after.startswith("ledger_check: OK (")
        with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("UPDATE ledger_ledgerentry SET amount_cents = amount_cents + 1")
        amounts = LedgerEntry.objects.filter(transfer__reference="deposit:D-AFTER").values_list(
            "amount_cents", flat=True
        )
        assert sorted(amounts) == [100, 100]

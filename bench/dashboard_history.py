"""A year of made-up shop history, for the dashboard's benchmark (decision 0417).

    history_generate(orders=100_000, ledger_lines=1_000_000, now=timezone.now(), seed=28) -> dict of row counts

Writes the rows the shop's services leave behind, in time order: customers and their ledger accounts; rentals
placed over the year (more towards its end, fewer at weekends), each with its status changes, paid (a payment on
one of the eight pairs, its deposit, the `deposit:` and `order:` transfers), provisioned, ended or failed
(`refund:`), expired or cancelled; a few extensions; top-ups and withdrawals (`payout:`, `payout-sent:`,
`payout-fee:`, `payout-returned:`) until the ledger holds about `ledger_lines` entries. Customer balances are
replayed in order, so `ledger_check()` finds nothing wrong. Stock is then set so that each model's fleet is a
little above its busiest moment.

Rows are tuples written in batches with PostgreSQL's COPY (INSERT … executemany on SQLite), ids given here and
the sequences moved past them at the end: model instances and `bulk_create` cost ten times more, and 3 × 10^6
rows must load in minutes. Only for an empty scratch database (the benchmark makes one): it is no way to load
data into a real shop.
"""

from __future__ import annotations

import heapq
import json
import math
import random
import uuid
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any

from django.core.management.color import no_style
from django.db import connection, models, transaction
from django.db.models import Max

from gpurent.accounts.models import User
from gpurent.catalog.models import GpuModel
from gpurent.core.money import Usd
from gpurent.ledger.models import AccountKind, LedgerAccount, LedgerEntry, LedgerTransfer
from gpurent.ledger.services import (
    EXTERNAL_CRYPTO,
    REVENUE_PAYOUT_FEES,
    REVENUE_RENTALS,
    SUSPENSE_PAYOUTS,
    system_account,
)
from gpurent.orders.history_notes import CANCELLED_BY_CUSTOMER, COULD_NOT_BE_PROVIDED, DEADLINE_PASSED, TERM_ENDED
from gpurent.orders.models import Order, OrderStatusChange
from gpurent.payments.assets import PAIRS, Pair, quote_units, usd_value
from gpurent.payments.models import Deposit, Payment, PaymentIntent, Payout

BATCH = 20_000
RATES = {"BTC": "97000", "ETH": "3500", "USDT": "1", "USDC": "1", "SOL": "150", "TRX": "0.25", "LTC": "80"}
PAIR_WEIGHTS = {"USDT/tron": 35, "USDT/ethereum": 15, "USDC/ethereum": 12, "BTC/bitcoin": 15, "ETH/ethereum": 8}
TERM_WEIGHTS = {3: 40, 7: 35, 30: 25}
MINUTE = timedelta(minutes=1)
UNUSABLE = "!"  # a password no one can log in with (Django's unusable-password prefix)


class Table:
    """Rows of one model, given as tuples of `columns` (field names); every other column takes its field's
    default, computed once. Written in batches of `BATCH`; `next_id()` hands out primary keys after the last one."""

    def __init__(self, model: type[models.Model], columns: Sequence[str]) -> None:
        self.model, self.rows = model, []  # type: list[tuple[Any, ...]]
        fields = {field.name: field for field in model._meta.concrete_fields}
        rest = [field for name, field in fields.items() if name not in columns]
        self.fields = [fields[name] for name in columns] + rest
        self.defaults = tuple(field.get_default() for field in rest)
        self.written = 0
        integer_key = isinstance(model._meta.pk, models.AutoField | models.BigAutoField)
        self.last_id = (model._default_manager.aggregate(last=Max("pk"))["last"] or 0) if integer_key else 0
        if connection.vendor == "postgresql":
            self.convert: list[Callable[[Any], Any]] = [
                _json if isinstance(field, models.JSONField) else _same for field in self.fields
            ]
        else:
            self.convert = [lambda value, f=field: f.get_db_prep_save(value, connection) for field in self.fields]

    def next_id(self) -> int:
        self.last_id += 1
        return self.last_id

    def add(self, *row: Any) -> None:
        self.rows.append(row + self.defaults)
        if len(self.rows) >= BATCH:
            self.flush()

    def flush(self) -> None:
        if not self.rows:
            return
        table = connection.ops.quote_name(self.model._meta.db_table)
        columns = ", ".join(connection.ops.quote_name(field.column) for field in self.fields)
        converted = [tuple(f(value) for f, value in zip(self.convert, row, strict=True)) for row in self.rows]
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                with cursor.cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
                    for row in converted:
                        copy.write_row(row)
            else:
                marks = ", ".join(["%s"] * len(self.fields))
                # Names from the model's metadata, quoted; values as parameters.
                insert = f"INSERT INTO {table} ({columns}) VALUES ({marks})"  # noqa: S608
                cursor.executemany(insert, converted)
        self.written += len(self.rows)
        self.rows = []


def _same(value: Any) -> Any:
    return value


def _json(value: Any) -> Any:
    return json.dumps(value)


class Story:
    """The random choices of one history (seeded: the same seed writes the same history)."""

    def __init__(self, seed: int, now: datetime, days: int = 365) -> None:
        self.rng = random.Random(seed)  # noqa: S311 (a reproducible story, no secret)
        self.now, self.start = now, now - timedelta(days=days)
        self.pairs = list(PAIRS)
        self.pair_weights = [PAIR_WEIGHTS.get(pair.key, 4) for pair in PAIRS]

    def moment(self) -> datetime:
        """A moment of the year: business grows through it (density rising 1 → 3) and is lower at weekends."""
        while True:
            u = self.rng.random()
            at = self.start + (self.now - self.start) * ((math.sqrt(1 + 8 * u) - 1) / 2)
            if at.weekday() < 5 or self.rng.random() < 0.6:
                return at

    def delay(self, median_minutes: float, sigma: float = 0.9) -> timedelta:
        return timedelta(minutes=median_minutes * math.exp(self.rng.gauss(0, sigma)))

    def pair(self) -> Pair:
        return self.rng.choices(self.pairs, weights=self.pair_weights)[0]


class History:
    """One history being written: the tables, the accounts, the references and the ledger's replay in time order
    (each customer's running balance; a withdrawal takes what the balance holds when it is asked for)."""

    def __init__(self, story: Story, accounts: dict[int, int], system: dict[str, int], gpus: list[GpuModel]) -> None:
        self.story, self.rng = story, story.rng
        self.accounts, self.system, self.system_ids = accounts, system, set(system.values())
        self.gpus = {gpu.pk: gpu for gpu in gpus}
        self.owners = list(accounts)
        self.owner_weights = list(_cumulative([1 / (n + 1) ** 0.7 for n in range(len(self.owners))]))
        self.counter = 0
        self.queue: list[tuple[datetime, int, tuple[Any, ...]]] = []
        self.seq = 0
        self.balances: dict[int, int] = {}
        self.rentals: list[tuple[int, int, datetime, datetime]] = []  # (GPU model, cards, from, to): the stock
        self.holding: dict[int, int] = {}  # lots held now, per GPU model
        self.orders = Table(Order, _ORDER_COLUMNS)
        self.changes = Table(
            OrderStatusChange, ["id", "order", "track", "from_status", "to_status", "created_at", "reason"]
        )
        self.deposits = Table(
            Deposit,
            ["id", "ref", "owner", "kind", "status", "requested_cents", "credited_cents", "created_at", "credited_at"],
        )
        self.intents = Table(PaymentIntent, _INTENT_COLUMNS)
        self.payments = Table(Payment, _PAYMENT_COLUMNS)
        self.payouts = Table(Payout, _PAYOUT_COLUMNS)
        self.transfers = Table(
            LedgerTransfer, ["id", "reference", "amount_cents", "debit_account", "credit_account", "memo", "created_at"]
        )
        self.entries = Table(
            LedgerEntry, ["id", "transfer", "account", "direction", "amount_cents", "balance_after_cents", "created_at"]
        )

    def ref(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}-{self.counter // 10_000:04d}-{self.counter % 10_000:04d}"

    def owner(self) -> int:
        """A customer (user id): a few rent a lot, most rarely."""
        return self.rng.choices(self.owners, cum_weights=self.owner_weights)[0]

    def post(self, at: datetime, *event: Any) -> None:
        """Queue an event of the replay: ("move", reference, debit, credit, cents, memo), ("payout", owner, cents)."""
        self.seq += 1
        heapq.heappush(self.queue, (at, self.seq, event))

    def move(self, at: datetime, reference: str, debit: int, credit: int, cents: int, memo: str) -> None:
        """One transfer and its two entries, with the customers' balances after it."""
        transfer = self.transfers.next_id()
        self.transfers.add(transfer, reference, cents, debit, credit, memo[:200], at)
        for account, direction, sign in ((debit, "debit", -1), (credit, "credit", 1)):
            after = None
            if account not in self.system_ids:
                after = self.balances[account] = self.balances.get(account, 0) + sign * cents
                assert after >= 0, reference
            self.entries.add(self.entries.next_id(), transfer, account, direction, cents, after, at)

    def payment(self, owner: int, at: datetime, usd_cents: int, order: int | None = None) -> None:
        """A payment of `usd_cents` on a random pair, confirmed at `at`, for order id `order` (a top-up without one):
        its deposit, intent and payment rows, and its `deposit:` transfer queued."""
        pair, issued = self.story.pair(), at - self.story.delay(8)
        rate = Decimal(RATES[pair.asset])
        units = quote_units(Usd(usd_cents), rate, pair)
        credited = usd_value(units, rate, pair).cents
        deposit, ref = self.deposits.next_id(), self.ref("D")
        kind = "order_payment" if order is not None else "top_up"
        requested = usd_cents if order is None else None
        self.deposits.add(deposit, ref, owner, kind, "credited", requested, credited, issued, at)
        intent = uuid.UUID(int=self.rng.getrandbits(128), version=4)
        self.intents.add(
            intent, owner, order, None if order is not None else deposit, pair.asset, pair.network, units, rate,
            usd_cents, f"{pair.network}-address-{self.counter}", issued, issued + 30 * MINUTE, "confirmed", at,
        )  # fmt: skip
        txid = f"{self.rng.getrandbits(256):064x}"
        self.payments.add(
            self.payments.next_id(), pair.network, txid, 0, intent, units, "chain", "credited", rate, True,
            credited, deposit, {}, at, at,
        )  # fmt: skip
        memo = f"{pair.asset} on {pair.network}, {pair.network}:{txid}:0"
        self.post(at, "move", f"deposit:{ref}", self.system[EXTERNAL_CRYPTO], self.accounts[owner], credited, memo)

    def tables(self) -> list[Table]:
        return [self.orders, self.changes, self.deposits, self.intents, self.payments, self.transfers, self.entries]


def _cumulative(values: list[float]) -> list[float]:
    total, out = 0.0, []
    for value in values:
        total += value
        out.append(total)
    return out


_ORDER_COLUMNS = [
    "id", "ref", "owner", "gpu", "term_days", "lots", "cards", "environment", "lot_price_cents", "total_cents",
    "contact_first_name", "contact_last_name", "contact_email", "payment_status", "provisioning_status",
    "reserved_until", "paid_at", "term_starts_at", "term_ends_at", "extends", "created_at", "updated_at",
]  # fmt: skip
_INTENT_COLUMNS = [
    "id", "owner", "order", "deposit", "asset", "network", "amount_units", "rate_usd", "usd_cents", "address",
    "created_at", "expires_at", "status", "verified_at",
]  # fmt: skip
_PAYMENT_COLUMNS = [
    "id", "network", "txid", "output_index", "intent", "amount_units", "source", "state", "rate_usd",
    "at_locked_rate", "credited_cents", "deposit", "evidence", "received_at", "credited_at",
]  # fmt: skip
_PAYOUT_COLUMNS = [
    "id", "ref", "owner", "asset", "network", "address", "amount_cents", "fee_cents", "status", "txid",
    "sent_units", "reason", "created_at", "decided_at",
]  # fmt: skip


def _rental(history: History, placed: datetime, weights: list[float]) -> None:
    """One rental placed at `placed`, taken as far as its luck and the clock allow."""
    story, rng, now = history.story, history.rng, history.story.now
    owner = history.owner()
    gpu = rng.choices(list(history.gpus.values()), weights=weights)[0]
    term = rng.choices(list(TERM_WEIGHTS), weights=list(TERM_WEIGHTS.values()))[0]
    lots = rng.choices((1, 2, 3, 4), weights=(60, 25, 10, 5))[0]
    price = getattr(gpu, f"price_{term}d_cents")
    order, ref, total = history.orders.next_id(), history.ref("R"), price * lots
    deadline = placed + timedelta(hours=24)
    payment_status, provisioning_status = "awaiting_payment", "not_started"
    paid_at = term_starts = term_ends = None
    steps = [("payment", "", "awaiting_payment", placed, ""), ("provisioning", "", "not_started", placed, "")]
    paid, holds = placed + story.delay(20, 1.1), True
    customer, revenue = history.accounts[owner], history.system[REVENUE_RENTALS]
    if rng.random() < 0.78 and paid < min(now, deadline):
        payment_status, paid_at = "paid", paid
        steps.append(("payment", "awaiting_payment", "paid", paid, ""))
        history.payment(owner, paid - timedelta(seconds=1), total, order)
        history.post(paid, "move", f"order:{ref}", customer, revenue, total, f"{lots} × {gpu.name}, {term} days")
        started = paid + story.delay(3, 0.5)
        done = started + story.delay(30)
        if started < now:
            provisioning_status = "preparing"
            steps.append(("provisioning", "not_started", "preparing", started, ""))
        if started < now and done < now and rng.random() < 0.03:
            provisioning_status, holds = "failed", False
            steps.append(("provisioning", "preparing", "failed", done, COULD_NOT_BE_PROVIDED))
            history.post(done, "move", f"refund:{ref}", revenue, customer, total, "refund: no machine")
        elif started < now and done < now:
            provisioning_status, term_starts, term_ends = "ready", done, done + timedelta(days=term)
            steps.append(("provisioning", "preparing", "ready", done, ""))
            asked = done + timedelta(days=term * 0.6)
            if rng.random() < 0.05 and asked + 30 * MINUTE < now:
                extra = rng.choice((3, 7))
                _extension(history, owner, gpu, lots, order, extra, asked, asked + story.delay(10, 0.5))
                term_ends += timedelta(days=extra)
            history.rentals.append((gpu.pk, lots * gpu.cards_per_lot, done, min(term_ends, now)))
            if term_ends <= now:
                provisioning_status, holds = "ended", False
                steps.append(("provisioning", "ready", "ended", term_ends, TERM_ENDED))
    elif deadline <= now:
        holds = False
        if rng.random() < 0.9:
            payment_status = "expired"
            steps.append(("payment", "awaiting_payment", "expired", deadline, DEADLINE_PASSED))
        else:
            payment_status = "cancelled"
            cancelled = placed + min(story.delay(90), timedelta(hours=23))
            steps.append(("payment", "awaiting_payment", "cancelled", cancelled, CANCELLED_BY_CUSTOMER))
    if holds:
        history.holding[gpu.pk] = history.holding.get(gpu.pk, 0) + lots
    history.orders.add(
        order, ref, owner, gpu.pk, term, lots, lots * gpu.cards_per_lot, rng.choice(("ubuntu", "pytorch", "blender")),
        price, total, "Customer", str(owner), f"customer-{owner}@history.example", payment_status,
        provisioning_status, deadline, paid_at, term_starts, term_ends, None, placed, max(step[3] for step in steps),
    )  # fmt: skip
    for track, before, after, at, reason in steps:
        history.changes.add(history.changes.next_id(), order, track, before, after, at, reason)


def _extension(
    history: History, owner: int, gpu: GpuModel, lots: int, rental: int, term: int, placed: datetime, paid: datetime
) -> None:
    """An extension of `rental` by `term` days, placed and paid while it runs (it reserves nothing)."""
    price = getattr(gpu, f"price_{term}d_cents")
    order, ref, total = history.orders.next_id(), history.ref("R"), price * lots
    history.orders.add(
        order, ref, owner, gpu.pk, term, lots, lots * gpu.cards_per_lot, "ubuntu", price, total, "Customer",
        str(owner), f"customer-{owner}@history.example", "paid", "not_started", placed + timedelta(hours=1), paid,
        None, None, rental, placed, paid,
    )  # fmt: skip
    for track, before, after, at in [
        ("payment", "", "awaiting_payment", placed),
        ("provisioning", "", "not_started", placed),
        ("payment", "awaiting_payment", "paid", paid),
    ]:
        history.changes.add(history.changes.next_id(), order, track, before, after, at, "")
    history.payment(owner, paid - timedelta(seconds=1), total, order)
    memo = f"{lots} × {gpu.name}, {term} days"
    history.post(paid, "move", f"order:{ref}", history.accounts[owner], history.system[REVENUE_RENTALS], total, memo)


def _payout(history: History, at: datetime, owner: int, planned: int) -> None:
    """A withdrawal asked for at `at`: as much of `planned` as the balance then holds (nothing under the minimum);
    sent (or, rarely, rejected) some hours later, unless that is still to come."""
    rng, account = history.rng, history.accounts[owner]
    fee, balance = 100, history.balances.get(account, 0)
    if balance < 2_000:
        return
    amount, ref, pair = min(planned, balance), history.ref("P"), history.story.pair()
    suspense = history.system[SUSPENSE_PAYOUTS]
    history.move(at, f"payout:{ref}", account, suspense, amount, f"withdrawal to {pair.network}")
    decided = at + history.story.delay(240)
    status, txid, sent, reason, decided_at = "requested", "", None, "", None
    if decided < history.story.now and rng.random() < 0.04:
        status, reason, decided_at = "rejected", "address not ours", decided
        history.post(decided, "move", f"payout-returned:{ref}", suspense, account, amount, "returned")
    elif decided < history.story.now:
        status, txid, decided_at = "sent", f"{rng.getrandbits(256):064x}", decided
        sent = quote_units(Usd(amount - fee), Decimal(RATES[pair.asset]), pair)
        history.post(
            decided, "move", f"payout-sent:{ref}", suspense, history.system[EXTERNAL_CRYPTO], amount - fee, "sent"
        )
        history.post(decided, "move", f"payout-fee:{ref}", suspense, history.system[REVENUE_PAYOUT_FEES], fee, "fee")
    history.payouts.add(
        history.payouts.next_id(), ref, owner, pair.asset, pair.network, f"{pair.network}-payout-{ref}", amount, fee,
        status, txid, sent, reason, at, decided_at,
    )  # fmt: skip


def _stock(history: History) -> None:
    """Each model's fleet a little above its busiest moment of the year: free stock = fleet − lots held now."""
    for gpu in history.gpus.values():
        moments = sorted(
            (moment, cards if n == 0 else -cards)
            for gpu_id, cards, *span in history.rentals
            if gpu_id == gpu.pk
            for n, moment in enumerate(span)
        )
        peak = running = 0
        for _, change in moments:
            running += change
            peak = max(peak, running)
        fleet = math.ceil(peak * 1.15 / gpu.cards_per_lot) + 1
        GpuModel.objects.filter(pk=gpu.pk).update(stock_lots=max(fleet - history.holding.get(gpu.pk, 0), 0))


def history_generate(*, orders: int, ledger_lines: int, now: datetime, seed: int = 28) -> dict[str, int]:
    """Write the history (see the module's docstring) and return how many rows of each kind it wrote."""
    story = Story(seed, now)
    gpus = list(GpuModel.objects.order_by("position", "name"))
    assert gpus, "load the demo catalog first (manage.py load_demo)"
    codes = (EXTERNAL_CRYPTO, REVENUE_RENTALS, SUSPENSE_PAYOUTS, REVENUE_PAYOUT_FEES)
    system = {code: system_account(code).pk for code in codes}
    with transaction.atomic():
        users = Table(User, ["id", "email", "first_name", "last_name", "password", "date_joined"])
        accounts = Table(LedgerAccount, ["id", "code", "kind", "customer", "created_at"])
        owned: dict[int, int] = {}
        for _ in range(max(10, orders // 20)):
            user, account = users.next_id(), accounts.next_id()
            users.add(user, f"customer-{user}@history.example", "Customer", str(user), UNUSABLE, story.start)
            accounts.add(account, f"customer:{user}", AccountKind.CUSTOMER, user, story.start)
            owned[user] = account
        users.flush()
        accounts.flush()
        history = History(story, owned, system, gpus)
        weights = [1 / math.sqrt(gpu.price_7d_cents) for gpu in gpus]  # cheaper cards rent more often
        # Rentals and top-ups in the order they happen, as a shop writes them: rows (and ids) follow time, so a
        # range of dates is a range of pages, as it is in a real database.
        top_ups = max(0, (ledger_lines // 2 - orders * 8 // 5) * 3 // 5)  # a rental makes ~1.6 transfers
        moments = sorted(
            [(story.moment(), True) for _ in range(orders)] + [(story.moment(), False) for _ in range(top_ups)]
        )
        for at, rental in moments:
            if rental:
                _rental(history, at, weights)
            else:
                history.payment(history.owner(), at, history.rng.choice((2_000, 5_000, 10_000, 20_000, 50_000)))
        # Withdrawals fill the ledger up to `ledger_lines`: one asked for moves ~2.9 transfers (asked, sent, fee).
        for _ in range(max(0, ledger_lines // 2 - history.seq) * 10 // 27):
            history.post(story.moment(), "payout", history.owner(), history.rng.choice((2_500, 5_000, 10_000, 25_000)))
        while history.queue:
            at, _, event = heapq.heappop(history.queue)
            if event[0] == "move":
                history.move(at, *event[1:])
            else:
                _payout(history, at, *event[1:])
        for table in [*history.tables(), history.payouts]:
            table.flush()
        with connection.cursor() as cursor:
            cursor.executemany(
                "UPDATE ledger_ledgeraccount SET balance_cents = %s WHERE id = %s",
                [
                    (balance, account)
                    for account, balance in history.balances.items()
                    if account not in history.system_ids
                ],
            )
            models_written = [
                User,
                LedgerAccount,
                Order,
                OrderStatusChange,
                Deposit,
                Payment,
                Payout,
                LedgerTransfer,
                LedgerEntry,
            ]
            for sql in connection.ops.sequence_reset_sql(no_style(), models_written):
                cursor.execute(sql)
        _stock(history)
    counts = {"customers": users.written, **{t.model._meta.verbose_name_plural: t.written for t in history.tables()}}
    return {str(name): count for name, count in {**counts, "withdrawals": history.payouts.written}.items()}

"""`manage.py watch_chains` and the configured watchers: no node, a node that is down, a network no watcher
reads, and the loop's pause between rounds."""

from __future__ import annotations

import io
import logging
import socket

import pytest
from django.core.management import call_command
from django.db import OperationalError, connection

from gpurent.chains.base import Lease
from gpurent.chains.bitcoin import BitcoinFamilyWatcher
from gpurent.chains.watchers import configured_watchers, watch_chains_once, watch_chains_task
from gpurent.payments.models import ChainCursor

pytestmark = pytest.mark.django_db


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_watch_chains_without_a_configured_node_says_operators_verify(settings):
    settings.CHAIN_WATCH_URLS = {}
    out = io.StringIO()
    call_command("watch_chains", "--once", stdout=out)
    assert out.getvalue() == (
        "No chain node configured (CHAIN_WATCH_<NETWORK>_URL): payments are verified by operators.\n"
    )


def test_configured_watchers_skip_empty_urls_and_networks_no_watcher_reads(settings, caplog):
    settings.CHAIN_WATCH_URLS = {"bitcoin": "http://127.0.0.1:1", "litecoin": "", "dogecoin": "http://127.0.0.1:2"}
    with caplog.at_level(logging.WARNING, logger="gpurent.chains.watchers"):
        watchers = configured_watchers()
    assert [(type(w), w.network) for w in watchers] == [(BitcoinFamilyWatcher, "bitcoin")]
    assert "no chain watcher runs for dogecoin: no watcher reads that network" in caplog.text


def test_watch_chains_once_reports_a_node_that_is_down_and_frees_its_lease(settings, caplog):
    port = closed_port()
    settings.CHAIN_WATCH_URLS = {"litecoin": f"http://watcher:secret@127.0.0.1:{port}"}
    with caplog.at_level(logging.WARNING, logger="gpurent.chains.watchers"):
        (report,) = watch_chains_once()
    note = f"127.0.0.1:{port} unreachable for getblockcount: URLError"
    assert (report.network, report.skipped, report.notes, report.credited) == ("litecoin", True, [note], 0)
    assert f"chain watcher litecoin: {note}" in caplog.text
    assert "secret" not in caplog.text
    # The failed round released the network's lease: the next round is not kept waiting for it.
    cursor = ChainCursor.objects.get(network="litecoin")
    assert (cursor.lease_owner, cursor.leased_until, cursor.tip_height) == ("", None, None)
    assert watch_chains_task.call() == 0


def test_watch_chains_once_prints_one_line_per_network(settings):
    port = closed_port()
    settings.CHAIN_WATCH_URLS = {"bitcoin": f"http://127.0.0.1:{port}"}
    out = io.StringIO()
    call_command("watch_chains", "--once", stdout=out)
    assert out.getvalue() == (
        "bitcoin: skipped (another process holds it, or the node is down); height None, 0 transfers, "
        f"0 credited, 0 addresses imported; 127.0.0.1:{port} unreachable for getblockcount: URLError\n"
    )


# Between rounds the loop closes its connection (as between two requests), which would end a test's transaction.
@pytest.mark.django_db(transaction=True)
def test_watch_chains_loop_waits_the_configured_interval_between_rounds(settings, monkeypatch):
    settings.CHAIN_WATCH_URLS = {"bitcoin": f"http://127.0.0.1:{closed_port()}"}
    settings.CHAIN_WATCH_INTERVAL_SECONDS = 17
    pauses: list[float] = []

    class Stop(Exception):
        pass

    def sleep(seconds: float) -> None:
        pauses.append(seconds)
        if len(pauses) == 2:
            raise Stop

    monkeypatch.setattr("time.sleep", sleep)
    out = io.StringIO()
    with pytest.raises(Stop):
        call_command("watch_chains", stdout=out)
    assert pauses == [17, 17]
    assert out.getvalue().count("bitcoin: skipped") == 2


def test_a_network_whose_lease_another_process_holds_is_skipped_without_reading_the_node(settings):
    settings.CHAIN_WATCH_URLS = {"litecoin": f"http://127.0.0.1:{closed_port()}"}
    with Lease("litecoin") as held:
        assert held
        (report,) = watch_chains_once()
    # Skipped before any call: a node that is down would have added a note.
    assert (report.network, report.skipped, report.notes, report.height) == ("litecoin", True, [], None)
    assert ChainCursor.objects.get(network="litecoin").tip_height is None


def cut_first_query(cut: list[bool]):
    """A `connection.execute_wrapper` that fails the first query as a database restart would, then lets queries
    through."""

    def wrapper(execute, sql, params, many, context):
        if cut:
            cut.clear()
            raise OperationalError("server closed the connection unexpectedly\n\tThis probably means the server died")
        return execute(sql, params, many, context)

    return wrapper


@pytest.mark.django_db(transaction=True)
def test_watch_chains_loop_reconnects_after_a_round_that_lost_the_database(settings, monkeypatch, caplog):
    settings.CHAIN_WATCH_URLS = {"bitcoin": f"http://127.0.0.1:{closed_port()}"}
    rounds: list[float] = []

    class Stop(Exception):
        pass

    def sleep(seconds: float) -> None:
        rounds.append(seconds)
        if len(rounds) == 2:
            raise Stop

    monkeypatch.setattr("time.sleep", sleep)
    out = io.StringIO()
    with (
        caplog.at_level(logging.WARNING, logger="gpurent.core.reconnect"),
        connection.execute_wrapper(cut_first_query([True])),
        pytest.raises(Stop),
    ):
        call_command("watch_chains", stdout=out)
    assert [r.getMessage() for r in caplog.records if r.name == "gpurent.core.reconnect"] == [
        "watch_chains: the database connection failed (OperationalError: server closed the connection "
        "unexpectedly); reconnecting"
    ]
    # The lost round printed nothing; the next one scanned as usual.
    assert out.getvalue().count("bitcoin: skipped") == 1


def test_watch_chains_once_lets_a_lost_database_fail_the_command(settings):
    settings.CHAIN_WATCH_URLS = {"bitcoin": f"http://127.0.0.1:{closed_port()}"}
    with connection.execute_wrapper(cut_first_query([True])), pytest.raises(OperationalError):
        call_command("watch_chains", "--once", stdout=io.StringIO())

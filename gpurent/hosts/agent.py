"""The shop's side of the host agent (tools/host-agent): one SSH session per operation, to the host key pinned at
registration, with the shop's one identity (`HOSTS_SSH_KEY_FILE`). The agent is the only thing that key can
run on a host (a forced command); the operation and its arguments travel as the SSH command, which the agent
parses itself, and customers' public keys on standard input.

`agent_run` is what the rest of the app calls: it records every call as a `HostOperation` (arguments, never
keys), moves the host's health (an unreachable host or a changed key leaves stock at once and is told to
operators), and raises a `HostError` when the call did not succeed. It must never run under a database lock.
"""

from __future__ import annotations

import base64
import hashlib
import json
import logging
import shlex
import time
from dataclasses import dataclass
from typing import Any

import paramiko
from django.conf import settings
from django.utils import timezone

from gpurent.core.errors import InvalidRequest
from gpurent.core.notices import notify_operators

from .enums import HostHealth
from .errors import AgentFailed, HostError, HostKeyChanged, HostUnreachable, ShopKeyMissing
from .models import GpuHost, HostOperation, HostRental
from .stock import stock_sync

__all__ = ["HostKey", "agent_call", "agent_run", "host_first_contact", "host_key_fetch", "shop_key_problem"]

logger = logging.getLogger(__name__)

_MAX_ANSWER_BYTES = 1_000_000


@dataclass(frozen=True, slots=True)
class HostKey:
    """A host's public SSH key as "type base64", and its SHA256 fingerprint as `ssh-keygen -l` prints it."""

    line: str
    fingerprint: str

    @classmethod
    def of(cls, key: paramiko.PKey) -> HostKey:
        blob = key.asbytes()
        digest = base64.b64encode(hashlib.sha256(blob).digest()).decode().rstrip("=")
        return cls(f"{key.get_name()} {base64.b64encode(blob).decode()}", f"SHA256:{digest}")


def _known_name(address: str, port: int) -> str:
    return address if port == 22 else f"[{address}]:{port}"


_SETUP = "docs/hosts.md, “1. The shop's SSH identity”"


def _identity() -> paramiko.PKey:
    """The shop's one SSH identity. Read before any connection is opened: without it no host is contacted.

    Raises:
        ShopKeyMissing: `HOSTS_SSH_KEY_FILE` is not set, or its file cannot be read as a private key.
    """
    path = settings.HOSTS_SSH_KEY_FILE
    if not path:
        raise ShopKeyMissing(
            detail="HOSTS_SSH_KEY_FILE is not set in the shop's settings (its environment file): create the "
            f"shop's key, set it for the web, worker and sweep services and restart them ({_SETUP})."
        )
    try:
        return paramiko.PKey.from_path(path)
    except (OSError, paramiko.SSHException, ValueError) as error:
        # The path is the operator's setting; the key itself is never part of a message.
        raise ShopKeyMissing(
            detail=f"the shop's SSH key {path} (HOSTS_SSH_KEY_FILE, in the shop's settings) cannot be read: "
            f"{type(error).__name__}. Check that the file exists and that the shop's user can read it ({_SETUP})."
        ) from None


def shop_key_problem() -> str | None:
    """Why the shop cannot reach any host with its SSH identity (the back office's banner), or None: it can."""
    try:
        _identity()
    except ShopKeyMissing as error:
        return error.detail
    return None


class _Remember(paramiko.MissingHostKeyPolicy):
    """Registration only: accept the key the host shows (only `expected`, a fingerprint, when given) and
    remember it; it is pinned from then on. A key that is not the expected one stops the connection before
    the shop authenticates or sends anything."""

    def __init__(self, expected: str = "") -> None:
        self.expected = expected
        self.key: paramiko.PKey | None = None

    def missing_host_key(self, client: paramiko.SSHClient, hostname: str, key: paramiko.PKey) -> None:
        shown = HostKey.of(key).fingerprint
        if self.expected and shown != self.expected:
            raise InvalidRequest(f"The host showed the key {shown}, not {self.expected}: nothing was sent to it.")
        self.key = key


def _connect(
    address: str, port: int, user: str, pinned: str, expected: str = ""
) -> tuple[paramiko.SSHClient, _Remember]:
    identity = _identity()  # the shop's own setting: checked before anything is sent to the host
    timeout = settings.HOSTS_SSH_TIMEOUT_SECONDS
    client = paramiko.SSHClient()
    remember = _Remember(expected)
    if pinned:
        try:
            key_type, blob = pinned.split()[:2]
            key = paramiko.PKey.from_type_string(key_type, base64.b64decode(blob))
        except (ValueError, paramiko.SSHException) as error:
            raise HostKeyChanged(detail=f"{address}:{port}: the pinned key cannot be read ({error})") from None
        client.get_host_keys().add(_known_name(address, port), key_type, key)
        client.set_missing_host_key_policy(paramiko.RejectPolicy())
    else:
        client.set_missing_host_key_policy(remember)
    try:
        client.connect(
            address,
            port=port,
            username=user,
            pkey=identity,
            timeout=timeout,
            banner_timeout=timeout,
            auth_timeout=timeout,
            look_for_keys=False,
            allow_agent=False,
        )
    except paramiko.BadHostKeyException as error:
        client.close()
        raise HostKeyChanged(
            detail=f"{address}:{port} showed {HostKey.of(error.key).fingerprint}, not the pinned key"
        ) from None
    except (OSError, paramiko.SSHException, EOFError) as error:
        client.close()
        raise HostUnreachable(detail=f"{address}:{port}: {type(error).__name__}: {error}"[:400]) from None
    except InvalidRequest:
        client.close()
        raise
    return client, remember


def host_key_fetch(address: str, port: int, user: str, *, fingerprint: str = "") -> HostKey:
    """Connect, trusting the key the host shows (only `fingerprint` when given), and return it (`hosts repin`).

    Raises:
        InvalidRequest: the host showed another key than `fingerprint`. HostUnreachable: no connection.
    """
    client, remember = _connect(address, port, user, pinned="", expected=fingerprint)
    client.close()
    return _remembered(remember, f"{address}:{port}")


def host_first_contact(address: str, port: int, user: str, *, fingerprint: str = "") -> tuple[HostKey, dict[str, Any]]:
    """Registration (`hosts add`): connect once, trusting the key the host shows (only `fingerprint` when
    given), and read the agent's inventory on that connection. Returns the key to pin and the inventory.

    Raises:
        InvalidRequest: the host showed another key than `fingerprint` (nothing was sent).
        HostUnreachable, AgentFailed: as `agent_call`.
    """
    client, remember = _connect(address, port, user, pinned="", expected=fingerprint)
    try:
        key = _remembered(remember, f"{address}:{port}")
        return key, _exec(client, f"{address}:{port}", "inventory", (), stdin="", timeout=None)
    finally:
        client.close()


def _remembered(remember: _Remember, where: str) -> HostKey:
    if remember.key is None:  # paramiko knew the host from no file we gave it, so the policy saw its key
        raise HostUnreachable(detail=f"{where} showed no host key")
    return HostKey.of(remember.key)


def agent_call(
    host: GpuHost, operation: str, *arguments: str, stdin: str = "", timeout: int | None = None
) -> dict[str, Any]:
    """Run `operation arguments…` through the host's agent and return its JSON answer; the agent has `timeout`
    seconds to answer (default `HOSTS_SSH_TIMEOUT_SECONDS`; making an account may prepare an environment).

    Raises:
        HostUnreachable: no connection, or authentication refused.
        HostKeyChanged: the host's key is not the pinned one (nothing was sent).
        AgentFailed: the agent answered with a non-zero exit or `"ok": false`, or not in time (exit -1): the
            host is there, the operation is what failed.
    """
    client, _remember = _connect(host.address, host.port, host.user, pinned=host.host_key)
    try:
        return _exec(client, host.name, operation, arguments, stdin=stdin, timeout=timeout)
    finally:
        client.close()


def _exec(
    client: paramiko.SSHClient,
    where: str,
    operation: str,
    arguments: tuple[str, ...],
    *,
    stdin: str,
    timeout: int | None,
) -> dict[str, Any]:
    """One agent operation on a connected client: the command, the keys on stdin, the JSON answer."""
    try:
        transport = client.get_transport()
        if transport is None:  # connect() returned, so this is not expected
            raise EOFError("no transport after connecting")
        channel = transport.open_session(timeout=settings.HOSTS_SSH_TIMEOUT_SECONDS)
    except (OSError, paramiko.SSHException, EOFError) as error:
        raise HostUnreachable(detail=f"{where}: {operation}: {type(error).__name__}: {error}"[:400]) from None
    try:
        channel.settimeout(timeout or settings.HOSTS_SSH_TIMEOUT_SECONDS)
        channel.exec_command(shlex.join([operation, *arguments]))
        if stdin:
            channel.sendall(stdin.encode())
        channel.shutdown_write()
        output = bytearray()
        while chunk := channel.recv(65536):
            output += chunk
            if len(output) > _MAX_ANSWER_BYTES:
                raise EOFError(f"the agent's answer is over {_MAX_ANSWER_BYTES} bytes")
        exit_code = channel.recv_exit_status()
    except (OSError, paramiko.SSHException, EOFError) as error:
        message = f"{where}: {operation}: no answer ({type(error).__name__}: {error})"[:400]
        raise AgentFailed(message, exit_code=-1, answer={}) from None
    try:
        answer = json.loads(output.decode(errors="replace"))
    except ValueError:
        answer = None
    if not isinstance(answer, dict):
        raise AgentFailed(
            f"{where}: {operation}: the agent answered no JSON (exit {exit_code})", exit_code=exit_code, answer={}
        )
    if exit_code != 0 or answer.get("ok") is not True:
        message = str(answer.get("error") or "no message")[:300]
        raise AgentFailed(
            f"{where}: {operation} failed (exit {exit_code}): {message}", exit_code=exit_code, answer=answer
        )
    return answer


def agent_run(
    host: GpuHost,
    operation: str,
    *arguments: str,
    stdin: str = "",
    rental: HostRental | None = None,
    timeout: int | None = None,
) -> dict[str, Any]:
    """`agent_call`, recorded as a `HostOperation`, with the host's health moved by the outcome: an answer makes
    an unreachable host healthy again; no connection makes it unreachable; a changed key stops all work on it.
    A host whose key changed is not contacted at all. Each change of health re-counts its model's stock.

    Raises:
        HostError: as `agent_call`, and `HostKeyChanged` at once for a host whose key changed before.
    """
    started, clock = timezone.now(), time.monotonic()
    error: HostError | None = None
    answer: dict[str, Any] = {}
    # Health and pinned key as they are now, not as this object was loaded (a round that began before a
    # `hosts repin`, or before another worker found the key changed).
    fresh = GpuHost.objects.filter(pk=host.pk).values_list("health", "host_key").first()
    if fresh is not None:
        host.health, host.host_key = fresh
    try:
        if host.health == HostHealth.KEY_CHANGED:
            raise HostKeyChanged(detail=f"{host.name}: its host key changed; pin the new one (hosts repin)")
        answer = agent_call(host, operation, *arguments, stdin=stdin, timeout=timeout)
    except HostError as failure:
        error = failure
        answer = failure.answer if isinstance(failure, AgentFailed) else {}
    HostOperation.objects.create(
        host=host,
        rental=rental,
        operation=operation,
        arguments=list(arguments),
        ok=error is None,
        exit_code=error.exit_code if isinstance(error, AgentFailed) else (0 if error is None else None),
        result=answer,
        error=(error.detail or error.message)[:500] if error is not None else "",
        started_at=started,
        duration_ms=int((time.monotonic() - clock) * 1000),
    )
    logger.info("host %s: %s %s", host.name, operation, "ok" if error is None else f"failed: {error.code}")
    _health_after(host, error)
    if error is not None:
        raise error
    return answer


def _health_after(host: GpuHost, error: HostError | None) -> None:
    """Move the host's health from what it was when the call began (`host.health`, read fresh): only if no one
    moved it meanwhile, and never away from `key_changed`, which only `hosts repin` leaves."""
    health: str
    if isinstance(error, HostKeyChanged) or host.health == HostHealth.KEY_CHANGED:
        health = HostHealth.KEY_CHANGED
    elif isinstance(error, HostUnreachable):
        health = HostHealth.UNREACHABLE
    else:  # an answer, even a refusal, means the host is there
        health = HostHealth.HEALTHY
    fields: dict[str, Any] = {
        "checked_at": timezone.now(),
        "last_error": (error.detail or error.message)[:500] if error else "",
    }
    rows = GpuHost.objects.filter(pk=host.pk)
    moved = health != host.health and bool(rows.filter(health=host.health).update(health=health, **fields))
    if not moved:
        rows.update(**fields)
    for name, value in fields.items():
        setattr(host, name, value)
    if moved:
        host.health = health
        stock_sync(host.gpu_id)
        if error is not None:
            notify_operators(error)

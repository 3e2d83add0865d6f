"""`python manage.py hosts add|list|check|drain|repin`: GPU hosts from the command line (docs/hosts.md).

    hosts add NAME --address HOST[:PORT] --user USER --model GPU_SLUG --gpus 0,1,2,3 [--fingerprint SHA256:…]
    hosts list
    hosts check [NAME]
    hosts drain NAME [--undo]
    hosts repin NAME --fingerprint SHA256:…

Names and options are part of the public surface: operators' scripts rely on them.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from gpurent.core.errors import ApplicationError
from gpurent.hosts.enums import HostHealth
from gpurent.hosts.models import GpuHost
from gpurent.hosts.registry import HostSpec, host_add, host_check, host_drain, host_repin
from gpurent.hosts.stock import free_gpus

# With no hosts, a paid rental waits for an operator at the provisioning desk (docs/hosts.md).
NO_HOSTS_THEN = (
    "(paid rentals are provisioned by hand at the back office's provisioning desk; register a host with "
    "`hosts add`, docs/hosts.md)"
)


def _address(value: str) -> tuple[str, int]:
    """HOST or HOST:PORT (an IPv6 address in brackets: [::1]:2222)."""
    if value.startswith("["):
        address, _bracket, rest = value[1:].partition("]")
        return address, int(rest.removeprefix(":") or 22)
    address, _colon, port = value.rpartition(":") if value.count(":") == 1 else (value, "", "")
    return address, int(port or 22)


def _indices(value: str) -> tuple[int, ...]:
    return tuple(int(part) for part in value.split(",") if part.strip())


class Command(BaseCommand):
    help = "Register, list, check, drain GPU hosts, and pin a host's new SSH key."

    def add_arguments(self, parser: CommandParser) -> None:
        actions = parser.add_subparsers(dest="action", required=True)
        add = actions.add_parser("add", help="register a host: pin its key, read its inventory")
        add.add_argument("name")
        add.add_argument("--address", required=True, help="HOST or HOST:PORT")
        add.add_argument("--user", default="root", help="the account whose authorized_keys runs the agent")
        add.add_argument("--model", required=True, help="the catalog's GPU slug, e.g. h100-80gb")
        add.add_argument("--gpus", required=True, help="the GPU indices to rent out, e.g. 0,1,2,3")
        add.add_argument("--fingerprint", default="", help="refuse unless the host's key is this SHA256:…")
        actions.add_parser("list", help="every host, its health and free GPUs")
        check = actions.add_parser("check", help="read the inventory again (every host, or NAME)")
        check.add_argument("name", nargs="?")
        drain = actions.add_parser("drain", help="take no new rentals on NAME (--undo: take them again)")
        drain.add_argument("name")
        drain.add_argument("--undo", action="store_true")
        repin = actions.add_parser("repin", help="pin NAME's new SSH key after checking it on the host")
        repin.add_argument("name")
        repin.add_argument("--fingerprint", required=True)

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            getattr(self, f"_{options['action']}")(options)
        except ApplicationError as error:
            raise CommandError(f"{error.message} {error.detail}".strip()) from None
        except ValueError as error:
            raise CommandError(f"invalid value: {error}") from None

    def _host(self, name: str) -> GpuHost:
        host = GpuHost.objects.select_related("gpu").filter(name=name).first()
        if host is None:
            raise CommandError(f"no host {name}")
        return host

    def _add(self, options: dict[str, Any]) -> None:
        address, port = _address(options["address"])
        spec = HostSpec(
            name=options["name"],
            address=address,
            port=port,
            user=options["user"],
            gpu_slug=options["model"],
            gpu_indices=_indices(options["gpus"]),
            fingerprint=options["fingerprint"],
        )
        host = host_add(spec)
        cards = host.inventory.get("gpus", [])
        self.stdout.write(
            f"host {host.name} added: {host.user}@{host.address}:{host.port}, key {host.host_key_fingerprint}"
        )
        self.stdout.write(
            f"  {len(cards)} GPUs reported; renting out {','.join(map(str, host.gpu_indices))} as {host.gpu.slug}"
        )

    def _list(self, options: dict[str, Any]) -> None:
        hosts = list(GpuHost.objects.select_related("gpu").prefetch_related("allocations").order_by("name")[:1000])
        if not hosts:
            self.stdout.write(f"no hosts registered {NO_HOSTS_THEN}")
            return
        self.stdout.write(f"{'NAME':<20} {'MODEL':<14} {'HEALTH':<12} {'DRAINED':<8} {'FREE':<12} ADDRESS")
        for host in hosts:
            free = free_gpus(host)
            self.stdout.write(
                f"{host.name:<20} {host.gpu.slug:<14} {host.health:<12} {'yes' if host.drained else 'no':<8} "
                f"{len(free)}/{len(host.gpu_indices):<10} {host.user}@{host.address}:{host.port}"
            )

    def _check(self, options: dict[str, Any]) -> None:
        if options["name"]:
            hosts = [self._host(options["name"])]
        else:
            hosts = list(GpuHost.objects.select_related("gpu").order_by("name")[:1000])
        if not hosts:
            self.stdout.write(f"no hosts registered: nothing to check {NO_HOSTS_THEN}")
            return
        count = "1 host: reading its" if len(hosts) == 1 else f"{len(hosts)} hosts: reading each one's"
        self.stdout.write(
            f"checking {count} inventory through the agent over SSH (the host's pinned key, the shop's "
            "HOSTS_SSH_KEY_FILE), then its health and free GPUs"
        )
        failed = 0
        for host in hosts:
            host = host_check(host)
            detail = f" ({host.last_error})" if host.last_error else ""
            free = len(free_gpus(host)) if host.health == HostHealth.HEALTHY else 0
            self.stdout.write(
                f"{host.name} ({host.user}@{host.address}:{host.port}): {host.health}{detail}; "
                f"{free}/{len(host.gpu_indices)} GPUs free to rent"
            )
            failed += host.health != HostHealth.HEALTHY
        if failed:
            raise CommandError(f"{failed} of {len(hosts)} hosts are not healthy")
        self.stdout.write(f"all {len(hosts)} healthy")

    def _drain(self, options: dict[str, Any]) -> None:
        host = host_drain(self._host(options["name"]), drained=not options["undo"])
        self.stdout.write(f"host {host.name}: {'drained' if host.drained else 'takes rentals again'}")

    def _repin(self, options: dict[str, Any]) -> None:
        host = host_repin(self._host(options["name"]), options["fingerprint"])
        self.stdout.write(f"host {host.name}: key {host.host_key_fingerprint} pinned; {host.health}")

"""An isolated GPU test host for tests: `tools/host-agent/test-host` (sshd on 127.0.0.1 in its own mount namespace,
fake restricted GPUs, the real host agent behind the shop key's forced command), driven with the real `ssh` client.

    host = TestHost.start(tmp_path / "host", TestHost.free_port(), shop_key.with_suffix(".pub"))
    host.agent(shop_key, "inventory")            # {"ok": True, "gpus": [...], ...}
    host.agent(shop_key, "create", "r7kq3m9xa", "--gpus", "0,1", "--expires", "2030-01-31", stdin=public_key)
    host.ssh("r7kq3m9xa", customer_key, "echo $CUDA_VISIBLE_DEVICES")
    host.stop()

It needs root, `/usr/sbin/sshd` and `setfacl` (`sshd_available()` says what is missing). DIR may be any new or
empty directory, pytest's tmp_path too: customers reach the fake `nvidia-smi` (`host.nvidia_smi`) and the device
files (`host.dir / "dev"`) even below a 0700 directory.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import socket
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["AgentCallError", "TestHost", "free_port", "sshd_available"]

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tools" / "host-agent" / "test-host"
# The programs the test host and the agent run, and the Debian package of each.
TOOLS = {"setfacl": "acl", "ssh": "openssh-client", "ssh-keygen": "openssh-client", "unshare": "util-linux"}
TOOLS |= {"useradd": "passwd", "pkill": "procps", "python3": "python3"}


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def sshd_available() -> str | None:
    """Why a test host cannot run here (a reason to skip with), or None when it can."""
    if os.geteuid() != 0:
        return "the test host needs root (useradd, setfacl and a mount namespace)"
    if not Path("/usr/sbin/sshd").exists():
        return "/usr/sbin/sshd is missing (apt-get install openssh-server)"
    for tool, package in TOOLS.items():
        if shutil.which(tool) is None:
            return f"{tool} is missing (apt-get install {package})"
    return None


class AgentCallError(Exception):
    """The agent answered with a non-zero exit status (or ssh failed: 255); `result` is its JSON answer."""

    def __init__(self, returncode: int, result: dict[str, Any], stderr: str) -> None:
        super().__init__(f"agent exit {returncode}: {result.get('error') or stderr.strip()}")
        self.returncode = returncode
        self.result = result
        self.stderr = stderr


@dataclass(frozen=True)
class TestHost:
    """A running test host: what `test-host start` printed."""

    __test__ = False  # not a pytest test class

    address: str
    port: int
    user: str
    host_key: str
    fingerprint: str
    dir: Path

    @classmethod
    def start(
        cls,
        dir: Path,
        port: int,
        shop_public_key_file: Path,
        gpus: int = 8,
        gpu_name: str = "NVIDIA H100 80GB HBM3",
        memory_mib: int = 81559,
    ) -> TestHost:
        argv = [str(SCRIPT), "start", str(dir), "--port", str(port), "--gpus", str(gpus), "--gpu-name", gpu_name]
        argv += ["--memory-mib", str(memory_mib), "--shop-key", str(shop_public_key_file)]
        done = subprocess.run(argv, capture_output=True, text=True, timeout=120, check=False)  # noqa: S603
        if done.returncode != 0:
            raise RuntimeError(f"test-host start failed ({done.returncode}): {done.stderr.strip()}")
        info = json.loads(done.stdout.strip().splitlines()[-1])
        host = cls(
            info["address"], info["port"], info["user"], info["host_key"], info["fingerprint"], Path(info["dir"])
        )
        host.known_hosts.write_text(f"[{host.address}]:{host.port} {host.host_key}\n")
        return host

    free_port = staticmethod(free_port)

    @property
    def nvidia_smi(self) -> Path:
        """The host's fake nvidia-smi: it shows only the GPUs whose device files the caller may open."""
        return self.dir / "nvidia-smi"

    @property
    def known_hosts(self) -> Path:
        """The known_hosts file that pins this host's key (StrictHostKeyChecking=yes)."""
        return self.dir / "known_hosts"

    def stop(self) -> None:
        """Kill sshd and every process in the host's namespace, and remove its directory."""
        stopped = subprocess.run([str(SCRIPT), "stop", str(self.dir)], capture_output=True, text=True, timeout=120)  # noqa: S603
        if stopped.returncode != 0:
            raise RuntimeError(f"test-host stop {self.dir} exited {stopped.returncode}: {stopped.stderr.strip()}")

    def ssh(
        self, user: str, key_file: Path, command: str, timeout: float = 30, stdin: str = "", tty: bool = False
    ) -> subprocess.CompletedProcess[str]:
        """Run COMMAND as USER on the host with the real ssh client and this key only (the host key pinned);
        never raises on a non-zero exit. tty: a terminal (-tt), and an empty COMMAND is an interactive login."""
        pinned = f"UserKnownHostsFile={self.known_hosts}"
        options = ["IdentitiesOnly=yes", "BatchMode=yes", "StrictHostKeyChecking=yes", pinned, "ConnectTimeout=10"]
        argv = ["ssh", "-F", "/dev/null", "-i", str(key_file), "-p", str(self.port)]
        argv += [*(arg for option in options for arg in ("-o", option)), *(["-tt"] if tty else [])]
        argv.append(f"{user}@{self.address}")
        if command or not tty:
            argv.append(command)
        return subprocess.run(argv, input=stdin, capture_output=True, text=True, timeout=timeout, check=False)  # noqa: S603

    def agent(self, key_file: Path, *args: str, stdin: str = "") -> dict[str, Any]:
        """Call the agent as the shop does: root with the shop key, whose forced command is the agent; ARGS
        travel as SSH_ORIGINAL_COMMAND. Returns the JSON answer; raises AgentCallError on a non-zero exit."""
        done = self.ssh(self.user, key_file, shlex.join(args), stdin=stdin)
        try:
            result = json.loads(done.stdout)
        except ValueError:
            result = {"ok": False, "error": f"not JSON: {done.stdout!r}"}
        if done.returncode != 0:
            raise AgentCallError(done.returncode, result, done.stderr)
        return result

"""tools/host-agent/install.sh (into a temporary root, GPURENT_INSTALL_ROOT) and the fake nvidia-smi's formats.
Neither needs sshd nor the database."""

import json
import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

TOOLS = Path(__file__).resolve().parents[2] / "tools" / "host-agent"
KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB7ESSambNo1bUHjSQDJLgYu2Uz8/Q7Po7AvBBd+O1kB gpurent-shop"
LINE = f'restrict,command="/usr/local/sbin/gpurent-host-agent" {KEY}\n'


def install(root: Path, key: str) -> subprocess.CompletedProcess[str]:
    sh = shutil.which("sh") or "/bin/sh"
    env = {**os.environ, "GPURENT_INSTALL_ROOT": str(root)}
    return subprocess.run([sh, str(TOOLS / "install.sh"), key], capture_output=True, text=True, env=env, check=False)


def test_install_puts_the_agent_the_config_and_the_restricted_key_once(tmp_path):
    first = install(tmp_path, KEY)
    assert first.returncode == 0, first.stderr
    agent = tmp_path / "usr/local/sbin/gpurent-host-agent"
    assert agent.read_bytes() == (TOOLS / "gpurent-host-agent").read_bytes()
    assert stat.S_IMODE(agent.stat().st_mode) == 0o755
    config = json.loads((tmp_path / "etc/gpurent/host-agent.json").read_text())
    assert config == {
        "device_dir": "/dev",
        "nvidia_smi": "nvidia-smi",
        "rocm_smi": "rocm-smi",
        "home_base": "/home",
        "allow_sudo": False,
        "environments": {},
        "path": "/usr/sbin:/usr/bin:/sbin:/bin",
    }
    keys = tmp_path / "root/.ssh/authorized_keys"
    assert keys.read_text() == LINE
    assert stat.S_IMODE(keys.stat().st_mode) == 0o600
    assert stat.S_IMODE(keys.parent.stat().st_mode) == 0o700

    (tmp_path / "etc/gpurent/host-agent.json").write_text('{"allow_sudo": true}')
    second = install(tmp_path, KEY)
    assert second.returncode == 0, second.stderr
    assert keys.read_text() == LINE
    assert (tmp_path / "etc/gpurent/host-agent.json").read_text() == '{"allow_sudo": true}'


@pytest.mark.parametrize(
    "key",
    [f'command="/bin/sh" {KEY}', f"restrict {KEY}", "ssh-ed25519", "ssh-ed25519 not*base64", f"{KEY}\n{KEY}"],
)
def test_install_refuses_what_is_not_one_plain_public_key(tmp_path, key):
    done = install(tmp_path, key)
    assert done.returncode != 0
    assert not (tmp_path / "root/.ssh/authorized_keys").exists()


def test_install_refuses_a_key_already_there_without_the_forced_command(tmp_path):
    keys = tmp_path / "root/.ssh/authorized_keys"
    keys.parent.mkdir(parents=True)
    keys.write_text(KEY + "\n")
    done = install(tmp_path, KEY)
    assert done.returncode == 1
    assert "already holds this key" in done.stderr
    assert keys.read_text() == KEY + "\n"


def fake_smi(inventory: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "FAKE_GPU_INVENTORY": str(inventory)}
    command = ["/usr/bin/python3", str(TOOLS / "fake-nvidia-smi"), *args]
    return subprocess.run(command, capture_output=True, text=True, env=env, check=False)


def test_the_fake_nvidia_smi_prints_the_gpus_whose_device_file_opens(tmp_path):
    gpus = [
        {"index": i, "name": "NVIDIA A100-SXM4-80GB", "memory_mib": 81920, "uuid": f"GPU-{i:08x}"} for i in range(3)
    ]
    (tmp_path / "gpus.json").write_text(json.dumps(gpus))
    (tmp_path / "dev").mkdir()
    for index in (0, 2):  # no device file for GPU 1: it cannot be opened
        (tmp_path / "dev" / f"nvidia{index}").touch(mode=0o600)
    inventory = tmp_path / "gpus.json"

    nounits = fake_smi(inventory, "--query-gpu=index,name,memory.total,uuid", "--format=csv,noheader,nounits")
    assert nounits.stdout.splitlines() == [
        "0, NVIDIA A100-SXM4-80GB, 81920, GPU-00000000",
        "2, NVIDIA A100-SXM4-80GB, 81920, GPU-00000002",
    ]
    units = fake_smi(inventory, "--query-gpu=uuid,memory.total", "--format=csv,noheader")
    assert units.stdout.splitlines() == ["GPU-00000000, 81920 MiB", "GPU-00000002, 81920 MiB"]
    header = fake_smi(inventory, "--query-gpu=index,memory.total", "--format=csv")
    assert header.stdout.splitlines()[0] == "index, memory.total [MiB]"
    listed = fake_smi(inventory, "-L")
    assert listed.stdout.splitlines()[1] == "GPU 2: NVIDIA A100-SXM4-80GB (UUID: GPU-00000002)"
    assert "NVIDIA A100-SXM4-80GB" in fake_smi(inventory).stdout
    assert fake_smi(inventory, "--query-gpu=power.draw", "--format=csv").returncode != 0

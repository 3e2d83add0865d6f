"""The host agent (tools/host-agent/gpurent-host-agent) on an isolated test host: a real sshd, the real ssh client,
the shop key's forced command, customers logging in with their own keys. One host per session; every test has its
own rental account name. No database."""

import json
import pwd
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from gpurent.hosts.testing import AgentCallError, TestHost

EXPIRES = "2030-01-31"
ROOT = Path(__file__).resolve().parents[2]


def create(host: TestHost, shop_key: Path, user: str, key: Path, gpus: str = "0", *extra: str) -> dict:
    args = ("create", user, "--gpus", gpus, "--expires", EXPIRES, *extra)
    return host.agent(shop_key, *args, stdin=key.with_suffix(".pub").read_text())


def refused(host: TestHost, shop_key: Path, *args: str, stdin: str = "") -> AgentCallError:
    with pytest.raises(AgentCallError) as caught:
        host.agent(shop_key, *args, stdin=stdin)
    assert caught.value.result["ok"] is False
    assert caught.value.result["error"]
    return caught.value


def status(host: TestHost, shop_key: Path, user: str) -> dict:
    return host.agent(shop_key, "status", user)


def acl_uids(path: Path) -> set[str]:
    out = subprocess.run(["/usr/bin/getfacl", "-n", "-p", "-c", str(path)], capture_output=True, text=True, check=True)
    return {line.split(":")[1] for line in out.stdout.splitlines() if line.startswith("user:") and line.split(":")[1]}


def uid_of(host: TestHost, user: str) -> str:
    line = next(line for line in (host.dir / "etc/passwd").read_text().splitlines() if line.startswith(f"{user}:"))
    return line.split(":")[2]


def test_inventory_through_the_forced_command(test_host, shop_key):
    inventory = test_host.agent(shop_key, "inventory")
    assert inventory["ok"] is True
    assert inventory["agent_version"] == 1
    assert inventory["vendor"] == "nvidia"
    assert [gpu["index"] for gpu in inventory["gpus"]] == list(range(8))
    assert {gpu["name"] for gpu in inventory["gpus"]} == {"NVIDIA H100 80GB HBM3"}
    assert {gpu["memory_mib"] for gpu in inventory["gpus"]} == {81559}
    assert len({gpu["uuid"] for gpu in inventory["gpus"]}) == 8
    assert all(gpu["uuid"].startswith("GPU-") for gpu in inventory["gpus"])
    assert inventory["vcpus"] >= 1
    assert inventory["ram_mib"] > 0
    assert inventory["disk_gib"] > 0
    assert inventory["hostname"]


def test_a_customer_sees_and_opens_only_their_gpus(test_host, shop_key, customer_key, rental_user):
    key = customer_key("alice")
    created = create(test_host, shop_key, rental_user, key, "2,5")
    assert created == {
        "ok": True,
        "user": rental_user,
        "changed": True,
        "gpus": [2, 5],
        "expires": EXPIRES,
        "home": f"/home/{rental_user}",
        "environment": {"name": None, "prepared": False, "note": None},
    }
    uuids = {gpu["index"]: gpu["uuid"] for gpu in test_host.agent(shop_key, "inventory")["gpus"]}
    smi = test_host.nvidia_smi

    query = test_host.ssh(rental_user, key, f"{smi} --query-gpu=index,uuid,memory.total --format=csv,noheader")
    assert query.returncode == 0, query.stderr
    assert query.stdout.splitlines() == [f"2, {uuids[2]}, 81559 MiB", f"5, {uuids[5]}, 81559 MiB"]
    listed = test_host.ssh(rental_user, key, f"{smi} -L").stdout.splitlines()
    assert listed == [
        f"GPU 2: NVIDIA H100 80GB HBM3 (UUID: {uuids[2]})",
        f"GPU 5: NVIDIA H100 80GB HBM3 (UUID: {uuids[5]})",
    ]

    visible = f"{uuids[2]},{uuids[5]}"
    assert test_host.ssh(rental_user, key, "echo $CUDA_VISIBLE_DEVICES").stdout.strip() == visible
    for shell in ("bash --login -c", "bash -i -c"):  # a clean login shell and an interactive one
        done = test_host.ssh(rental_user, key, f"env -i HOME=$HOME {shell} 'echo CVD=$CUDA_VISIBLE_DEVICES'")
        assert f"CVD={visible}" in done.stdout.splitlines(), done
    login = test_host.ssh(rental_user, key, "", tty=True, stdin="echo CVD=$CUDA_VISIBLE_DEVICES; exit\n")
    assert f"CVD={visible}" in login.stdout.replace("\r", "").splitlines(), login

    dev = test_host.dir / "dev"
    mine = test_host.ssh(rental_user, key, f"test -r {dev}/nvidia2 -a -w {dev}/nvidia5 -a -w {dev}/nvidiactl")
    assert mine.returncode == 0, mine.stderr
    other = test_host.ssh(rental_user, key, f"cat {dev}/nvidia0")
    assert other.returncode != 0
    assert "Permission denied" in other.stderr
    assert status(test_host, shop_key, rental_user)["gpus"] == [2, 5]


def test_create_again_changes_nothing_then_rewrites_keys_and_expiry(test_host, shop_key, customer_key, rental_user):
    key = customer_key("bob")
    assert create(test_host, shop_key, rental_user, key, "1")["changed"] is True
    assert create(test_host, shop_key, rental_user, key, "1")["changed"] is False

    new_key = customer_key("bob-new")
    again = test_host.agent(
        shop_key,
        "create",
        rental_user,
        "--gpus",
        "1",
        "--expires",
        "2030-03-01",
        stdin=new_key.with_suffix(".pub").read_text(),
    )
    assert again["changed"] is True
    assert status(test_host, shop_key, rental_user) | {"processes": 0} == {
        "ok": True,
        "user": rental_user,
        "exists": True,
        "locked": False,
        "expires": "2030-03-01",
        "gpus": [1],
        "processes": 0,
        "keys": 1,
    }
    assert test_host.ssh(rental_user, key, "true").returncode == 255
    assert test_host.ssh(rental_user, new_key, "true").returncode == 0


def test_create_with_other_gpus_is_a_conflict(test_host, shop_key, customer_key, rental_user):
    key = customer_key("carol")
    create(test_host, shop_key, rental_user, key, "3")
    error = refused(
        test_host,
        shop_key,
        "create",
        rental_user,
        "--gpus",
        "3,4",
        "--expires",
        EXPIRES,
        stdin=key.with_suffix(".pub").read_text(),
    )
    assert error.returncode == 3
    assert status(test_host, shop_key, rental_user)["gpus"] == [3]


def test_extend_moves_the_expiry(test_host, shop_key, customer_key, rental_user):
    create(test_host, shop_key, rental_user, customer_key("dave"))
    extended = test_host.agent(shop_key, "extend", rental_user, "--expires", "2031-06-30")
    assert extended == {"ok": True, "user": rental_user, "expires": "2031-06-30", "changed": True}
    assert status(test_host, shop_key, rental_user)["expires"] == "2031-06-30"
    assert test_host.agent(shop_key, "extend", rental_user, "--expires", "2031-06-30")["changed"] is False
    assert refused(test_host, shop_key, "extend", rental_user, "--expires", "30.06.2031").returncode == 2
    assert refused(test_host, shop_key, "extend", "rnobody000", "--expires", "2031-06-30").returncode == 1


@pytest.mark.parametrize("operation", ["stop", "restart"])
def test_stop_kills_background_processes_and_keeps_the_account(
    test_host, shop_key, customer_key, rental_user, operation
):
    key = customer_key("erin")
    create(test_host, shop_key, rental_user, key)
    assert test_host.ssh(rental_user, key, "nohup sleep 600 >/dev/null 2>&1 &").returncode == 0
    assert status(test_host, shop_key, rental_user)["processes"] >= 1

    stopped = test_host.agent(shop_key, operation, rental_user)
    assert stopped["ok"] is True
    assert stopped["killed"] >= 1
    after = status(test_host, shop_key, rental_user)
    assert (after["processes"], after["keys"], after["locked"]) == (0, 1, False)
    assert test_host.ssh(rental_user, key, "true").returncode == 0


def test_revoke_shuts_the_customer_out(test_host, shop_key, customer_key, rental_user):
    key = customer_key("frank")
    create(test_host, shop_key, rental_user, key, "6,7")
    uid = uid_of(test_host, rental_user)
    assert uid in acl_uids(test_host.dir / "dev/nvidia6")
    assert test_host.ssh(rental_user, key, "nohup sleep 600 >/dev/null 2>&1 &").returncode == 0

    revoked = test_host.agent(shop_key, "revoke", rental_user)
    assert revoked["existed"] is True
    assert revoked["killed"] >= 1
    assert test_host.ssh(rental_user, key, "true").returncode == 255
    after = status(test_host, shop_key, rental_user)
    assert (after["locked"], after["expires"], after["gpus"], after["processes"], after["keys"]) == (
        True,
        "1970-01-02",
        [],
        0,
        0,
    )
    for device in (test_host.dir / "dev").iterdir():
        assert uid not in acl_uids(device), device

    # The key put back by hand still does not let it in: the account has expired, and PAM refuses it.
    ssh_dir = test_host.dir / "home" / rental_user / ".ssh"
    (ssh_dir / "authorized_keys").write_text(key.with_suffix(".pub").read_text())
    subprocess.run(["/usr/bin/chown", "-R", f"{uid}:{uid}", str(ssh_dir)], check=True)
    assert test_host.ssh(rental_user, key, "true").returncode == 255
    assert (
        f"Access denied for user {rental_user} by PAM account configuration" in (test_host.dir / "sshd.log").read_text()
    )

    assert test_host.agent(shop_key, "revoke", rental_user)["ok"] is True
    assert refused(test_host, shop_key, "extend", rental_user, "--expires", "2031-01-01").returncode == 3
    # Revoking is final: a create that arrives late (or again) gives nothing back.
    late = refused(
        test_host,
        shop_key,
        "create",
        rental_user,
        "--gpus",
        "6,7",
        "--expires",
        EXPIRES,
        stdin=key.with_suffix(".pub").read_text(),
    )
    assert late.returncode == 3
    assert status(test_host, shop_key, rental_user)["gpus"] == []
    assert test_host.ssh(rental_user, key, "true").returncode == 255
    assert test_host.agent(shop_key, "revoke", "rnobody000") == {"ok": True, "user": "rnobody000", "existed": False}


def test_wipe_removes_the_account_and_its_home(test_host, shop_key, customer_key, rental_user):
    create(test_host, shop_key, rental_user, customer_key("grace"))
    assert (test_host.dir / "home" / rental_user).is_dir()
    assert test_host.agent(shop_key, "wipe", rental_user)["existed"] is True
    assert status(test_host, shop_key, rental_user)["exists"] is False
    assert not (test_host.dir / "home" / rental_user).exists()
    assert f"\n{rental_user}:" not in (test_host.dir / "etc/passwd").read_text()
    assert test_host.agent(shop_key, "wipe", rental_user) == {"ok": True, "user": rental_user, "existed": False}


KEY_WITH_OPTIONS = (
    'command="/bin/sh" ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIEk4Xr1l0dYOEQXs7pK1jQdK1m2YxU1q8dI1bq2m8b1a x'
)
BAD_CALLS: dict[str, Callable[[str], tuple[list[str], str | None]]] = {
    "root": lambda user: (["create", "root", "--gpus", "0", "--expires", EXPIRES], None),
    "path": lambda user: (["create", "../x", "--gpus", "0", "--expires", EXPIRES], None),
    "metacharacter in the user": lambda user: (["create", f"{user};id", "--gpus", "0", "--expires", EXPIRES], None),
    "metacharacter in the GPUs": lambda user: (["create", user, "--gpus", "0$(id)", "--expires", EXPIRES], None),
    "bad date": lambda user: (["create", user, "--gpus", "0", "--expires", "2030-02-30"], None),
    "sudo not allowed": lambda user: (["create", user, "--gpus", "0", "--expires", EXPIRES, "--sudo"], None),
    "bad environment": lambda user: (
        ["create", user, "--gpus", "0", "--expires", EXPIRES, "--environment", "a b"],
        None,
    ),
    "key with options": lambda user: (["create", user, "--gpus", "0", "--expires", EXPIRES], KEY_WITH_OPTIONS),
    "no key": lambda user: (["create", user, "--gpus", "0", "--expires", EXPIRES], ""),
    "missing option": lambda user: (["create", user, "--gpus", "0"], None),
    "unknown operation": lambda user: (["frobnicate", user], None),
    "extra argument": lambda user: (["status", user, "now"], None),
}


@pytest.mark.parametrize("case", BAD_CALLS)
def test_bad_input_is_refused_and_creates_nothing(test_host, shop_key, customer_key, rental_user, case):
    args, stdin = BAD_CALLS[case](rental_user)
    key = customer_key("mallory").with_suffix(".pub").read_text()
    assert refused(test_host, shop_key, *args, stdin=key if stdin is None else stdin).returncode == 2
    assert status(test_host, shop_key, rental_user)["exists"] is False
    assert "\nroot:x:0:0:root:/root:" in "\n" + (test_host.dir / "etc/passwd").read_text()


def test_a_gpu_the_host_does_not_have_fails_the_create_and_makes_nothing(
    test_host, shop_key, customer_key, rental_user
):
    # Exit 1, not 2: the host's state is wrong, not the call (a GPU that fell off the bus may come back).
    key = customer_key("nina").with_suffix(".pub").read_text()
    error = refused(test_host, shop_key, "create", rental_user, "--gpus", "8", "--expires", EXPIRES, stdin=key)
    assert error.returncode == 1
    assert "GPU 8 does not exist" in error.result["error"]
    assert status(test_host, shop_key, rental_user)["exists"] is False


@pytest.mark.parametrize("command", ["id", "cat /etc/shadow", "inventory; id", "status rabcd1234 && id", ""])
def test_the_shop_key_runs_nothing_but_the_agent(test_host, shop_key, command):
    done = test_host.ssh("root", shop_key, command)
    assert done.returncode == 2
    answer = json.loads(done.stdout)
    assert answer["ok"] is False
    assert answer["error"].startswith(("unknown operation", "status: unexpected"))
    assert "uid=0" not in done.stdout
    assert "root:" not in done.stdout


def test_an_account_the_agent_did_not_make_is_not_touched(test_host, shop_key, rental_user):
    subprocess.run(
        ["/usr/sbin/useradd", "--prefix", str(test_host.dir), "-M", "-c", "an operator", rental_user], check=True
    )
    for args in (["status", rental_user], ["revoke", rental_user], ["wipe", rental_user], ["stop", rental_user]):
        assert refused(test_host, shop_key, *args).returncode == 3
    assert f"\n{rental_user}:" in (test_host.dir / "etc/passwd").read_text()


def test_the_accounts_exist_only_in_the_test_host(test_host, shop_key, customer_key, rental_user):
    create(test_host, shop_key, rental_user, customer_key("heidi"))
    with pytest.raises(KeyError):
        pwd.getpwnam(rental_user)
    assert rental_user not in Path("/etc/passwd").read_text()
    assert rental_user not in Path("/etc/shadow").read_text()
    assert not (Path("/home") / rental_user).exists()
    assert f"\n{rental_user}:" in (test_host.dir / "etc/passwd").read_text()
    assert (test_host.dir / "home" / rental_user / ".ssh/authorized_keys").exists()


def test_an_environment_is_prepared_by_its_command(test_host, shop_key, customer_key, rental_user):
    key = customer_key("ivan")
    prepared = create(test_host, shop_key, rental_user, key, "0", "--environment", "pytorch")["environment"]
    assert prepared == {"name": "pytorch", "prepared": True, "note": None}
    assert f"pytorch {rental_user}" in (test_host.dir / "prepared.log").read_text().splitlines()
    other = create(test_host, shop_key, rental_user + "b", key, "0", "--environment", "ubuntu")["environment"]
    assert other["prepared"] is False
    assert "nothing to prepare" in other["note"]


def test_the_agent_runs_locally_with_arguments_on_argv(test_host):
    agent = ROOT / "tools/host-agent/gpurent-host-agent"
    done = subprocess.run(
        ["/usr/bin/python3", str(agent), "--config", str(test_host.dir / "agent.json"), "inventory"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert len(json.loads(done.stdout)["gpus"]) == 8


def test_gpu_device_files_open_to_every_user_are_refused(test_host, shop_key, customer_key, rental_user):
    # An ACL isolates nothing on a file anyone may open (a driver left with its default 0666 device files).
    device = test_host.dir / "dev" / "nvidia5"
    device.chmod(0o666)
    try:
        error = refused(
            test_host,
            shop_key,
            "create",
            rental_user,
            "--gpus",
            "5",
            "--expires",
            EXPIRES,
            stdin=customer_key("greta").with_suffix(".pub").read_text(),
        )
    finally:
        device.chmod(0o600)
    assert error.returncode == 1
    assert "open to every user" in error.result["error"]
    assert status(test_host, shop_key, rental_user)["exists"] is False  # refused before anything was made

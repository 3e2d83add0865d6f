# ruff: noqa: E501  (one realistic sample per line reads better than wrapped ones)
"""Build the FIFTH TUNING part of the redaction corpus (`tuning5/*.jsonl`): clean support texts about keys.

Round 5 (issue 15, decision 0213) narrows the looser rules of round 4, which changed 2.4 % of held-out 4's clean
texts. Held-out 4's texts and which of them were flagged were not looked at; instead this part holds clean texts
written for the round-4 rules (`tuning5_negatives.py`, three batches: prose about keys, tokens and passwords with
ordinary words or numbers after them; ids, hashes and fingerprints near "key" or "token"; command lines and
files that look like the round-4 flag, pipe, `config set`, XML, table and key-body rules; longer support pastes),
and texts with secrets in the same places, so that a narrowed rule still catches what it was written for.

Run: `.venv/bin/python -m tests.data.redaction_corpus.build_tuning5`; the output is committed.
"""

from __future__ import annotations

from pathlib import Path

from .checks import check_and_write
from .fakes import ALNUM, B64, Fakes
from .tuning5_negatives import negatives
from .writer import Sample, one, repeat

OUT = Path(__file__).resolve().parent / "tuning5"


def _near_the_narrowed_rules(f: Fakes) -> list[Sample]:
    p = f.password

    def key() -> str:
        return f.pick(ALNUM, 40)

    return [
        one("echo '{s}' | sudo -S nvidia-smi -pm 1", p),
        one("echo 'root:{s}' | sudo chpasswd", p),
        one("echo {s} | docker login registry.gpurent.example -u ada --password-stdin", p),
        one("password: !{s}", lambda: "Gp" + f.pick(ALNUM, 10) + "7"),
        one("db:\n  user: app\n  password: {s}\n  host: db.internal", p),
        one("login: ada / password: {s}", p),
        one("git config --global credential.token {s}", key),
        one("yarn config set npmAuthToken {s}", key),
        one("The deploy key is {s}, please add it to the order's machine.", key),
        one("storage key: {s}", lambda: f.pick(B64, 86) + "=="),
        one("deployer key 0x{s} (testnet only, I know)", f.eth_key),
        one("my private key for the bot wallet, it is 0x{s}", f.eth_key),
        one("mysql -u root -p{s} -e 'select 1'", p),
        one(
            "mysql -h 10.0.0.4 -u root -p{s}\nERROR 1045 (28000): Access denied for user 'root'@'10.0.0.7' (using password: YES)",
            p,
        ),
        one("existingSecret: hf\nhfToken: {s}", lambda: "hf_" + f.pick(ALNUM, 34)),
        one("API key: {s} (the new one, the old one is revoked)", key),
        one("key fingerprint is fine; the key itself: {s}", key),
        one("Password: {s} Token: ✔", p),
        one(
            "key: {s}   (the private one, from `openssl genpkey -algorithm ed25519`)",
            lambda: "MC4CAQAwBQYDK2VwBCIEI" + f.pick(B64, 27),
        ),
        one("| service | password |\n|---|---|\n| password | {s} |", p),
        one("aws ssm put-parameter --name /prod/db-password --type SecureString --value '{s}'", p),
        one("{s} (the api key) — the GPU is GPU-0b1c2d3e-aaaa-bbbb-cccc-0123456789ab", key),
    ]


def positives(f: Fakes) -> list[tuple[str, list[str]]]:
    out: list[tuple[str, list[str]]] = []
    for build in _near_the_narrowed_rules(f):
        repeat(2, out, build)
    return out


def main() -> None:
    fakes = Fakes(seed=1205122026)
    check_and_write(OUT, "t5", positives(fakes), negatives(fakes))


if __name__ == "__main__":
    main()

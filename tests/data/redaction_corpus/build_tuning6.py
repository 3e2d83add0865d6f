# ruff: noqa: E501  (one realistic sample per line reads better than wrapped ones)
"""Build the SIXTH TUNING part of the redaction corpus (`tuning6/*.jsonl`): support requests for the pattern author.

Written for round 6 of issue 15 by an engineer who is not the pattern author, under the held-out parts'
independence rule (did not open `gpurent/core/redaction/`, did not run the redactor or the recall bench on any
text, did not read held-out 6), so that the pattern author's first measurement of it is an out-of-sample figure.
Texts are written as GPU-rental customers write support requests (mostly English, some Spanish, Vietnamese and
Turkish): secrets after command-line flags and in tools' login commands, key material introduced by words, wallets
and keys, provider tokens in the shapes of the gitleaks and trufflehog rules; clean texts (`tuning6_negatives.py`)
are look-alikes from the same pastes. Every secret is named as one by a word, a flag, a file field or its
provider's format.

Run: `.venv/bin/python -m tests.data.redaction_corpus.build_tuning6`; the output is committed.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from .checks import check_and_write
from .fakes import ALNUM, B64, URLSAFE, Fakes
from .tuning6_negatives import negatives, negatives_batch2
from .tuning6_providers import BECH32, Tokens, positives_batch2
from .writer import Sample, one, repeat

OUT = Path(__file__).resolve().parent / "tuning6"


def with_body(template: str, make: Callable[[], tuple[str, str]]) -> Sample:
    """A sample whose inserted block (a PEM block) is longer than its secret (the block's body)."""

    def build() -> tuple[str, list[str]]:
        block, secret = make()
        return template.replace("{s}", block), [secret]

    return build


def pem(f: Fakes, label: str, lines: int) -> tuple[str, str]:
    """A PEM block and its body: what must go is the key material, not the BEGIN/END lines."""
    body = "\n".join(f.pick(B64, 64) for _ in range(lines)) + "\n" + f.pick(B64, 18) + "=="
    return f"-----BEGIN {label}-----\n{body}\n-----END {label}-----", body


def _flags_and_logins(f: Fakes, t: Tokens) -> list[Sample]:
    p = f.password
    return [
        one('pg_dumpall --dbname="host=db.internal port=5432 user=admin password={s}" > all.sql', p),
        one(
            'mongosh "mongodb+srv://cluster0.ab12c.mongodb.net/admin" --username ada --password {s} --eval "db.stats()"',
            p,
        ),
        one("redis-cli -h 10.0.0.9 -p 6379 -a {s} --no-auth-warning INFO memory", p),
        one("cqlsh 10.0.2.11 9042 -u cassandra -p {s} -e 'DESCRIBE KEYSPACES'", p),
        one("cypher-shell -a bolt://10.0.0.3:7687 -u neo4j -p {s} 'MATCH (n) RETURN count(n)'", p),
        one("neo4j-admin dbms set-initial-password {s}", p),
        one('psql "host=gpu-db port=5432 dbname=feats user=etl password={s} sslmode=require" -c "\\dt"', p),
        one("sshpass -p '{s}' rsync -avz -e 'ssh -p 2222' ./ckpt/ root@203.0.113.44:/data/ckpt/", p),
        one("sshpass -p{s} scp -P 40022 results.tar root@gpu-7.gpurent.example:/root/", p),
        one("wandb login --host https://wandb.acme.ai local-{s}", t.wandb),
        one("wandb login --relogin {s}", t.wandb),
        one("hf auth login --token {s} --add-to-git-credential", t.hf),
        one("huggingface-cli upload acme/llama3-ft ./out . --token={s} --private", t.hf),
        one("podman login quay.io -u 'acme+trainer' -p {s}", t.quay_robot),
        one("helm registry login registry-1.docker.io --username adalab --password {s}", t.dockerhub),
        one("oras login ghcr.io -u ada-lab -p {s}", t.ghp),
        one("crane auth login registry.gitlab.com -u ada -p {s}", t.glpat),
        one(
            "skopeo copy --dest-creds ada:{s} docker://nvcr.io/nvidia/pytorch:24.05-py3 docker://harbor.acme.dev/ml/pytorch:24.05",
            p,
        ),
        one("nerdctl login -u admin -p {s} harbor.acme.dev", p),
        one("docker login nvcr.io --username '$oauthtoken' --password {s}", t.ngc),
        one(
            "$ ngc config set\nEnter API key [no-apikey]. Choices: [<VALID_APIKEY>, 'no-apikey']: {s}\nEnter CLI output format type [ascii]. Choices: ['ascii', 'csv', 'json']: ascii",
            t.ngc,
        ),
        one("aws configure set aws_secret_access_key {s} --profile gpu-burst", lambda: f.pick(B64, 40)),
        one("CLOUDSDK_AUTH_ACCESS_TOKEN={s} gcloud compute instances list --project acme-ml", t.google_access),
        one("az acr login --name acmecr --username acmecr --password {s}", lambda: f.pick(ALNUM + "+/", 52)),
        one("docker login fra.ocir.io -u 'frx8k2/oracleidentitycloudservice/ada@acme.dev' -p '{s}'", t.oci_auth),
        one("doctl auth init --context gpu --access-token {s}", lambda: "dop_v1_" + f.hex(64)),
        one("LINODE_CLI_TOKEN={s} linode-cli linodes list --label gpu-train", lambda: f.hex(64)),
        one("vultr-cli instance list --config ~/.vultr-cli.yaml\n# ~/.vultr-cli.yaml\napi-key: {s}", t.vultr),
        one("$ hcloud context create gpu-train\nToken: {s}\nContext gpu-train created and activated", t.hcloud),
        one("runpodctl config --apiKey {s}", t.runpod),
        one("vastai set api-key {s}", lambda: f.hex(64)),
        one("curl -u {s}: https://cloud.lambdalabs.com/api/v1/instance-types", t.lambda_key),
        one("kubeadm join 10.0.0.10:6443 --token {s} --discovery-token-ca-cert-hash sha256:" + f.hex(64), t.kubeadm),
        one("kubectl config set-credentials ada --token={s}", lambda: f.jwt()),
        one(
            "kubectl create secret docker-registry regcred --docker-server=ghcr.io --docker-username=ada --docker-password={s}",
            t.ghp,
        ),
        one(
            '~/.terraform.d/credentials.tfrc.json\n{\n  "credentials": {\n    "app.terraform.io": {\n      "token": "{s}"\n    }\n  }\n}',
            t.terraform,
        ),
        one("TF_TOKEN_app_terraform_io={s} terraform init -upgrade", t.terraform),
        one("vault login -method=userpass username=ada password={s}", p),
        one("vault login {s}", t.vault),
        one("printf 'protocol=https\\nhost=git.acme.dev\\nusername=ada\\npassword={s}\\n' | git credential approve", p),
        one('git config --global url."https://oauth2:{s}@gitlab.com/".insteadOf "https://gitlab.com/"', t.glpat),
        one("poetry config pypi-token.pypi {s}", lambda: "pypi-AgEIcHlwaS5vcmc" + f.pick(URLSAFE, 70)),
        one("cargo login {s}", t.crates),
        one("~/.gem/credentials\n---\n:rubygems_api_key: {s}", t.rubygems),
        one(
            "dotnet nuget add source https://nuget.pkg.github.com/acme/index.json -n github -u ada -p {s} --store-password-in-clear-text",
            t.ghp,
        ),
        one("mvn -B deploy -Drepo.username=ci -Drepo.password={s}", p),
        one("anaconda login --username ada-lab --password {s}", p),
        one("rclone config create b2store b2 account 0051a2b3c4d5e6f0000000003 key {s}", t.b2_key),
        one("restic -r sftp:u123@u123.your-storagebox.de:/ckpt --password-command 'echo {s}' snapshots", p),
        one("BORG_PASSPHRASE='{s}' borg create ssh://u123@u123.your-storagebox.de:23/./repo::ckpt-{now} /data", p),
        one(
            "echo '{s}' > ~/.vault_pass && ansible-vault view group_vars/all/vault.yml --vault-password-file ~/.vault_pass",
            p,
        ),
        one("ansible-playbook -i hosts site.yml -e ansible_become_password={s}", p),
        one(
            "modal token set --token-id ak-" + f.pick(ALNUM, 22) + " --token-secret {s} --profile=acme", t.modal_secret
        ),
        one("sops -d secrets.enc.yaml\n# with\nexport SOPS_AGE_KEY={s}", t.age),
        one(
            "# created: 2026-11-30T10:12:44Z\n# public key: age1" + f.pick(BECH32, 58) + "\n{s}",
            t.age,
        ),
        one('bitcoin-cli -rpcwallet=payouts importprivkey {s} "gpu-refunds" false', f.wif),
    ]


def _words(f: Fakes, t: Tokens) -> list[Sample]:
    p = f.password
    return [
        one("pw for the box: {s}", p),
        one("the root pass on gpu-12 is {s} if you need to get in and look", p),
        one("creds → ada / {s}", p),
        one("Here's the token you asked for: {s}\nit has read access only", t.hf),
        one("use this one instead {s} (the wandb key, the old one is dead)", t.wandb),
        one("As requested, the API key is below.\n\n{s}\n\nPlease delete this message afterwards.", t.ngc),
        one("sudo password = {s}", p),
        one("jupyter wants a token, it's {s}", lambda: f.hex(48)),
        one("the passphrase for id_ed25519 is {s} (I know, I'll change it)", p),
        one("not a PIN, it's the account password: {s}", p),
        one("la contraseña del servidor es {s}, ya la probé dos veces", p),
        one("te paso el token: {s}", t.hf),
        one("mi clave privada de MetaMask: 0x{s} — ¿podéis devolver el pago?", f.eth_key),
        one("clave de acceso al panel: {s}", p),
        one("mật khẩu root là {s} nhé anh", p),
        one("đây là token của em: {s}", t.ghp),
        one("mk: {s} (tài khoản ada)", p),
        one("pass vps: {s}", p),
        one("khóa bí mật ví Solana của em: {s}", f.solana_keypair_b58),
        one("şifre: {s}", p),
        one("sunucu parolası {s} olarak ayarlandı ama giriş yapamıyorum", p),
        one("API anahtarım {s}, neden 401 alıyorum?", t.wandb),
        one("özel anahtarım şu: 0x{s}", f.eth_key),
        one("gizli anahtar {s}", lambda: f.pick(B64, 40)),
    ]


def _wallets_and_keys(f: Fakes, t: Tokens) -> list[Sample]:
    def json_lines() -> str:
        return json.dumps(list(f.solana_keypair()), indent=2)[2:-2]

    def ppk_lines() -> str:
        return "\n".join(f.pick(B64, 64) for _ in range(2)) + "\n" + f.pick(B64, 22) + "="

    return [
        one(
            "Phantom → Settings → Export Private Key gave me {s}, I imported it in the script, balance is 0",
            f.solana_keypair_b58,
        ),
        one("const payer = Keypair.fromSecretKey(Uint8Array.from([{s}]));", lambda: f.solana_keypair_json()[1:-1]),
        one("cat ~/.config/solana/devnet.json\n[\n{s}\n]", json_lines),
        one(
            "$ solana-keygen new -o payer.json\nGenerating a new keypair\nWrote new keypair to payer.json\n"
            "===========================================================================\n"
            "pubkey: " + f.solana_address() + "\n"
            "===========================================================================\n"
            "Save this seed phrase and your BIP39 passphrase to recover your new keypair:\n{s}\n"
            "===========================================================================",
            lambda: f.seed_phrase(12),
        ),
        one("metamask private key {s} — the wallet I paid from", f.eth_key),
        one("ví eth của mình, private key: 0x{s}", f.eth_key),
        one("cast wallet import deployer --private-key {s}", lambda: "0x" + f.eth_key()),
        one(
            "$ brownie accounts new deployer\nEnter the private key you wish to add: 0x{s}\nEnter the password to encrypt this account with:",
            f.eth_key,
        ),
        one("12 từ khôi phục của em: {s}", lambda: f.seed_phrase(12)),
        one("kurtarma kelimelerim: {s}", lambda: f.seed_phrase(12)),
        one("frase semilla (24 palabras): {s}", lambda: f.seed_phrase(24)),
        one("xprv for the hot wallet that pays the invoices: {s}", f.xprv),
        with_body("$ cat ~/.ssh/id_ed25519\n{s}", lambda: pem(f, "OPENSSH PRIVATE KEY", 4)),
        one(
            "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: ada@laptop\nPublic-Lines: 2\n"
            + f.pick(B64, 64)
            + "\n"
            + f.pick(B64, 4)
            + "\nPrivate-Lines: 1\n{s}\nPrivate-MAC: "
            + f.hex(64),
            lambda: f.pick(B64, 43) + "=",
        ),
        one(
            "PuTTY-User-Key-File-2: ssh-rsa\nEncryption: none\nComment: rsa-key-20261130\nPrivate-Lines: 3\n{s}",
            ppk_lines,
        ),
        with_body(
            "the key you need to add to the box (encrypted, passphrase in the next message):\n{s}",
            lambda: pem(f, "ENCRYPTED PRIVATE KEY", 6),
        ),
        with_body("gpg --export-secret-keys --armor ada@acme.dev\n{s}", lambda: pem(f, "PGP PRIVATE KEY BLOCK", 6)),
    ]


def positives(f: Fakes) -> list[tuple[str, list[str]]]:
    t = Tokens(f)
    out: list[tuple[str, list[str]]] = []
    builders: list[Callable[[], tuple[str, list[str]]]] = [
        *_flags_and_logins(f, t),
        *_words(f, t),
        *_wallets_and_keys(f, t),
    ]
    for build in builders:
        repeat(2, out, build)
    return out


def main() -> None:
    # each batch draws from its own generator, so that adding the second left the first one's texts as they were
    first, second = Fakes(seed=1206122026), Fakes(seed=1606122026)
    pos, neg = positives(first), negatives(first)
    for build in positives_batch2(second):
        repeat(2, pos, build)
    check_and_write(OUT, "t6", pos, neg + negatives_batch2(second))


if __name__ == "__main__":
    main()

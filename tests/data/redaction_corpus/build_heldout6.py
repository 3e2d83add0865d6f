# ruff: noqa: E501, S608  (one realistic sample per line reads better than wrapped ones; the SQL is text a customer pasted)
"""Build the SIXTH held-out part of the redaction corpus (`heldout6/*.jsonl`): about 350 support requests with a
pasted secret and 500 clean ones, balanced like a real inbox (API tokens, passwords in commands and configs and
keys most; rarer families fewer).

Written (issue 15, 2026-12-03, round 6) by an engineer (`hcorpus6`) who did not open the patterns
(`gpurent/core/redaction/`), did not read the tuning parts or their builders, did not run the redactor or
`bench/redaction_recall.py` on any text and never saw which of them it misses or changes; the pattern author
measures it once and never tunes on it. Format as `build_heldout5.py`. Wordings, tools and files are mostly ones
the earlier parts' descriptions do not list (GPU-cloud CLIs, container registries other than Docker Hub, NGC,
MLOps trackers, backup tools, package-manager logins, libpq keyword strings, SASL/JAAS, expect scripts, PGP and
age keys, Bitcoin descriptors, Hardhat mnemonics, provider tokens of AI inference APIs and SaaS tools in the
shapes of gitleaks / trufflehog rules) plus a share of the ones they do. Negatives are in `heldout6_negatives.py`.

Run once: `.venv/bin/python -m tests.data.redaction_corpus.build_heldout6`; the output is committed.
The build checks itself (`checks.check_and_write`).
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from pathlib import Path

from .checks import check_and_write
from .fakes import ALNUM, B64, LOWER, UPPER, URLSAFE, Fakes
from .heldout6_negatives import negatives
from .heldout6_negatives import wrap as _wrap

OUT = Path(__file__).resolve().parent / "heldout6"
DIGITS = "0123456789"
SEED = 6_20261203
BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
Sample = tuple[str, list[str]]  # a text and the secrets in it


def _ip(f: Fakes) -> str:
    return f"{f.rng.randint(23, 223)}.{f.rng.randint(0, 255)}.{f.rng.randint(0, 255)}.{f.rng.randint(2, 254)}"


def _host(f: Fakes) -> str:
    return f.choice([_ip(f), f"node{f.rng.randint(1, 48)}.cluster.local", f"db.{f.pick(LOWER, 5)}.lab", "10.8.0.1"])


def _pw(f: Fakes) -> str:
    """A password that needs no quoting in a shell, a URL or JSON."""
    style = f.rng.randrange(4)
    if style == 0:
        return (
            f.choice(["Aurora", "pelican", "Mariposa", "Hanoi", "Kestrel", "Galata", "Tundra", "vortex"])
            + f.pick(DIGITS, 4)
            + f.choice(["", "x", "_k", "Z"])
        )
    if style == 1:
        return f.pick(ALNUM, f.rng.randint(12, 20))
    if style == 2:
        return f.pick(ALNUM + "_.-", f.rng.randint(14, 26))
    return f.pick(LOWER, 6) + "-" + f.pick(LOWER, 6) + "-" + f.pick(DIGITS, 2)


def _user(f: Fakes) -> str:
    return f.choice(["root", "ubuntu", "admin", "mlops", "trainer", "ci-bot", "lab", "deployer"])


def pem(f: Fakes, label: str, lines: int = 6, headers: str = "") -> tuple[str, list[str]]:
    body = [f.pick(B64, 64) for _ in range(lines)]
    tail = f.pick(B64, f.rng.randint(20, 50)) + f.choice(["=", "==", ""])
    return f"-----BEGIN {label}-----\n{headers}" + "\n".join([*body, tail]) + f"\n-----END {label}-----", body


def positives(f: Fakes) -> list[Sample]:
    out: list[Sample] = []

    def add(build: Callable[[], Sample], times: int = 3, lang: str = "en") -> None:
        for _ in range(times):
            text, secrets = build()
            out.append((_wrap(f, text, lang) if f.rng.random() < 0.55 else text, secrets))

    # --- database clients ---------------------------------------------------------------------------------------
    def libpq() -> Sample:
        pw = _pw(f)
        return f.choice(
            [
                f'pg_dump "host={_host(f)} port=5432 dbname=features user=etl password={pw} sslmode=require" -Fc -f feat.dump\npg_dump: error: connection to server failed: timeout expired',
                f"psql 'postgresql:///vectors?host={_host(f)}&user=rag&password={pw}'\npsql: error: could not connect to server: No route to host",
            ]
        ), [pw]

    def pgpassword() -> Sample:
        pw = _pw(f)
        return (
            f"PGPASSWORD={pw} psql -h {_host(f)} -U analytics -d warehouse -c '\\dt'\npsql: error: connection to server at \"{_host(f)}\", port 5432 failed: Connection timed out",
            [pw],
        )

    def mongosh() -> Sample:
        pw = _pw(f)
        return f.choice(
            [
                f"mongosh --host {_host(f)} --port 27017 -u {_user(f)} --password {pw} --authenticationDatabase admin\nMongoServerSelectionError: connection timed out",
                f'mongodump --uri="mongodb://{_user(f)}:{pw}@{_host(f)}:27017/?authSource=admin" --gzip --archive=/data/dump.gz\nFailed: can\'t create session: could not connect',
            ]
        ), [pw]

    def clickhouse() -> Sample:
        pw = _pw(f)
        return (
            f"clickhouse-client --host {_host(f)} --secure --user default --password {pw} --query 'SELECT count() FROM events'\nCode: 210. DB::NetException: Connection refused",
            [pw],
        )

    def sqlcmd() -> Sample:
        pw = _pw(f)
        return (
            f"sqlcmd -S {_host(f)},1433 -U sa -P '{pw}' -Q \"SELECT @@VERSION\"\nSqlcmd: Error: Microsoft ODBC Driver 18 for SQL Server : Login timeout expired.",
            [pw],
        )

    def cypher() -> Sample:
        pw = _pw(f)
        return (
            f"cypher-shell -a neo4j+s://{_host(f)}:7687 -u neo4j -p {pw} 'MATCH (n) RETURN count(n);'\nUnable to establish connection",
            [pw],
        )

    def influx() -> Sample:
        token = f.pick(URLSAFE, 86) + "=="
        return (
            f"influx write --host http://{_host(f)}:8086 --org lab --bucket gpu_metrics --token {token} -f metrics.lp\nError: failed to write data: 401 Unauthorized: unauthorized access",
            [token],
        )

    def mysqldump() -> Sample:
        pw = _pw(f)
        return (
            f"mysqldump --single-transaction -h {_host(f)} -u backup --password={pw} shop > shop.sql\nmysqldump: Got error: 2003: Can't connect to MySQL server",
            [pw],
        )

    def etcd() -> Sample:
        pw = _pw(f)
        return (
            f"ETCDCTL_API=3 etcdctl --endpoints=https://{_ip(f)}:2379 --user root:{pw} get /registry --prefix --keys-only\ncontext deadline exceeded",
            [pw],
        )

    def kafka_jaas() -> Sample:
        pw = _pw(f)
        return (
            f'client.properties:\nsecurity.protocol=SASL_SSL\nsasl.mechanism=SCRAM-SHA-512\nsasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="ingest" password="{pw}";\nkafka-console-consumer hangs from the instance',
            [pw],
        )

    def rabbitmqadmin() -> Sample:
        pw = _pw(f)
        return (
            f"rabbitmqadmin -H {_host(f)} -u admin -p {pw} list queues\n*** Could not connect: [Errno 110] Connection timed out",
            [pw],
        )

    add(libpq, 4)
    add(pgpassword, 4)
    add(mongosh, 4)
    add(clickhouse, 2)
    add(sqlcmd, 3)
    add(cypher, 2)
    add(influx, 2)
    add(mysqldump, 3)
    add(etcd, 2)
    add(kafka_jaas, 2)
    add(rabbitmqadmin, 2)

    # --- ssh and remote shells ----------------------------------------------------------------------------------
    def sshpass_env() -> Sample:
        pw = _pw(f)
        return (
            f"export SSHPASS='{pw}'\nsshpass -e ssh -o StrictHostKeyChecking=no -p 2222 {_user(f)}@{_ip(f)}\nPermission denied, please try again.",
            [pw],
        )

    def sshpass_p() -> Sample:
        pw = _pw(f)
        return (
            f"sshpass -p {pw} rsync -e 'ssh -p 41022' -a ./ckpt/ root@{_ip(f)}:/workspace/ckpt/\nrsync: connection unexpectedly closed",
            [pw],
        )

    def expect() -> Sample:
        pw = _pw(f)
        return (
            f'my login script stopped working after the migration:\n#!/usr/bin/expect -f\nspawn ssh -p 2222 {_user(f)}@{_ip(f)}\nexpect "password:"\nsend "{pw}\\r"\ninteract',
            [pw],
        )

    def paramiko() -> Sample:
        pw = _pw(f)
        return (
            f'client = paramiko.SSHClient()\nclient.connect("{_ip(f)}", port=2222, username="{_user(f)}", password="{pw}")\nparamiko.ssh_exception.NoValidConnectionsError',
            [pw],
        )

    def chpasswd_prose() -> Sample:
        pw = _pw(f)
        return (
            f"I ran `echo 'ubuntu:{pw}' | sudo chpasswd` on the instance to allow password login and now sshd refuses everything",
            [pw],
        )

    add(sshpass_env, 3)
    add(sshpass_p, 3)
    add(expect, 3)
    add(paramiko, 3)
    add(chpasswd_prose, 2)

    # --- ML tools ----------------------------------------------------------------------------------------------
    def wandb_variants() -> Sample:
        key = f.hex(40)
        return f.choice(
            [
                f"wandb login --relogin --host https://wandb.lab.example {key}\nwandb: ERROR Unable to verify login with the host (check --host)",
                f'import wandb\nwandb.login(key="{key}")\nwandb: Network error (ConnectTimeout), entering retry loop.',
                f"WANDB_API_KEY={key} accelerate launch train.py --config cfg.yaml\nwandb: ERROR Error communicating with wandb process",
            ]
        ), [key]

    def hf_variants() -> Sample:
        token = "hf_" + f.pick(ALNUM, 34)
        return f.choice(
            [
                f"hf auth login --token {token} --add-to-git-credential\nToken is valid (permission: write).\nbut then git push to the Space hangs",
                f"HF_TOKEN={token} vllm serve meta-llama/Llama-3.1-70B-Instruct --tensor-parallel-size 4\nOSError: You are trying to access a gated repo.",
                f"git clone https://trainer:{token}@huggingface.co/datasets/acme/private-sft\nfatal: unable to access: Could not resolve host: huggingface.co",
                f'from huggingface_hub import login\nlogin("{token}")\nHTTPError: 401 Client Error',
                f"docker run --gpus all -e HUGGING_FACE_HUB_TOKEN={token} -p 8080:80 ghcr.io/huggingface/text-generation-inference:2.4 --model-id mistralai/Mistral-7B-Instruct-v0.3\nthe container exits with code 137",
            ]
        ), [token]

    def ngc() -> Sample:
        key = "nvapi-" + f.pick(URLSAFE, 64)
        return f.choice(
            [
                f"docker login nvcr.io --username '$oauthtoken' --password {key}\nError response from daemon: Get \"https://nvcr.io/v2/\": unauthorized",
                f"ngc config set\nEnter API key [no-apikey]. Choices: [<VALID_APIKEY>, 'no-apikey']: {key}\nError: Invalid apikey",
                f"~/.config/enroot/.credentials\nmachine nvcr.io login $oauthtoken password {key}\nenroot import docker://nvcr.io#nvidia/pytorch:24.10-py3 fails with 401",
                f"export NGC_API_KEY={key}\ndocker run --gpus all -e NGC_API_KEY -p 8000:8000 nvcr.io/nim/meta/llama-3.1-8b-instruct:latest\nthe NIM container cannot download the profile",
            ]
        ), [key]

    def mlflow() -> Sample:
        pw = _pw(f)
        return (
            f"export MLFLOW_TRACKING_URI=https://mlflow.lab.example\nexport MLFLOW_TRACKING_USERNAME=trainer\nexport MLFLOW_TRACKING_PASSWORD={pw}\nmlflow.exceptions.MlflowException: API request failed with error code 401",
            [pw],
        )

    def neptune() -> Sample:
        payload = json.dumps(
            {"api_address": "https://app.neptune.ai", "api_url": "https://app.neptune.ai", "api_key": f.uuid()}
        )
        token = base64.b64encode(payload.encode()).decode()
        return f'export NEPTUNE_API_TOKEN="{token}"\nneptune: ERROR Could not connect to Neptune server', [token]

    def clearml() -> Sample:
        access, secret = f.pick(UPPER, 30), f.pick(ALNUM, 50)
        return (
            f'~/clearml.conf\napi {{\n    web_server: https://app.clear.ml\n    credentials {{\n        "access_key" = "{access}"\n        "secret_key" = "{secret}"\n    }}\n}}\nclearml-agent daemon --queue gpu says 401',
            [access, secret],
        )

    def dvc() -> Sample:
        secret = f.pick(B64, 40)
        return (
            f"dvc remote modify --local storage secret_access_key {secret}\ndvc pull\nERROR: failed to pull data from the cloud - 403 Forbidden",
            [secret],
        )

    def vllm_key() -> Sample:
        key = f.choice(["sk-", "token-", ""]) + f.pick(ALNUM, 32)
        return (
            f"vllm serve Qwen/Qwen2.5-32B-Instruct --port 8000 --api-key {key} --max-model-len 32768\nclients get 401 even with the right header",
            [key],
        )

    def jupyter_flag() -> Sample:
        token = f.hex(48)
        return (
            f"jupyter lab --no-browser --ip 0.0.0.0 --port 8888 --IdentityProvider.token={token}\nthe page keeps asking for a password",
            [token],
        )

    def label_studio() -> Sample:
        pw = _pw(f)
        return (
            f"label-studio start --port 8080 --username annot@lab.example --password {pw}\nthe login page loops back to itself",
            [pw],
        )

    def litellm() -> Sample:
        key = "sk-" + f.pick(ALNUM, 22)
        return (
            f"litellm proxy config.yaml:\ngeneral_settings:\n  master_key: {key}\nmodel_list:\n  - model_name: local\n    litellm_params: {{model: openai/local, api_base: http://localhost:8000/v1}}\nproxy returns 400",
            [key],
        )

    add(wandb_variants, 7)
    add(hf_variants, 9)
    add(ngc, 7)
    add(mlflow, 3)
    add(neptune, 2)
    add(clearml, 2)
    add(dvc, 2)
    add(vllm_key, 4)
    add(jupyter_flag, 2)
    add(label_studio, 2)
    add(litellm, 2)

    # --- registries and containers -----------------------------------------------------------------------------
    def podman() -> Sample:
        pw = _pw(f)
        return f.choice(
            [
                f'podman login quay.io -u {_user(f)} -p {pw}\nError: authenticating creds for "quay.io": invalid username/password',
                f"apptainer registry login --username {_user(f)} --password {pw} docker://registry.lab.example\nFATAL: while logging in: unauthorized",
                f"skopeo copy --src-creds {_user(f)}:{pw} docker://registry.lab.example/train:v3 oci-archive:/data/train.tar\nFATAL: initializing source: unauthorized",
                f"helm registry login registry.lab.example --username {_user(f)} --password {pw}\nError: login attempt failed with status: 401",
            ]
        ), [pw]

    def ghcr() -> Sample:
        token = "ghp_" + f.pick(ALNUM, 36)
        return f"echo {token} | docker login ghcr.io -u labbot --password-stdin\nError response from daemon: denied", [
            token
        ]

    def regcred() -> Sample:
        pw = _pw(f)
        return (
            f"kubectl create secret docker-registry regcred --docker-server=registry.lab.example --docker-username=puller --docker-password={pw} -n inference\npods stay in ImagePullBackOff",
            [pw],
        )

    add(podman, 6)
    add(ghcr, 3)
    add(regcred, 3)

    # --- cloud and GPU clouds ----------------------------------------------------------------------------------
    def az_sp() -> Sample:
        secret = f.pick(ALNUM + "_~.", 3) + f.choice(DIGITS) + "Q~" + f.pick(ALNUM + "_~.-", 34)
        return (
            f"az login --service-principal -u {f.uuid()} -p {secret} --tenant {f.uuid()}\nAADSTS7000215: Invalid client secret provided.",
            [secret],
        )

    def aliyun() -> Sample:
        key_id, secret = "LTAI" + f.pick(ALNUM, 20), f.pick(ALNUM, 30)
        return (
            f"aliyun configure set --profile oss --mode AK --access-key-id {key_id} --access-key-secret {secret} --region cn-hangzhou\nossutil cp fails with InvalidAccessKeyId",
            [key_id, secret],
        )

    def scaleway() -> Sample:
        secret = f.uuid()
        return (
            f"scw init access-key=SCW{f.pick(UPPER, 17)} secret-key={secret} organization-id={f.uuid()}\nscw: error: 401 Unauthorized",
            [secret],
        )

    def gpu_cli() -> Sample:
        return f.choice(
            [
                (lambda k: (f"runpodctl config --apiKey {k}\nError: 401 when listing pods", [k]))(
                    "rpa_" + f.pick(UPPER, 40)
                ),
                (lambda k: (f"vastai set api-key {k}\nvastai show instances → 401 Unauthorized", [k]))(f.hex(64)),
                (
                    lambda k: (
                        f"modal token set --token-id ak-{f.pick(ALNUM, 22)} --token-secret {k}\nmodal.exception.AuthError",
                        [k],
                    )
                )("as-" + f.pick(ALNUM, 22)),
                (lambda k: (f"linode-cli configure --token {k}\nRequest failed: 401", [k]))(f.hex(64)),
                (
                    lambda k: (
                        f"export HCLOUD_TOKEN={k}\nhcloud server list\nhcloud: unable to authenticate your API token (unauthorized)",
                        [k],
                    )
                )(f.pick(ALNUM, 64)),
                (lambda k: (f"ibmcloud login --apikey {k} -r us-south\nFAILED Unable to authenticate.", [k]))(
                    f.pick(URLSAFE, 44)
                ),
            ]
        )

    def do_token() -> Sample:
        token = "dop_v1_" + f.hex(64)
        return f"doctl auth init --context lab --access-token {token}\nError: Unable to use default config file", [
            token
        ]

    def gcloud_key() -> Sample:
        block, body = pem(f, "PRIVATE KEY", 8)
        escaped = block.replace("\n", "\\n")
        return (
            '{"type": "service_account", "project_id": "gpu-batch-7", "private_key": "'
            + escaped
            + '\\n", "client_email": "batch@gpu-batch-7.iam.gserviceaccount.com"}\ngcloud auth activate-service-account --key-file=key.json → invalid_grant',
            body,
        )

    def aws_env() -> Sample:
        key_id, secret = "AKIA" + f.pick("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16), f.pick(B64, 40)
        return f.choice(
            [
                f"AWS_ACCESS_KEY_ID={key_id} AWS_SECRET_ACCESS_KEY={secret} aws s3 sync s3://lab-ckpts/run7 /data/run7\nfatal error: An error occurred (SignatureDoesNotMatch)",
                f"s5cmd --endpoint-url https://s3.lab.example cp 's3://weights/*' /data/ with\naccess key: {key_id}\nsecret key: {secret}\nERROR AccessDenied",
                f"boto3.client('s3', aws_access_key_id='{key_id}', aws_secret_access_key='{secret}').list_buckets()\nbotocore.exceptions.ConnectTimeoutError",
            ]
        ), [key_id, secret]

    add(az_sp, 4)
    add(aliyun, 2)
    add(scaleway, 2)
    add(gpu_cli, 8)
    add(do_token, 2)
    add(gcloud_key, 2)
    add(aws_env, 6)

    # --- kubernetes, terraform, vault --------------------------------------------------------------------------
    def kubectl() -> Sample:
        token = f.choice([f.jwt(), f.pick(URLSAFE, 48)])
        return f.choice(
            [
                f"kubectl config set-credentials lab-admin --token={token}\nkubectl get nodes\nerror: You must be logged in to the server (Unauthorized)",
                f"kubectl --server https://{_ip(f)}:6443 --token {token} --insecure-skip-tls-verify get pods -A\nUnable to connect to the server: dial tcp: i/o timeout",
            ]
        ), [token]

    def kube_literal() -> Sample:
        pw = _pw(f)
        return (
            f"kubectl create secret generic pg-auth --from-literal=username=app --from-literal=password={pw} -n rag\nthe pod still logs 'password authentication failed'",
            [pw],
        )

    def terraform() -> Sample:
        return f.choice(
            [
                (
                    lambda pw: (
                        f'terraform apply -var "db_password={pw}" -var region=eu-west-1\nError: creating RDS DB Instance: timeout',
                        [pw],
                    )
                )(_pw(f)),
                (lambda k: (f"export TF_VAR_hcloud_token={k}\nterraform plan\nError: unable to authenticate", [k]))(
                    f.pick(ALNUM, 64)
                ),
                (
                    lambda k: (
                        f'~/.terraform.d/credentials.tfrc.json\n{{\n  "credentials": {{\n    "app.terraform.io": {{\n      "token": "{k}"\n    }}\n  }}\n}}\nterraform init hangs',
                        [k],
                    )
                )(f.pick(ALNUM, 14) + ".atlasv1." + f.pick(URLSAFE, 67)),
            ]
        )

    def vault() -> Sample:
        return f.choice(
            [
                (
                    lambda t: (
                        f"VAULT_ADDR=https://vault.lab.example VAULT_TOKEN={t} vault kv get secret/train/db\nError making API request. Code: 403",
                        [t],
                    )
                )("hvs." + f.pick(URLSAFE, 24)),
                (
                    lambda s: (
                        f"vault write auth/approle/login role_id={f.uuid()} secret_id={s}\nCode: 400. Errors: * invalid role or secret ID",
                        [s],
                    )
                )(f.uuid()),
                (
                    lambda pw: (
                        f"vault kv put secret/inference/db username=svc password={pw}\nError writing data: permission denied",
                        [pw],
                    )
                )(_pw(f)),
            ]
        )

    add(kubectl, 5)
    add(kube_literal, 3)
    add(terraform, 5)
    add(vault, 5)

    # --- git -----------------------------------------------------------------------------------------------------
    def git_remote() -> Sample:
        return f.choice(
            [
                (
                    lambda t: (
                        f"git remote set-url origin https://oauth2:{t}@gitlab.com/lab/diffusion.git\ngit push → HTTP Basic: Access denied",
                        [t],
                    )
                )("glpat-" + f.pick(URLSAFE, 20)),
                (
                    lambda t: (
                        f'git -c http.extraHeader="Authorization: Bearer {t}" clone https://git.lab.example/ml/train.git\nfatal: unable to access: SSL certificate problem',
                        [t],
                    )
                )(f.pick(ALNUM, 40)),
                (
                    lambda t: (
                        f"gh auth login --with-token <<< {t}\nerror validating token: HTTP 401: Bad credentials",
                        [t],
                    )
                )("gho_" + f.pick(ALNUM, 36)),
                (
                    lambda t: (
                        f"git clone https://x-token-auth:{t}@bitbucket.org/lab/data-tools.git\nremote: Invalid credentials",
                        [t],
                    )
                )("ATBB" + f.pick(ALNUM, 32)),
                (
                    lambda t: (
                        f"pip install 'git+https://{t}@github.com/lab/flash-ops.git'\nERROR: Command errored out with exit status 128",
                        [t],
                    )
                )("github_pat_" + f.pick(ALNUM, 22) + "_" + f.pick(ALNUM, 59)),
                (
                    lambda t: (
                        f"git clone https://gitlab-ci-token:{t}@gitlab.lab.example/ml/eval.git\nremote: HTTP Basic: Access denied",
                        [t],
                    )
                )("gldt-" + f.pick(URLSAFE, 20)),
            ]
        )

    def git_askpass() -> Sample:
        token = "ghs_" + f.pick(ALNUM, 36)
        return (
            f"cat askpass.sh\n#!/bin/sh\necho {token}\nGIT_ASKPASS=./askpass.sh git fetch → still prompts for Username",
            [token],
        )

    add(git_remote, 10)
    add(git_askpass, 2)

    # --- package registries ------------------------------------------------------------------------------------
    def registries() -> Sample:
        return f.choice(
            [
                (
                    lambda t: (
                        f"poetry config pypi-token.pypi {t}\npoetry publish --build\nHTTP Error 403: Invalid or non-existent authentication information.",
                        [t],
                    )
                )("pypi-AgEIcHlwaS5vcmc" + f.pick(URLSAFE, 120)),
                (
                    lambda pw: (
                        f"poetry config http-basic.lab-nexus deploy {pw}\npoetry install hangs on 'Resolving dependencies'",
                        [pw],
                    )
                )(_pw(f)),
                (lambda t: (f"twine upload -u __token__ -p {t} dist/*\nHTTPError: 403 Forbidden", [t]))(
                    "pypi-AgEIcHlwaS5vcmc" + f.pick(URLSAFE, 100)
                ),
                (lambda t: (f"uv publish --token {t}\nerror: Failed to publish", [t]))(
                    "pypi-AgEIcHlwaS5vcmc" + f.pick(URLSAFE, 110)
                ),
                (
                    lambda pw: (
                        f"UV_INDEX_LAB_USERNAME=ci UV_INDEX_LAB_PASSWORD={pw} uv sync\nerror: Failed to fetch: 401",
                        [pw],
                    )
                )(_pw(f)),
                (
                    lambda t: (
                        f"yarn config set npmAuthToken {t}\nyarn npm publish\nYN0033: No authentication configured for request",
                        [t],
                    )
                )("npm_" + f.pick(ALNUM, 36)),
                (lambda t: (f"cargo login {t}\ncargo publish → error: failed to publish to registry", [t]))(
                    "cio" + f.pick(ALNUM, 32)
                ),
                (
                    lambda t: (
                        f"~/.gem/credentials\n---\n:rubygems_api_key: {t}\ngem push fails with Access Denied",
                        [t],
                    )
                )("rubygems_" + f.hex(48)),
                (
                    lambda t: (
                        f"dotnet nuget push pkg.nupkg --api-key {t} --source https://api.nuget.org/v3/index.json\nerror: Response status code does not indicate success: 403",
                        [t],
                    )
                )("oy2" + f.pick(LOWER, 43)),
                (
                    lambda pw: (
                        f"composer config --global http-basic.repo.lab.example deploy {pw}\ncomposer install → 401",
                        [pw],
                    )
                )(_pw(f)),
                (
                    lambda t: (
                        f"jf c add lab --url https://lab.jfrog.io --access-token {t} --interactive=false\n[Error] server response: 401",
                        [t],
                    )
                )(f.jwt()),
                (
                    lambda pw: (
                        f"helm repo add lab https://charts.lab.example --username deploy --password {pw}\nError: looks like the URL is not a valid chart repository",
                        [pw],
                    )
                )(_pw(f)),
            ]
        )

    add(registries, 14)

    # --- backups, transfer, archives, misc tools ---------------------------------------------------------------
    def backups() -> Sample:
        pw = _pw(f)
        return f.choice(
            [
                f"RESTIC_PASSWORD={pw} restic -r s3:s3.amazonaws.com/lab-backup backup /data/ckpt\nFatal: wrong password or no key found",
                f"export BORG_PASSPHRASE='{pw}'\nborg create ssh://backup@{_ip(f)}/./repo::ckpt-{{now}} /workspace\nRemote: Permission denied (publickey,password).",
                f"wget --user=ds --password={pw} https://data.lab.example/imagenet/train.tar\nHTTP request sent, awaiting response... 401 Unauthorized",
                f"aria2c -x 16 --http-user=ds --http-passwd={pw} https://data.lab.example/laion/part-00001.tar\nerrorCode=24 Authorization failed",
                f"zip -r -P {pw} results.zip eval/\nwhen I download it from the instance it's 0 bytes",
                f'gpg --batch --passphrase "{pw}" -d weights.tar.gpg | tar x\ngpg: decryption failed: Bad session key',
                f'mosquitto_pub -h {_host(f)} -u sensor -P {pw} -t gpu/temp -m "81"\nConnection error: Connection Refused: not authorised.',
                f"openssl enc -aes-256-cbc -d -in data.enc -out data.tar -k {pw}\nbad decrypt",
            ]
        ), [pw]

    def ansible() -> Sample:
        pw = _pw(f)
        return (
            f'ansible-playbook -i inventory.ini site.yml --extra-vars "ansible_user=ubuntu ansible_password={pw} ansible_become_pass={pw}"\nfatal: [gpu1]: UNREACHABLE!',
            [pw],
        )

    def nmcli() -> Sample:
        pw = _pw(f)
        return f"nmcli dev wifi connect LabNet password {pw}\nError: Connection activation failed", [pw]

    def grafana() -> Sample:
        pw = _pw(f)
        return (
            f"grafana-cli admin reset-admin-password {pw}\nthen the UI on port 3000 still says invalid username or password",
            [pw],
        )

    add(backups, 12)
    add(ansible, 2)
    add(nmcli, 1)
    add(grafana, 2)

    # --- env and config files ------------------------------------------------------------------------------------
    def dotenv() -> Sample:
        openai = "sk-proj-" + f.pick(URLSAFE, 74) + "T3BlbkFJ" + f.pick(URLSAFE, 74)
        groq = "gsk_" + f.pick(ALNUM, 52)
        return (
            f"my .env (the app works locally, not on the instance):\nMODEL=llama-3.3-70b\nOPENAI_API_KEY={openai}\nGROQ_API_KEY={groq}\nLOG_LEVEL=debug",
            [openai, groq],
        )

    def compose() -> Sample:
        pw = _pw(f)
        return (
            f"docker-compose.yml\nservices:\n  db:\n    image: pgvector/pgvector:pg16\n    environment:\n      POSTGRES_USER: rag\n      POSTGRES_PASSWORD: {pw}\n    ports: ['5432:5432']\nthe api container can't reach db",
            [pw],
        )

    def settings_toml() -> Sample:
        key, router = f.pick(ALNUM, 32), "sk-or-v1-" + f.hex(64)
        return f.choice(
            [
                (
                    f'.streamlit/secrets.toml\n[openrouter]\napi_key = "{router}"\n[mistral]\napi_key = "{key}"\nstreamlit cloud works, your box does not',
                    [router, key],
                ),
                (
                    f'config.toml\n[providers.mistral]\nendpoint = "https://api.mistral.ai/v1"\napi_key = "{key}"\ntimeouts after 30 s',
                    [key],
                ),
            ]
        )

    def systemd() -> Sample:
        pw = _pw(f)
        return (
            f"/etc/systemd/system/infer.service\n[Service]\nEnvironment=REDIS_URL=redis://default:{pw}@{_ip(f)}:6379/0\nEnvironment=WORKERS=4\nExecStart=/opt/venv/bin/python -m infer.server\nfails after reboot",
            [pw],
        )

    def k8s_yaml() -> Sample:
        token = "nvapi-" + f.pick(URLSAFE, 64)
        return (
            f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: ngc-api\ntype: Opaque\nstringData:\n  NGC_API_KEY: {token}\n---\nthe NIM operator ignores it",
            [token],
        )

    def java_props() -> Sample:
        pw = _pw(f)
        return (
            f"application.properties\nspring.datasource.url=jdbc:postgresql://{_host(f)}:5432/app\nspring.datasource.username=app\nspring.datasource.password={pw}\nHikariPool-1 - Exception during pool initialization.",
            [pw],
        )

    def php_env() -> Sample:
        pw = _pw(f)
        return (
            f"wp-config.php:\ndefine( 'DB_NAME', 'site' );\ndefine( 'DB_USER', 'wp' );\ndefine( 'DB_PASSWORD', '{pw}' );\nError establishing a database connection",
            [pw],
        )

    def pgbouncer() -> Sample:
        pw = _pw(f)
        return (
            f'userlist.txt for pgbouncer:\n"app" "{pw}"\n"stats" "md5{f.hex(32)}"\nclients get "password authentication failed"',
            [pw],
        )

    add(dotenv, 5)
    add(compose, 5)
    add(settings_toml, 3)
    add(systemd, 3)
    add(k8s_yaml, 2)
    add(java_props, 3)
    add(php_env, 2)
    add(pgbouncer, 2)

    # --- provider tokens in code and curl ------------------------------------------------------------------------
    def ai_apis() -> Sample:
        return f.choice(
            [
                (
                    lambda k: (
                        f'curl https://api.groq.com/openai/v1/chat/completions -H "Authorization: Bearer {k}" -d @body.json\ncurl: (28) Connection timed out',
                        [k],
                    )
                )("gsk_" + f.pick(ALNUM, 52)),
                (
                    lambda k: (
                        f'client = OpenAI(base_url="https://openrouter.ai/api/v1", api_key="{k}")\nopenai.APIConnectionError',
                        [k],
                    )
                )("sk-or-v1-" + f.hex(64)),
                (
                    lambda k: (
                        f"XAI_API_KEY={k} python bench.py --provider xai\nhttpx.ConnectError: [Errno -3] Temporary failure in name resolution",
                        [k],
                    )
                )("xai-" + f.pick(ALNUM, 80)),
                (
                    lambda k: (
                        f'perplexity = OpenAI(api_key="{k}", base_url="https://api.perplexity.ai")\nrequests hang',
                        [k],
                    )
                )("pplx-" + f.pick(ALNUM, 48)),
                (lambda k: (f'import replicate\nclient = replicate.Client(api_token="{k}")\nReplicateError: 401', [k]))(
                    "r8_" + f.pick(ALNUM, 37)
                ),
                (
                    lambda k: (
                        f'FIREWORKS_API_KEY={k}\ncurl -H "Authorization: Bearer $FIREWORKS_API_KEY" https://api.fireworks.ai/inference/v1/models → 000',
                        [k],
                    )
                )("fw_" + f.pick(ALNUM, 24)),
                (
                    lambda k: (
                        f"export LANGSMITH_API_KEY={k}\nexport LANGSMITH_TRACING=true\nlangsmith.utils.LangSmithConnectionError",
                        [k],
                    )
                )("lsv2_pt_" + f.hex(32) + "_" + f.hex(10)),
                (
                    lambda k: (
                        f'pc = Pinecone(api_key="{k}")\nindex = pc.Index("rag")\nPineconeApiException: (401)',
                        [k],
                    )
                )("pcsk_" + f.pick(ALNUM, 5) + "_" + f.pick(ALNUM, 63)),
                (lambda k: (f'co = cohere.ClientV2(api_key="{k}")\ncohere.errors.UnauthorizedError', [k]))(
                    f.pick(ALNUM, 40)
                ),
                (
                    lambda k: (
                        f'client = Anthropic(api_key="{k}")\nanthropic.APIConnectionError: Connection error.',
                        [k],
                    )
                )("sk-ant-api03-" + f.pick(URLSAFE, 93) + "AA"),
                (
                    lambda k: (
                        f'genai.configure(api_key="{k}")\ngoogle.api_core.exceptions.RetryError: Deadline exceeded',
                        [k],
                    )
                )("AIza" + f.pick(URLSAFE, 35)),
                (
                    lambda k: (
                        f"ELEVENLABS_API_KEY={k} python tts.py\nelevenlabs.core.api_error.ApiError: status_code: 401",
                        [k],
                    )
                )("sk_" + f.hex(48)),
                (
                    lambda k: (
                        f'DEEPSEEK_API_KEY={k}\nclient = OpenAI(api_key=os.environ["DEEPSEEK_API_KEY"], base_url="https://api.deepseek.com") → timeout',
                        [k],
                    )
                )("sk-" + f.hex(32)),
                (lambda k: (f"TOGETHER_API_KEY={k} python eval.py\ntogether.error.AuthenticationError", [k]))(
                    f.hex(64)
                ),
                (lambda k: (f'CEREBRAS_API_KEY="{k}"\ncerebras.cloud.sdk.AuthenticationError', [k]))(
                    "csk-" + f.pick(LOWER, 48)
                ),
                (lambda k: (f'fc = FirecrawlApp(api_key="{k}")\nrequests.exceptions.ConnectionError', [k]))(
                    "fc-" + f.hex(32)
                ),
            ]
        )

    def saas_tokens() -> Sample:
        return f.choice(
            [
                (
                    lambda k: (
                        f"DATABRICKS_HOST=https://adb-{f.pick(DIGITS, 16)}.azuredatabricks.net\nDATABRICKS_TOKEN={k}\ndatabricks fs cp fails with 403",
                        [k],
                    )
                )("dapi" + f.pick("abcdefgh" + DIGITS, 32)),
                (
                    lambda k: (
                        f'curl -H "Authorization: {k}" https://api.linear.app/graphql -d @q.json\n→ 000 from the instance',
                        [k],
                    )
                )("lin_api_" + f.pick(ALNUM, 40)),
                (lambda k: (f'notion = Client(auth="{k}")\nnotion_client.errors.RequestTimeoutError', [k]))(
                    "ntn_" + f.pick(DIGITS, 11) + f.pick(ALNUM, 35)
                ),
                (lambda k: (f"postman collection run with --env-var apiKey={k} fails", [k]))(
                    "PMAK-" + f.hex(24) + "-" + f.hex(34)
                ),
                (
                    lambda k, lic: (
                        f"newrelic.ini\nlicense_key = {lic}\nNEW_RELIC_API_KEY={k}\nagent cannot connect",
                        [k, lic],
                    )
                )("NRAK-" + f.pick(UPPER, 27), f.hex(36) + "NRAL"),
                (
                    lambda k: (
                        f'curl -H "Authorization: Bearer {k}" http://{_ip(f)}:3000/api/dashboards/uid/gpu\n→ 401 Invalid API key',
                        [k],
                    )
                )("glsa_" + f.pick(ALNUM, 32) + "_" + f.hex(8)),
                (lambda k: (f"sentry-cli --auth-token {k} releases new v1.4\nerror: API request failed", [k]))(
                    "sntryu_" + f.hex(64)
                ),
                (
                    lambda k: (
                        f"doppler configure set token {k} --scope /srv/app\nDoppler Error: Unable to fetch secrets",
                        [k],
                    )
                )("dp.pt." + f.pick(ALNUM, 43)),
                (
                    lambda k: (
                        f"pulumi login --cloud-url https://api.pulumi.com with PULUMI_ACCESS_TOKEN={k}\nerror: unauthorized",
                        [k],
                    )
                )("pul-" + f.hex(40)),
                (
                    lambda k: (
                        f'shopify.Session.setup(api_key=KEY, secret=SECRET)\nheaders = {{"X-Shopify-Access-Token": "{k}"}}\nrequests hang',
                        [k],
                    )
                )("shpat_" + f.hex(32)),
                (
                    lambda k: (
                        f"curl -s --user 'api:{k}' https://api.mailgun.net/v3/lab.example/messages -F to=me@lab.example\n→ Forbidden",
                        [k],
                    )
                )("key-" + f.hex(32)),
                (lambda k: (f"BREVO_API_KEY={k}\nsib_api_v3_sdk.rest.ApiException: (401)", [k]))(
                    "xkeysib-" + f.hex(64) + "-" + f.pick(ALNUM, 16)
                ),
                (lambda k: (f"DT_API_TOKEN={k} ./oneagent.sh\nInvalid token", [k]))(
                    "dt0c01." + f.pick(UPPER, 24) + "." + f.pick(UPPER, 64)
                ),
                (
                    lambda k: (
                        f"flyctl deploy with FLY_API_TOKEN={k}\nError: failed to fetch an image or build from source",
                        [k],
                    )
                )("fo1_" + f.pick(URLSAFE, 43)),
                (lambda k: (f"PLANETSCALE password string: {k}\nmysql: ERROR 1045 (28000): Access denied", [k]))(
                    "pscale_pw_" + f.pick(URLSAFE, 43)
                ),
                (lambda k: (f"contentful space export --management-token {k}\nError: 401", [k]))(
                    "CFPAT-" + f.pick(URLSAFE, 43)
                ),
                (
                    lambda k: (
                        f"SUPABASE_ACCESS_TOKEN={k} supabase db push\nUnexpected error retrieving remote project status",
                        [k],
                    )
                )("sbp_" + f.hex(40)),
                (lambda k: (f"render deploy: RENDER_API_KEY={k}\n401 from api.render.com", [k]))(
                    "rnd_" + f.pick(ALNUM, 32)
                ),
                (lambda k: (f"neonctl branches list --api-key {k}\nERROR: 401", [k]))("napi_" + f.pick(LOWER, 64)),
                (lambda k: (f"HEROKU_API_KEY={k} heroku ps -a labbot\n›   Error: Invalid credentials provided.", [k]))(
                    "HRKU-AA" + f.pick(URLSAFE, 58)
                ),
                (lambda k: (f"infracost configure set api_key {k}\nError: invalid API key", [k]))(
                    "ico-" + f.pick(ALNUM, 32)
                ),
                (lambda k: (f"prefect cloud login -k {k}\nUnable to authenticate with Prefect Cloud", [k]))(
                    "pnu_" + f.pick(ALNUM, 36)
                ),
                (lambda k: (f"curl -u admin@lab.example:{k} https://lab.atlassian.net/rest/api/3/myself\n→ 401", [k]))(
                    "ATATT3" + f.pick(URLSAFE, 186)
                ),
                (lambda k: (f"OCTOPUS_API_KEY={k} octo deploy-release\nerror: 401", [k]))("API-" + f.pick(UPPER, 26)),
                (
                    lambda k: (
                        f"age -d -i key.txt secrets.age fails; key.txt:\n# created: 2026-11-02T10:11:12Z\n# public key: age1{f.pick(BECH32, 58)}\n{k}",
                        [k],
                    )
                )("AGE-SECRET-KEY-1" + f.pick(BECH32.upper(), 58)),
            ]
        )

    def comms() -> Sample:
        return f.choice(
            [
                (lambda k, b: (f"SLACK_APP_TOKEN={k}\nSLACK_BOT_TOKEN={b}\nsocket mode never connects", [k, b]))(
                    f"xapp-1-A{f.pick(UPPER, 10)}-{f.pick(DIGITS, 13)}-{f.hex(64)}",
                    f"xoxb-{f.pick(DIGITS, 12)}-{f.pick(DIGITS, 13)}-{f.pick(ALNUM, 24)}",
                ),
                (lambda k: (f'stripe.api_key = "{k}"\nstripe.error.APIConnectionError', [k]))(
                    "rk_live_" + f.pick(ALNUM, 99)
                ),
                (lambda k: (f"sg = SendGridAPIClient('{k}')\npython_http_client.exceptions.UnauthorizedError", [k]))(
                    f"SG.{f.pick(URLSAFE, 22)}.{f.pick(URLSAFE, 43)}"
                ),
                (
                    lambda k: (
                        f"client = Client('AC{f.hex(32)}', '{k}')\ntwilio.base.exceptions.TwilioRestException: HTTP 401",
                        [k],
                    )
                )(f.hex(32)),
                (lambda k: (f"TELEGRAM_BOT_TOKEN={k}\npython-telegram-bot: telegram.error.NetworkError", [k]))(
                    f"{f.rng.randint(10**9, 10**10 - 1)}:AA{f.pick(URLSAFE, 33)}"
                ),
            ]
        )

    add(ai_apis, 28)
    add(saas_tokens, 27)
    add(comms, 7)

    # --- secrets introduced by words, four languages ---------------------------------------------------------
    def words_en() -> Sample:
        return f.choice(
            [
                (
                    lambda k: (
                        f"Here's the access token you asked for so you can reproduce it on your side: {k} (it's a read-only one)",
                        [k],
                    )
                )("hf_" + f.pick(ALNUM, 34)),
                (lambda pw: (f"pw for the box is {pw} — user ubuntu, same as the order page says", [pw]))(_pw(f)),
                (
                    lambda pw: (
                        f"The jupyter password I set in the template: {pw}\nit worked yesterday, today it says invalid credentials",
                        [pw],
                    )
                )(_pw(f)),
                (lambda k: (f"My NGC key, in case you need to pull the image for me: {k}", [k]))(
                    "nvapi-" + f.pick(URLSAFE, 64)
                ),
                (
                    lambda k: (
                        f"the vast.ai api key I was migrating from was {k}, can your importer read instances from it?",
                        [k],
                    )
                )(f.hex(64)),
                (lambda pw: (f"Login for the grafana you set up: admin / {pw}", [pw]))(_pw(f)),
                (lambda k: (f"secret key of the MinIO bucket (the one the job writes to): {k}", [k]))(
                    f.pick(ALNUM, 40)
                ),
                (
                    lambda pw: (
                        f"I changed the postgres password to {pw} but the app on the instance still uses the old one. Where is it cached?",
                        [pw],
                    )
                )(_pw(f)),
                (
                    lambda k: (
                        f"We rotated it this morning, the new Together key is {k}; the old one can be ignored.",
                        [k],
                    )
                )(f.hex(64)),
                (lambda pw: (f"VNC passphrase → {pw}\nscreen stays black after connecting", [pw]))(_pw(f)),
            ]
        )

    def words_es() -> Sample:
        return f.choice(
            [
                (
                    lambda k: (
                        f"Mi token de Hugging Face es {k} y aun así me dice que el repositorio está restringido.",
                        [k],
                    )
                )("hf_" + f.pick(ALNUM, 34)),
                (lambda pw: (f"Les paso la contraseña del servidor para que lo revisen: {pw}. Usuario root.", [pw]))(
                    _pw(f)
                ),
                (lambda k: (f"La clave de API de OpenAI que uso en el contenedor: {k}", [k]))(
                    "sk-proj-" + f.pick(URLSAFE, 74) + "T3BlbkFJ" + f.pick(URLSAFE, 74)
                ),
                (
                    lambda pw: (
                        f"contraseña de la base de datos → {pw} (usuario app). No conecta desde la instancia.",
                        [pw],
                    )
                )(_pw(f)),
                (lambda k: (f"El secreto del cliente (client secret) de Azure es {k}, ¿por qué falla el login?", [k]))(
                    f.pick(ALNUM + "_~.", 3) + "8Q~" + f.pick(ALNUM + "_~.-", 34)
                ),
            ]
        )

    def words_vi() -> Sample:
        return f.choice(
            [
                (lambda k: (f"Token Hugging Face của em là {k}, tải model vẫn báo 401 ạ.", [k]))(
                    "hf_" + f.pick(ALNUM, 34)
                ),
                (lambda pw: (f"Mật khẩu máy chủ em đặt là {pw}, tài khoản ubuntu, nhưng SSH không vào được.", [pw]))(
                    _pw(f)
                ),
                (lambda k: (f"Khóa API wandb của em: {k} — anh chị xem giúp sao không log được.", [k]))(f.hex(40)),
                (lambda pw: (f"Em gửi mật khẩu Jupyter để anh chị kiểm tra: {pw}", [pw]))(_pw(f)),
            ]
        )

    def words_tr() -> Sample:
        return f.choice(
            [
                (lambda k: (f"API anahtarım {k}, ama istekler 401 dönüyor.", [k]))("gsk_" + f.pick(ALNUM, 52)),
                (lambda pw: (f"Veritabanı parolası {pw}, kullanıcı adı app. Sunucudan bağlanamıyorum.", [pw]))(_pw(f)),
                (lambda k: (f"Erişim tokenım şu: {k} — docker login nvcr.io yine de reddediyor.", [k]))(
                    "nvapi-" + f.pick(URLSAFE, 64)
                ),
                (lambda pw: (f"Sunucunun root şifresini {pw} olarak değiştirdim, şimdi giriş yapamıyorum.", [pw]))(
                    _pw(f)
                ),
            ]
        )

    add(words_en, 14)
    add(words_es, 6, "es")
    add(words_vi, 5, "vi")
    add(words_tr, 5, "tr")

    # --- key blocks ----------------------------------------------------------------------------------------------
    def ssh_key() -> Sample:
        body = ["b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW"] + [
            f.pick(B64, 70) for _ in range(5)
        ]
        block = "-----BEGIN OPENSSH PRIVATE KEY-----\n" + "\n".join(body) + "\n-----END OPENSSH PRIVATE KEY-----"
        return f.choice(
            [
                f"I generated the key with ssh-keygen -t ed25519 and pasted the wrong half into your form I think. This is what's in id_ed25519:\n{block}",
                "Kubernetes secret for git-sync (ssh):\n  ssh: |\n    "
                + block.replace("\n", "\n    ")
                + "\ngit-sync: Permission denied (publickey)",
            ]
        ), body[1:]

    def rsa_key() -> Sample:
        block, body = pem(f, "RSA PRIVATE KEY", 10)
        return f.choice(
            [
                f"Our deploy key (RSA) — ssh -i says invalid format:\n{block}",
                f"nginx ssl_certificate_key /etc/nginx/tls.key, contents:\n{block}\n[emerg] PEM_read_bio_PrivateKey() failed",
            ]
        ), body

    def encrypted_key() -> Sample:
        block, body = pem(f, "ENCRYPTED PRIVATE KEY", 8)
        return (
            f"openssl pkcs8 -topk8 output (client.key for the postgres TLS):\n{block}\npsql: error: could not load private key file",
            body,
        )

    def pgp_key() -> Sample:
        block, body = pem(f, "PGP PRIVATE KEY BLOCK", 8, "\n")
        return (
            f"gpg --export-secret-keys --armor release@lab.example > key.asc; then on the instance gpg --import fails:\n{block}",
            body,
        )

    def dsa_key() -> Sample:
        block, body = pem(f, "DSA PRIVATE KEY", 6)
        return f"old DSA key from our legacy box, ssh says 'no mutual signature algorithm':\n{block}", body

    def tls_secret() -> Sample:
        key_b64 = base64.b64encode(
            ("-----BEGIN PRIVATE KEY-----\n" + f.pick(B64, 64) + "\n" + f.pick(B64, 64) + "\n").encode()
        ).decode()
        return (
            f"kubectl get secret ingress-tls -o yaml\ndata:\n  tls.crt: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t{f.pick(B64, 40)}\n  tls.key: {key_b64}\ntype: kubernetes.io/tls\ningress still serves the fake certificate",
            [key_b64],
        )

    add(ssh_key, 5)
    add(rsa_key, 4)
    add(encrypted_key, 2)
    add(pgp_key, 2)
    add(dsa_key, 1)
    add(tls_secret, 2)

    # --- wallets -------------------------------------------------------------------------------------------------
    def solana_b58() -> Sample:
        kp = f.solana_keypair_b58()
        return f.choice(
            [
                f"Backpack wallet → Show private key: {kp}\nthe USDC I sent for order #{f.rng.randint(10000, 99999)} never arrived, can you check from this?",
                f"solana-keygen recover 'prompt://?key=0/0' -o pay.json asked for a seed; I pasted my secret key instead: {kp}",
                f'const payer = Keypair.fromSecretKey(bs58.decode("{kp}"));\n// Transaction simulation failed: Blockhash not found',
                f"Khóa bí mật ví Solana (Phantom) của em: {kp}, em chuyển SOL mà đơn chưa cập nhật.",
                f"Solana cüzdanımın özel anahtarı: {kp} — ödeme görünmüyor.",
                f"PAYER_SECRET_KEY={kp}\nanchor deploy → Error: Account has insufficient funds",
            ]
        ), [kp]

    def solana_json() -> Sample:
        raw = f.solana_keypair()
        return f.choice(
            [
                (lambda kp: (f"cat /root/.config/solana/devnet.json\n{kp}\nsolana airdrop keeps failing", [kp]))(
                    json.dumps(list(raw))
                ),
                (
                    lambda kp: (
                        f"payer keypair file (keypair.json):\n{kp}\nError: Attempt to debit an account but found no record of a prior credit.",
                        [kp],
                    )
                )(json.dumps(list(raw), indent=2)),
                (
                    lambda kp: (
                        f"const secret = Uint8Array.from({kp});\nconst payer = Keypair.fromSecretKey(secret); // is this the wrong format?",
                        [kp],
                    )
                )(json.dumps(list(raw), separators=(",", ":"))),
                (lambda kp: (f"SOLANA_PRIVATE_KEY='{kp}'\nthe bot that pays for my GPU hours stopped working", [kp]))(
                    json.dumps(list(raw), separators=(",", ":"))
                ),
            ]
        )

    def eth_key() -> Sample:
        key = f.eth_key()
        return f.choice(
            [
                f"DEPLOYER_PRIVATE_KEY=0x{key}\nRPC_URL=https://arb1.arbitrum.io/rpc\nforge script fails on your instance, works on my laptop",
                f"cast wallet import deployer --private-key 0x{key}\nError: keystore already exists",
                f"acct = Account.from_key('0x{key}')\nweb3.exceptions.TimeExhausted while paying the invoice",
                f"My MetaMask private key is {key}, the payment went out but the order still says unpaid.",
                f"La clave privada de la cuenta que pagó: 0x{key}",
                f"Khóa riêng tư ví ETH của em: {key} — giao dịch đã thành công mà đơn chưa lên.",
                f"Özel anahtar (MetaMask'tan dışa aktardım): 0x{key}",
                f'wallet = Wallet(private_key="{key}", chain="base")\nthe payment to your deposit address is stuck',
            ]
        ), [key]

    def seeds() -> Sample:
        phrase = f.seed_phrase(f.choice([12, 12, 24]))
        return f.choice(
            [
                f'hardhat.config.js:\n  networks: {{ sepolia: {{ url: RPC, accounts: {{ mnemonic: "{phrase}" }} }} }}\nnpx hardhat test hangs on the instance',
                f"These are my 'backup words' from the Trust Wallet app: {phrase}\nI sent USDT and it's not credited.",
                f'MNEMONIC="{phrase}"\nthe payout script derives the wrong address',
                f"solana-keygen recover prompted for the seed phrase and I typed: {phrase}",
                f"Las palabras de recuperación de mi billetera son: {phrase}. ¿Pueden buscar el depósito?",
                f"12/24 từ khôi phục (seed) của ví em: {phrase}",
                f"Cüzdanımın gizli kurtarma ifadesi: {phrase}",
            ]
        ), [phrase]

    def btc() -> Sample:
        return f.choice(
            [
                (
                    lambda k: (
                        f'bitcoin-cli importdescriptors \'[{{"desc": "wpkh({k}/84h/0h/0h/0/*)#{f.pick(LOWER, 8)}", "timestamp": "now"}}]\'\nerror: descriptor checksum mismatch',
                        [k],
                    )
                )(f.xprv()),
                (
                    lambda k: (
                        f"Sparrow → Export → master private key (xprv) {k}; can you send the refund to this wallet?",
                        [k],
                    )
                )(f.xprv()),
                (lambda k: (f"WIF private key of the paper wallet: {k}", [k]))(f.wif()),
            ]
        )

    add(solana_b58, 10)
    add(solana_json, 7)
    add(eth_key, 12)
    add(seeds, 10)
    add(btc, 4)
    return out


def main() -> None:
    fakes = Fakes(seed=SEED)
    pos = positives(fakes)
    neg = negatives(fakes)
    check_and_write(OUT, "h6", pos, neg)


if __name__ == "__main__":
    main()

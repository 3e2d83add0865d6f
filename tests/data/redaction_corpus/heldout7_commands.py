# ruff: noqa: E501  (one realistic sample per line reads better than wrapped ones)
"""Texts of the seventh held-out part (see `build_heldout7.py`): secrets after command-line flags and in tools' login
commands, as customers paste them with the error that followed.
"""

from __future__ import annotations

from collections.abc import Callable

from .fakes import ALNUM, B64, URLSAFE, Fakes

Sample = tuple[str, list[str]]


def host(f: Fakes) -> str:
    return f.choice(
        [
            f"10.{f.rng.randint(0, 255)}.{f.rng.randint(0, 255)}.{f.rng.randint(2, 254)}",
            "db.prod.internal",
            "gpu-07.rent.example",
            f"{f.rng.randint(40, 220)}.{f.rng.randint(1, 255)}.{f.rng.randint(1, 255)}.{f.rng.randint(2, 254)}",
        ]
    )


def password(f: Fakes) -> str:
    """A password that needs no quoting in a shell or a URL."""
    return f.choice(
        [
            f.pick(ALNUM, f.rng.randint(11, 18)),
            f.choice(["Ankara", "Hanoi", "Sevilla", "Orion", "falcon"])
            + f.pick("0123456789", 4)
            + f.choice(["", "z", "_k"]),
            f.pick(ALNUM + "_.", f.rng.randint(12, 20)),
        ]
    )


def commands(f: Fakes) -> list[Callable[[], Sample]]:
    def sqlplus() -> Sample:
        p = password(f)
        return (
            f"sqlplus system/{p}@//{host(f)}:1521/ORCLPDB1\nORA-12541: TNS:no listener\nany idea? the oracle container is running",
            [p],
        )

    def cqlsh() -> Sample:
        p = password(f)
        return f"cqlsh {host(f)} 9042 -u cassandra -p {p}\nConnection error: ('Unable to connect to any servers')", [p]

    def redis_cli() -> Sample:
        p = password(f)
        return (
            f"$ redis-cli -h {host(f)} -a {p} ping\nWarning: Using a password with '-a' option on the command line interface may not be safe.\n(error) NOAUTH Authentication required.",
            [p],
        )

    def mysqldump() -> Sample:
        p = password(f)
        return (
            f"mysqldump -uroot -p{p} --single-transaction shop > /mnt/nvme/shop.sql\nmysqldump: Got error: 2002: Can't connect to local MySQL server through socket",
            [p],
        )

    def curl_user() -> Sample:
        p = password(f)
        return (
            f"curl -u admin:{p} http://{host(f)}:9200/_cat/indices?v\ncurl: (7) Failed to connect, is elastic blocked on your side?",
            [p],
        )

    def wget_pw() -> Sample:
        p = password(f)
        return (
            f"wget --user=research --password={p} https://data.lab.example/imagenet/train.tar\n--2026-12-02--  Resolving data.lab.example... failed: Temporary failure in name resolution.",
            [p],
        )

    def sshpass() -> Sample:
        p = password(f)
        return (
            f"sshpass -p '{p}' scp -P 2222 ckpt_9000.pt root@{host(f)}:/workspace/\nPermission denied, please try again.",
            [p],
        )

    def wandb_login() -> Sample:
        k = f.hex(40)
        return (
            f"(venv) root@c0ffee:/workspace# wandb login {k}\nwandb: ERROR Failed to connect to api.wandb.ai, retrying",
            [k],
        )

    def hf_upload() -> Sample:
        t = "hf_" + f.pick(ALNUM, 34)
        return (
            f"hf upload my-org/llama-ft ./out --token {t} --repo-type model\nHfHubHTTPError: 403 Forbidden: you don't have write access",
            [t],
        )

    def docker_login() -> Sample:
        t = "dckr_pat_" + f.pick(URLSAFE, 27)
        return (
            f'echo doing it the lazy way: docker login -u mlteam -p {t}\nWARNING! Using --password via the CLI is insecure.\nError response from daemon: Get "https://registry-1.docker.io/v2/": unauthorized',
            [t],
        )

    def gh_with_token() -> Sample:
        t = "ghp_" + f.pick(ALNUM, 36)
        return f"gh auth login --with-token <<< {t}\nerror validating token: missing required scope 'read:org'", [t]

    def aws_set() -> Sample:
        s = f.pick(B64, 40)
        return (
            f"aws configure set aws_secret_access_key {s} --profile train\naws s3 ls s3://ckpts --profile train\nAn error occurred (InvalidAccessKeyId)",
            [s],
        )

    def az_storage() -> Sample:
        k = f.pick(B64, 86) + "=="
        return (
            f"az storage blob upload-batch -d models -s ./out --account-name mlstore01 --account-key {k}\nERROR: Server failed to authenticate the request.",
            [k],
        )

    def kubectl_creds() -> Sample:
        p = password(f)
        return (
            f"kubectl config set-credentials admin --username=admin --password={p}\nkubectl get nodes\nerror: You must be logged in to the server (Unauthorized)",
            [p],
        )

    def tfvars() -> Sample:
        t = f.pick(ALNUM + "_-", 40)
        return (
            f'terraform.tfvars:\nregion = "fra1"\ncloudflare_api_token = "{t}"\ninstance_count = 4\n\nterraform apply → Error: failed to verify API token',
            [t],
        )

    def vault_login() -> Sample:
        t = "hvs." + f.pick(URLSAFE, 91)
        return f"vault login {t}\nError authenticating: error looking up token: Code: 403. Errors: permission denied", [
            t
        ]

    def git_gitlab() -> Sample:
        t = "glpat-" + f.pick(URLSAFE, 20)
        return (
            f"git push https://oauth2:{t}@gitlab.com/lab/diffusion.git main\nremote: HTTP Basic: Access denied. The provided password or token is incorrect",
            [t],
        )

    def npm_set() -> Sample:
        t = "npm_" + f.pick(ALNUM, 36)
        return (
            f"npm config set //registry.npmjs.org/:_authToken {t}\nnpm publish → 403 Forbidden - You do not have permission to publish",
            [t],
        )

    def twine() -> Sample:
        t = "pypi-AgEIcHlwaS5vcmc" + f.pick(URLSAFE, 120)
        return (
            f"twine upload -u __token__ -p {t} dist/*\nHTTPError: 403 Forbidden from https://upload.pypi.org/legacy/",
            [t],
        )

    def anaconda() -> Sample:
        p = password(f)
        return f"anaconda login --username lab-bot --password {p}\nthen conda install hangs on the private channel", [p]

    def psql_env() -> Sample:
        p = password(f)
        return (
            f"PGPASSWORD={p} pg_dump -h {host(f)} -U app -Fc app > app.dump\npg_dump: error: connection to server failed: timeout expired",
            [p],
        )

    def mongo_uri() -> Sample:
        p = password(f)
        return (
            f'mongorestore --uri="mongodb+srv://trainer:{p}@cluster0.ab12c.mongodb.net" ./dump\nFailed: error connecting to db server: server selection error',
            [p],
        )

    def rabbit_url() -> Sample:
        p = password(f)
        return (
            f"CELERY_BROKER_URL=amqp://worker:{p}@{host(f)}:5672/gpu\nconsumer: Cannot connect to amqp://worker:**@{host(f)}:5672/gpu: timed out.",
            [p],
        )

    def ftp_cmd() -> Sample:
        p = password(f)
        return (
            f"curl -T weights.safetensors ftp://{host(f)}/upload/ --user uploader:{p}\ncurl: (28) Connection timed out after 30001 milliseconds",
            [p],
        )

    def openvpn() -> Sample:
        p = password(f)
        return (
            f"my auth.txt for openvpn (first line user, second line password):\nvpnuser\n{p}\nthe instance loses internet when the tunnel comes up",
            [p],
        )

    def htpasswd_plain() -> Sample:
        p = password(f)
        return (
            f"htpasswd -b -c /etc/nginx/.htpasswd tensorboard {p}\nnginx then returns 500 for /tb/, log says could not open htpasswd",
            [p],
        )

    return [
        sqlplus,
        cqlsh,
        redis_cli,
        mysqldump,
        curl_user,
        wget_pw,
        sshpass,
        wandb_login,
        hf_upload,
        docker_login,
        gh_with_token,
        aws_set,
        az_storage,
        kubectl_creds,
        tfvars,
        vault_login,
        git_gitlab,
        npm_set,
        twine,
        anaconda,
        psql_env,
        mongo_uri,
        rabbit_url,
        ftp_cmd,
        openvpn,
        htpasswd_plain,
    ]

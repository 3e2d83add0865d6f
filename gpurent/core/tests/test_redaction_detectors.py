"""Every detector removes the whole secret: no character of its body is left, whatever part a pattern reports.

Each sample is a text with one fake secret in it; the redacted text must be exactly the text with the marker
in the secret's place. The coverage test fails when a detector (a pattern of a detect-secrets plugin we call,
or one of ours) has no sample here, so a new detector cannot go untested.
"""

import base64
import random
import string

import pytest

from gpurent.core.redaction import Kind, marker, redact_text
from gpurent.core.redaction.context import CONTEXT_PATTERNS
from gpurent.core.redaction.detectors import (
    _BASE64_JSON,
    _HEADERLESS_KEY,
    _LIBRARY_PLUGINS,
    _PEM_BASE64,
    _PEM_BEGIN,
    _PUTTY,
)
from gpurent.core.redaction.providers import PROVIDER_PATTERNS, WRAPPED_HEAD
from gpurent.core.redaction.seed_phrases import mnemonic_from_entropy
from gpurent.core.redaction.shapes import ACR_PASSWORD, NGC_KEY, NGC_KEY_TEXT, NGROK_AUTHTOKEN
from gpurent.core.redaction.wallets import JSON_KEYPAIR, SOLANA_BASE58, SOLANA_BASE64, SOLANA_HEX, WIF
from tests.data.redaction_corpus import base58check
from tests.data.redaction_corpus.fakes import Fakes

_RNG = random.Random(15)  # noqa: S311 (fake secrets, the same in every run)
_FAKES = Fakes(seed=15)
_ALNUM = string.ascii_letters + string.digits
_LOWER = string.ascii_lowercase + string.digits
_HEX = "0123456789abcdef"
_B64 = _ALNUM + "+/"


def pick(alphabet: str, length: int) -> str:
    return "".join(_RNG.choice(alphabet) for _ in range(length))


def pem(label: str, dashes: str = "-----") -> str:
    space = " " if len(dashes) == 4 else ""
    body = "\n".join(pick(_B64, 64) for _ in range(4)) + "\n" + pick(_B64, 10) + "=="
    return f"{dashes}{space}BEGIN {label}{space}{dashes}\n{body}\n{dashes}{space}END {label}{space}{dashes}"


def putty() -> str:
    public = "\n".join(pick(_B64, 64) for _ in range(2))
    private = "\n".join(pick(_B64, 64) for _ in range(3)) + "\n" + pick(_B64, 8)
    return (
        "PuTTY-User-Key-File-2: ssh-rsa\nEncryption: none\nComment: rsa-key-20260101\n"
        f"Public-Lines: 2\n{public}\nPrivate-Lines: 4\n{private}\nPrivate-MAC: {pick(_HEX, 40)}"
    )


# (kind, text around the secret with `{s}` where it stands, the secret)
SAMPLES: list[tuple[Kind, str, str]] = [
    # detect-secrets' plugins
    (Kind.ARTIFACTORY_TOKEN, "ARTIFACTORY={s} next", "AKC" + pick(_ALNUM, 70)),
    (Kind.ARTIFACTORY_TOKEN, "jfrog password {s}\n", "AP6" + pick(_ALNUM, 30)),
    (Kind.AWS_ACCESS_KEY, "key id {s} used", "AKIA" + pick(string.ascii_uppercase + string.digits, 16)),
    (Kind.AWS_SECRET_KEY, 'aws_secret_access_key = "{s}"', pick(_B64, 40)),
    (Kind.AZURE_KEY, "AccountName=x;{s};EndpointSuffix=core.windows.net", "AccountKey=" + pick(_B64, 86) + "=="),
    (Kind.PASSWORD_IN_URL, "https://deploy:{s}@git.example.com/x.git", pick(_ALNUM, 18)),
    (Kind.DISCORD_TOKEN, "bot token {s} ok", f"M{pick(_ALNUM, 23)}.{pick(_ALNUM, 6)}.{pick(_ALNUM, 27)}"),
    *[(Kind.GITHUB_TOKEN, "token {s} end", f"{p}_{pick(_ALNUM, 36)}") for p in ("ghp", "gho", "ghu", "ghs", "ghr")],
    (Kind.GITHUB_TOKEN, "a 40-character paste: {s} end", "ghp_" + pick(_ALNUM, 40)),
    *[(Kind.GITLAB_TOKEN, "t {s} end", f"{p}-{pick(_ALNUM, 20)}") for p in ("glpat", "gldt", "glft", "glsoat", "glrt")],
    (Kind.GITLAB_TOKEN, "runner {s} end", "GR1348941" + pick(_ALNUM, 20)),
    (Kind.GITLAB_TOKEN, "ci {s} end", "glcbt-" + pick(_ALNUM, 20)),
    (Kind.GITLAB_TOKEN, "mail {s} end", "glimt-" + pick(_ALNUM, 25)),
    (Kind.GITLAB_TOKEN, "trigger {s} end", "glptt-" + pick(_ALNUM, 40)),
    (Kind.GITLAB_TOKEN, "agent {s} end", "glagent-" + pick(_ALNUM, 50)),
    (Kind.GITLAB_TOKEN, "oauth {s} end", "gloas-" + pick(_ALNUM, 64)),
    (
        Kind.JWT,
        "cookie {s}; Path=/",
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI0MiIsImV4cCI6MTkwMDAwMDAwMH0." + pick(_ALNUM + "-_", 43),
    ),
    (Kind.MAILCHIMP_KEY, "mc {s} end", pick(_LOWER, 32) + "-us12"),
    (Kind.NPM_TOKEN, "//registry.npmjs.org/:_authToken={s}", "npm_" + pick(_ALNUM, 36)),
    (Kind.OPENAI_KEY, "key {s} end", "sk-" + pick(_ALNUM, 20) + "T3BlbkFJ" + pick(_ALNUM, 20)),
    (Kind.PYPI_TOKEN, "password = {s}", "pypi-AgEIcHlwaS5vcmc" + pick(_ALNUM, 80)),
    (Kind.PYPI_TOKEN, "password = {s}", "pypi-AgENdGVzdC5weXBpLm9yZw" + pick(_ALNUM, 80)),
    (Kind.SENDGRID_KEY, "key {s} end", f"SG.{pick(_ALNUM, 22)}.{pick(_ALNUM, 43)}"),
    (Kind.SLACK_TOKEN, "bot {s} end", f"xoxb-{pick(string.digits, 11)}-{pick(string.digits, 12)}-{pick(_LOWER, 24)}"),
    (
        Kind.SLACK_TOKEN,
        "hook {s} end",
        f"https://hooks.slack.com/services/T{pick(_ALNUM, 8)}/B{pick(_ALNUM, 10)}/{pick(_ALNUM, 24)}",
    ),
    (Kind.SQUARE_SECRET, "sq {s} end", "sq0csp-" + pick(_ALNUM, 43)),
    (Kind.STRIPE_KEY, "stripe {s} end", "sk_live_" + pick(_ALNUM, 24)),
    (Kind.TELEGRAM_TOKEN, "bot {s} end", f"{pick(string.digits, 10)}:{pick(_ALNUM, 35)}"),
    (Kind.TWILIO_KEY, "sid {s} end", "AC" + pick(_LOWER, 32)),
    (Kind.TWILIO_KEY, "key {s} end", "SK" + pick(_LOWER, 32)),
    *[
        (Kind.PRIVATE_KEY, "my key:\n{s}\nthanks", pem(label))
        for label in (
            *("DSA PRIVATE KEY", "EC PRIVATE KEY", "OPENSSH PRIVATE KEY", "PGP PRIVATE KEY BLOCK"),
            *("PRIVATE KEY", "RSA PRIVATE KEY", "ENCRYPTED PRIVATE KEY"),
        )
    ],
    (Kind.PRIVATE_KEY, "ssh.com key:\n{s}\nthanks", pem("SSH2 ENCRYPTED PRIVATE KEY", "----")),
    (Kind.PRIVATE_KEY, "the .ppk:\n{s}\nthanks", putty()),
    # our provider patterns
    (Kind.HUGGING_FACE_TOKEN, "token {s} end", "hf_" + pick(_ALNUM, 34)),
    (Kind.ANTHROPIC_KEY, "key {s} end", "sk-ant-api03-" + pick(_ALNUM, 93)),
    (Kind.OPENAI_KEY, "key {s} end", "sk-proj-" + pick(_ALNUM, 48)),
    (Kind.OPENAI_KEY, "key {s} end", "sk-" + pick(_ALNUM, 48)),
    (Kind.STRIPE_KEY, "stripe {s} end", "rk_test_" + pick(_ALNUM, 30)),
    (Kind.STRIPE_KEY, "webhook {s} end", "whsec_" + pick(_ALNUM, 32)),
    (Kind.GITHUB_TOKEN, "token {s} end", "github_pat_" + pick(_ALNUM, 22) + "_" + pick(_ALNUM, 59)),
    (Kind.GOOGLE_API_KEY, "key {s} end", "AIza" + pick(_ALNUM, 35)),
    (Kind.GOOGLE_OAUTH_TOKEN, "token {s} end", "ya29." + pick(_ALNUM, 60)),
    (Kind.DIGITALOCEAN_TOKEN, "token {s} end", "dop_v1_" + pick(_HEX, 64)),
    (Kind.REPLICATE_TOKEN, "token {s} end", "r8_" + pick(_ALNUM, 37)),
    (
        Kind.WALLET_PRIVATE_KEY,
        "xprv {s} end",
        base58check(bytes.fromhex("0488ade4") + bytes(_RNG.randrange(256) for _ in range(74))),
    ),
    (
        Kind.WALLET_PRIVATE_KEY,
        "wif {s} end",
        base58check(b"\x80" + bytes(_RNG.randrange(256) for _ in range(32)) + b"\x01"),
    ),
    (Kind.SEED_PHRASE, "words: {s}. Thanks", " ".join(mnemonic_from_entropy(bytes(range(16))))),
    # further provider formats (gitleaks rule shapes)
    *[
        (Kind.SECRET, "key {s} end", secret)
        for secret in (
            "gsk_" + pick(_ALNUM, 52),
            "pplx-" + pick(_ALNUM, 48),
            "shpat_" + pick(_HEX, 32),
            "lin_api_" + pick(_ALNUM, 40),
            "dp.pt." + pick(_ALNUM, 43),
            "hvs." + pick(_ALNUM, 95),
            "pul-" + pick(_HEX, 40),
            "ntn_" + pick(string.digits, 11) + pick(_ALNUM, 35),
            "nfp_" + pick(_ALNUM, 36),
            "pscale_tkn_" + pick(_ALNUM, 43),
            "rubygems_" + pick(_HEX, 48),
            "LTAI" + pick(_ALNUM, 20),
            "sha256~" + pick(_ALNUM, 43),
            "pnu_" + pick(_ALNUM, 36),
            pick(_LOWER, 14) + ".atlasv1." + pick(_ALNUM, 67),
            "dt0c01." + pick(_ALNUM, 24) + "." + pick(_ALNUM, 64),
            "xkeysib-" + pick(_HEX, 64) + "-" + pick(_ALNUM, 16),
            "xsmtpsib-" + pick(_HEX, 64) + "-" + pick(_ALNUM, 16),
            "ops_eyJ" + pick(_ALNUM, 260),
            "A3-" + pick(string.ascii_uppercase, 6) + "-" + pick(string.ascii_uppercase, 11) + "-ABCDE-FGHIJ-KLMNO",
            "HRKU-AA" + pick(_ALNUM, 58),
            "v1.0-" + pick(_HEX, 24) + "-" + pick(_HEX, 146),
            "dapi" + pick(_HEX, 32),
            "sntryu_" + pick(_HEX, 64),
            "PMAK-" + pick(_HEX, 24) + "-" + pick(_HEX, 34),
            "glsa_" + pick(_ALNUM, 32) + "_" + pick(_HEX, 8),
            "fo1_" + pick(_ALNUM, 43),
            "sbp_" + pick(_HEX, 40),
            "secret_ml-team_" + pick(_HEX, 32) + "." + pick(_ALNUM, 32),
            "Abc8Q~" + pick(_ALNUM, 32),
            "EZAK" + pick(_ALNUM, 54),
            "rdme_" + pick(_LOWER, 70),
            "shippo_live_" + pick(_HEX, 40),
            "CLOJARS_" + pick(_ALNUM, 60),
            "dckr_pat_" + pick(_ALNUM, 27),
            "nvapi-" + pick(_ALNUM, 64),
            "key-" + pick(_HEX, 32),
            "NRAK-" + pick(string.ascii_uppercase + string.digits, 27),
        )
    ],
    (Kind.HUGGING_FACE_TOKEN, "org {s} end", "api_org_" + pick(_ALNUM, 34)),
    (Kind.PRIVATE_KEY, "age {s} end", "AGE-SECRET-KEY-1" + pick("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58)),
    (Kind.GITLAB_TOKEN, "ff {s} end", "glffct-" + pick(_ALNUM, 20)),
    (Kind.TWILIO_KEY, "key {s} end", "SK" + pick("0123456789ABCDEF", 32)),
    (Kind.WALLET_PRIVATE_KEY, "phantom {s} end", _FAKES.solana_keypair_b58()),
    (Kind.WALLET_PRIVATE_KEY, "id.json: {s} end", _FAKES.solana_keypair_json()),
    # command lines and sentences: the command stays, the value goes
    (Kind.PASSWORD, "mysql -uroot -p{s} shop", pick(_ALNUM, 12)),
    (Kind.PASSWORD, "sshpass -p '{s}' ssh gpu", pick(_ALNUM, 12)),
    (Kind.PASSWORD, "redis-cli -a {s} ping", pick(_ALNUM, 12)),
    (Kind.PASSWORD, "docker login -u me -p {s} nvcr.io", pick(_ALNUM, 12)),
    (Kind.PASSWORD, "curl -u admin:{s} https://x", pick(_ALNUM, 12)),
    (Kind.PASSWORD, "(pw: {s})", pick(_ALNUM, 10) + "7"),
    (Kind.SECRET, "wandb login {s}", pick(_HEX, 40)),
    (Kind.SECRET, "the api key is {s}", pick(_ALNUM, 30) + "9"),
    (Kind.PRIVATE_KEY, "metamask private key {s}", pick(_HEX, 64)),
    (Kind.SECRET, "set -x MY_TOKEN {s}", pick(_ALNUM, 30) + "1"),
    (Kind.PASSWORD, "Password for user app: {s}", pick(_ALNUM, 12) + "5"),
    (Kind.PASSWORD, "user: root, pass {s}", pick(_ALNUM, 12) + "5"),
    (Kind.PASSWORD, "login admin / {s}", pick(_ALNUM, 12) + "5"),
    (Kind.SECRET, "SENTRY_DSN=https://{s}@o1.ingest.sentry.io/2", pick(_HEX, 32)),
    (Kind.SECRET, "webhook: {s}", "https://discord.com/api/webhooks/1234567890/" + pick(_ALNUM, 68)),
    (Kind.SECRET, "key {s} end", "sk-" + pick(_HEX, 32)),
    # our context patterns: the name stays, the value goes
    (Kind.PASSWORD, "DB_PASSWORD={s}", pick(_ALNUM, 12) + "!9"),
    (Kind.PASSWORD, "mysql --password {s} shop", pick(_ALNUM, 12) + "4"),
    (Kind.PASSWORD, "my password is {s} and", pick(string.ascii_lowercase, 8) + "42"),
    (Kind.AUTH_HEADER, "Authorization: Basic {s}", pick(_ALNUM, 32) + "=="),
    (Kind.AUTH_HEADER, "curl -H 'X: y' bearer {s} end", pick(_ALNUM, 40)),
    (Kind.PASSWORD_IN_URL, "redis://:{s}@10.0.0.5:6379/0", pick(_ALNUM, 16)),
    (Kind.SIGNED_URL, "https://b.s3.amazonaws.com/k?X-Amz-Signature={s}&x=1", pick(_HEX, 64)),
    # round 3 (issue 15): clients, config files, other languages
    (Kind.PASSWORD, "cqlsh -u admin -p {s} cassandra-0", pick(_ALNUM, 12)),
    (Kind.PASSWORD, "sqlplus scott/{s}@orcl", pick(_ALNUM, 12)),
    (Kind.PASSWORD, "ldapsearch -x -D cn=admin -w {s} -b dc=acme", pick(_ALNUM, 12)),
    (Kind.SECRET, "mc alias set local http://127.0.0.1:9000 admin {s}", pick(_ALNUM, 20)),
    (Kind.PASSWORD, "10.0.0.3:6379> AUTH default {s}\nOK", pick(_ALNUM, 12)),
    (Kind.PASSWORD, "NEO4J_AUTH=neo4j/{s}", pick(_ALNUM, 12)),
    (Kind.PASSWORD, "db.internal:5432:*:postgres:{s}", pick(_ALNUM, 12) + "4"),
    (Kind.SECRET, 'client = Client(account_sid, "{s}")', pick(_HEX, 32)),
    (Kind.PRIVATE_KEY, 'new ethers.Wallet("0x{s}", provider)', pick(_HEX, 64)),
    (Kind.PASSWORD, "contraseña: {s}", pick(_ALNUM, 12) + "4"),
    (Kind.PASSWORD, "mật khẩu root: {s}", pick(_ALNUM, 12) + "4"),
    (Kind.PASSWORD, "Tôi đổi mật khẩu thành {s} rồi", pick(_ALNUM, 12) + "4"),
    (Kind.PASSWORD, "root şifresi {s} ama giriş yapamıyorum", pick(_ALNUM, 12) + "4"),
    (Kind.PRIVATE_KEY, "Özel anahtar {s} ile", pick(_HEX, 64)),
    (Kind.PRIVATE_KEY, "mi clave privada de MetaMask: {s}", pick(_HEX, 64)),
    (Kind.SECRET, 'kaggle.json: {{"username": "ada", "key": "{s}"}}', pick(_HEX, 32)),
    (Kind.PASSWORD, '{{"auths": {{"ghcr.io": {{"auth": "{s}"}}}}}}', pick(_B64, 39) + "="),  # 29 bytes in base64
    (Kind.SECRET, "Cookie: csrftoken=abc; sessionid={s}", pick(_LOWER, 32)),
    (Kind.PASSWORD, "RABBITMQ_DEFAULT_PASS: {s}", pick(_ALNUM, 12) + "!"),
    (Kind.PASSWORD, "DSN=ml;UID=reporter;PWD={s};Trusted_Connection=no", pick(_ALNUM, 12) + "!"),
    (Kind.PRIVATE_KEY, "client-key-data: {s}", base64.b64encode(pem("RSA PRIVATE KEY").encode()).decode()),
    # round 4 (issue 15)
    (Kind.SECRET, "LANGCHAIN_API_KEY {s} end", "lsv2_pt_" + pick(_HEX, 32) + "_" + pick(_HEX, 10)),
    (Kind.SECRET, "the form cut it: sk-ant-…\nand the rest: {s}", pick(_ALNUM, 40) + "7"),
    (Kind.PASSWORD, "la contraseña de root que me dieron ({s}) no funciona", pick(_ALNUM, 12) + "4"),
    (Kind.PASSWORD_IN_URL, "postgresql://svc:{s}@pg-prod.internal:5432/train", "@ga#8" + pick(_ALNUM, 12) + "@x"),
    (Kind.SECRET, "os.environ['LANGCHAIN_API_KEY'] = '{s}'", pick(_ALNUM, 30) + "1"),
    (Kind.PASSWORD, "Mật khẩu SSH của tôi là {s} nhưng bị từ chối", pick(_ALNUM, 12) + "4"),
    *[
        (Kind.SECRET, "key {s} end", secret)
        for secret in (
            "sk-or-v1-" + pick(_HEX, 64),
            "xai-" + pick(_ALNUM, 80),
            "tgp_v1_" + pick(_ALNUM, 43),
            "tvly-" + pick(_ALNUM, 32),
            "pcsk_" + pick(_ALNUM, 6) + "_" + pick(_ALNUM, 64),
            "csk-" + pick(_LOWER, 48),
            "fw_" + pick(_ALNUM, 24),
            "rpa_" + pick(string.ascii_uppercase + string.digits, 44),
            "local-" + pick(_HEX, 40),
            "AAAA" + pick(_ALNUM, 7) + ":APA91b" + pick(_ALNUM, 134),
            "sk.eyJ1IjoiYWRhIiwiYSI6I" + pick(_ALNUM, 40) + "." + pick(_ALNUM, 22),
            "ATATT3xFfGF0" + pick(_ALNUM, 180),
            "ATBB" + pick(_ALNUM, 32),
            "tskey-auth-" + pick(_ALNUM, 12) + "CNTRL-" + pick(_ALNUM, 33),
            "IQoJb3JpZ2luX2VjE" + pick(_B64, 300),
        )
    ],
    (Kind.GOOGLE_OAUTH_TOKEN, "key {s} end", "1//0" + pick(_ALNUM, 99)),
    (Kind.SQUARE_SECRET, "key {s} end", "EAAA" + pick(_ALNUM, 60)),
    (
        Kind.SLACK_TOKEN,
        "key {s} end",
        "xapp-1-A" + pick("ABCDEFGHIJ", 10) + "-" + pick(string.digits, 13) + "-" + pick(_HEX, 64),
    ),
    (Kind.SLACK_TOKEN, "key {s} end", "xoxe-1-" + pick(_ALNUM, 140)),
    (Kind.SECRET, "define('STRIPE_SECRET', '{s}');", pick(_ALNUM, 20) + "9"),
    (Kind.SECRET, '$api_token = "{s}";', pick(_ALNUM, 30) + "9"),
    (Kind.SECRET, "my OpenRouter key -> {s}", pick(_ALNUM, 40) + "9"),
    (Kind.SECRET, "The key I pasted was wrong, the right one is {s}", pick(_HEX, 64)),
    (Kind.PASSWORD, "plink -ssh -pw {s} root@203.0.113.7", pick(_ALNUM, 12) + "4"),
    (Kind.PASSWORD, "smbclient //nas01/data -U ada%{s} -c ls", pick(_ALNUM, 12) + "4"),
    (Kind.PASSWORD, "lftp -u deploy,{s} sftp://files", pick(_ALNUM, 12) + "4"),
    (Kind.PASSWORD, "keytool -list -keystore a.jks -storepass {s}", pick(_ALNUM, 12) + "4"),
    (Kind.PASSWORD, "openssl pkcs12 -export -in c.pem -out b.p12 -passout pass:{s}", pick(_ALNUM, 12) + "4"),
    (Kind.PASSWORD, "7z x weights.7z -p{s} -o/data", pick(_ALNUM, 12) + "4"),
    (Kind.PASSWORD, "htpasswd -b -c /etc/nginx/.htpasswd ada {s}", pick(_ALNUM, 12) + "4"),
    (Kind.PASSWORD, "rabbitmqctl add_user trainer {s}", pick(_ALNUM, 12) + "4"),
    (Kind.PASSWORD, "net user gpuadmin {s} /add", pick(_ALNUM, 12) + "4"),
    (Kind.PASSWORD, "poetry config http-basic.acme deploy {s}", pick(_ALNUM, 12) + "4"),
    (Kind.PASSWORD, "echo '{s}' | docker login ghcr.io -u ada --password-stdin", pick(_ALNUM, 12) + "4"),
    (Kind.PASSWORD, "psexec \\\\gpu-3 -u Administrator -p {s} cmd.exe", pick(_ALNUM, 12) + "4"),
    (Kind.SECRET, "aws configure set aws_session_key {s}", pick(_ALNUM, 40) + "4"),
    (Kind.SECRET, "aws ssm put-parameter --name /prod/api-token --value {s}", pick(_ALNUM, 20) + "4"),
    (Kind.SECRET, "gh secret set RUNPOD --body {s}", pick(_ALNUM, 40) + "4"),
    (Kind.SECRET, "$ cat ~/.vast_api_key\n{s}", pick(_HEX, 64)),
    (Kind.PASSWORD, "bind 0.0.0.0\nrequirepass {s}", pick(_ALNUM, 12) + "4"),
    (Kind.PASSWORD, "ConvertTo-SecureString '{s}' -AsPlainText -Force", pick(_ALNUM, 12) + "4"),
    (Kind.PASSWORD, "requests.get(url, auth=('admin', '{s}'))", pick(_ALNUM, 12) + "4"),
    (Kind.SECRET, "My API key:\n{s}\nthanks", pick(_ALNUM, 32) + "4"),
    (Kind.PRIVATE_KEY, "my wallet private key so you can check the deposit, it is 0x{s}", pick(_HEX, 64)),
    (Kind.PASSWORD, "creds are admin / {s}", pick(_ALNUM, 12) + "4"),
    (Kind.SECRET, "curl -u {s}: https://cloud.lambdalabs.com/api/v1/instances", "secret_" + pick(_HEX, 40)),
    (Kind.SECRET, "it's {s} (the api key)", pick(_ALNUM, 32) + "4"),
    (Kind.PASSWORD, "ssh ubuntu@gpu-12 (pass {s})", pick(_ALNUM, 12) + "4"),
    (Kind.PASSWORD, "my pw is {s}", pick(_ALNUM, 8) + "-4"),
    (Kind.SECRET, "env:\n  - name: OPENAI_API_KEY\n    value: {s}\n", pick(_ALNUM, 32) + "4"),
    (Kind.PASSWORD, "<server><id>x</id><password>{s}</password></server>", pick(_ALNUM, 12) + "4"),
    (Kind.SECRET, '"source": ["os.environ[\\"WANDB_API_KEY\\"] = \\"{s}\\"\\n"]', pick(_HEX, 40)),
    (Kind.SECRET, "SECRET_KEY_BASE: {s}", pick(_HEX, 128)),
    (Kind.PRIVATE_KEY, "deployer key 0x{s}", pick(_HEX, 64)),
    (Kind.PRIVATE_KEY, "accounts: ['0x{s}']", pick(_HEX, 64)),
    (Kind.SECRET, "GOOGLE_CLIENT_SECRET {s}", "GOCSPX-" + pick(_ALNUM, 28)),
    (Kind.SECRET, "lambda key {s}", "secret_" + pick(_LOWER, 8) + "_" + pick(_HEX, 32)),
    (Kind.PASSWORD, "The root password you emailed me, {s}, is rejected.", pick(_ALNUM, 12) + "4"),
    (Kind.PASSWORD, "root / {s}", pick(_ALNUM, 12) + "4"),
    (Kind.PASSWORD, "admin:{s}@10.0.0.5", pick(_ALNUM, 12) + "4"),
    (Kind.SECRET, "| name | value |\n| api_key | {s} |", pick(_ALNUM, 32) + "4"),
    (Kind.PRIVATE_KEY, "body: {s}", "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC" + pick(_B64, 200)),
    (
        Kind.PRIVATE_KEY,
        "body:\n{s}\nend",
        "MIIEowIBAAKCAQEA" + pick(_B64, 48) + "\n" + pick(_B64, 64) + "\n" + pick(_B64, 20) + "==",
    ),
    (
        Kind.PRIVATE_KEY,
        "{s}",
        "-----BEGIN OpenVPN Static key V1-----\n"
        + "\n".join(pick(_HEX, 32) for _ in range(4))
        + "\n-----END OpenVPN Static key V1-----",
    ),
    (Kind.WALLET_PRIVATE_KEY, "solana keypair in hex: {s} end", _FAKES.solana_keypair().hex()),
    (Kind.WALLET_PRIVATE_KEY, "keypair {s} end", base64.b64encode(_FAKES.solana_keypair()).decode()),
    (
        Kind.SECRET,
        "  .dockerconfigjson: {s}",
        base64.b64encode(
            b'{"auths": {"r.acme.dev": {"auth": "' + base64.b64encode(b"robot:" + pick(_ALNUM, 16).encode()) + b'"}}}'
        ).decode(),
    ),
    # round 6 (0240): families held-out 5 exposed, and their siblings
    (Kind.SECRET, "mc alias set lake http://10.0.0.5:9000 {s} $MINIO_SECRET_KEY", pick(_ALNUM, 20)),
    (Kind.SECRET, "b2 authorize-account {s} $B2_APPLICATION_KEY", "0012" + pick(_HEX, 21)),
    (Kind.SECRET, "b2 account authorize $B2_KEY_ID {s}", "K001" + pick(_ALNUM, 27)),
    (Kind.PASSWORD, "echo {s} > ~/.passwd-s3fs", pick(_ALNUM, 20) + ":" + pick(_B64, 40)),
    (Kind.SECRET, "access_key_id = {s}", pick(_HEX, 32)),
    (Kind.SECRET, "kubectl create secret generic hf --from-literal=hf={s}", pick(_ALNUM, 30) + "7"),
    (Kind.SECRET, "az keyvault secret set --vault-name v --name db --value {s}", pick(_ALNUM, 14) + "7"),
    (Kind.SECRET, "aws secretsmanager create-secret --name db --secret-string {s}", pick(_ALNUM, 14) + "7"),
    (Kind.PASSWORD, "gcloud secrets versions add db --data-file=- <<< {s}", pick(_ALNUM, 14) + "7"),
    (Kind.PASSWORD, "ssh-keygen -t ed25519 -N '{s}' -f ~/.ssh/gpu", pick(_ALNUM, 12) + "7"),
    (Kind.PASSWORD, "ssh-keygen -p -f ~/.ssh/gpu -P {s}", pick(_ALNUM, 12) + "7"),
    (Kind.PASSWORD, "openssl enc -aes-256-cbc -k {s} -in ckpt.tar -out ckpt.enc", pick(_ALNUM, 12) + "7"),
    (Kind.SECRET, "replicate auth login {s}", pick(_ALNUM, 40)),
    (Kind.PASSWORD, 'server.login("lab.alerts@gmail.com", "{s}")', " ".join(pick(_LOWER, 4) for _ in range(4))),
    (Kind.PASSWORD, 'conn = DriverManager.getConnection(url, "app", "{s}");', pick(_ALNUM, 12) + "7"),
    (Kind.PASSWORD, "I set the root password of instance #1024 to {s} and SSH fails", pick(_ALNUM, 12) + "7"),
    (Kind.PASSWORD, "cambié la contraseña de root a {s} ayer", pick(_ALNUM, 12) + "7"),
    (Kind.PASSWORD, "root şifresini {s} olarak değiştirdim", pick(_ALNUM, 12) + "7"),
    # round 9 (0393): the password named first, changed later in its sentence
    (Kind.PASSWORD, "La contraseña de root no entra, la cambié a {s} ayer", "Kv" + pick(_LOWER, 6) + "7%x"),
    (Kind.PASSWORD, "I logged in with {s} as the root password", pick(_ALNUM, 12) + "7"),
    (Kind.AWS_SECRET_KEY, "rclone config create r2 s3 access_key_id $R2_ID secret_access_key {s}", pick(_HEX, 64)),
    (Kind.SECRET, "modal token set --token-id {s} --token-secret $MODAL_SECRET", "ak-" + pick(_ALNUM, 22)),
    (Kind.PASSWORD, "db_password: SecretStr = SecretStr('{s}')", pick(_ALNUM, 12) + "7"),
    (
        Kind.PASSWORD,
        "restic -r sftp:u1@box.example:/ckpt --password-command 'echo {s}' snapshots",
        pick(_ALNUM, 12) + "7",
    ),
    (Kind.PASSWORD, "the root pass on gpu-12 is {s} if you need it", pick(_ALNUM, 12) + "7"),
    (Kind.PASSWORD, 'let password: &str = "{s}";', pick(_ALNUM, 12) + "7"),
    (Kind.PASSWORD, "clave de acceso al panel: {s}", pick(_ALNUM, 12) + "7"),
    (Kind.PASSWORD, "mk: {s} (tài khoản ada)", pick(_ALNUM, 12) + "7"),
    (Kind.SECRET, "gizli anahtar {s}", pick(_ALNUM, 40)),
    (Kind.PASSWORD, "creds → ada / {s}", pick(_ALNUM, 12) + "7"),
    (Kind.PASSWORD, "the ssh password (it's {s}) worked yesterday", pick(_ALNUM, 12) + "7"),
    (Kind.SECRET, 'co = cohere.ClientV2("{s}")', pick(_ALNUM, 40)),
    (
        Kind.SECRET,
        "alert webhook (Teams): {s}",
        f"https://acme.webhook.office.com/webhookb2/{_FAKES.uuid()}@{_FAKES.uuid()}/IncomingWebhook/"
        f"{pick(_HEX, 32)}/{_FAKES.uuid()}",
    ),
    (Kind.SECRET, "mattermost: https://chat.acme.dev/hooks/{s}", pick(_LOWER, 26)),
    (Kind.PASSWORD, 'conn = cx_Oracle.connect("scott/{s}@db.acme.local:1521/orclpdb")', pick(_ALNUM, 12) + "7"),
    (Kind.PASSWORD, "can you try logging in with ada@acme.dev and {s}? that's the account pw", pick(_ALNUM, 12) + "7"),
    (Kind.PASSWORD, "ok I changed it, it's now {s} lol", "Liverpool_" + pick("0123456789", 4)),
    (Kind.PRIVATE_KEY, "export ETH_PK={s}", pick(_HEX, 64)),
    # the token and the path after it go (a span is widened to the whole run of token characters, `/` included)
    (Kind.SECRET, "channels:\n  - https://conda.anaconda.org/t/{s}", "ab-" + _FAKES.uuid() + "/private"),
    (Kind.SECRET, "use {s} as the wandb key", pick(_HEX, 40)),
    (Kind.PASSWORD, "password for the jupyter server = {s}", pick(_ALNUM, 12) + "7"),
    (
        Kind.PASSWORD,
        "DB_PASSWORD={s}",
        "my_secret_pw",
    ),  # a `.env` line, not code: the round-6 variable rule spares code only
    # round 7 (0241): tools' files and scripts, a relative clause, an arrow after words
    (Kind.PASSWORD, 'spawn ssh ada@gpu-7\nexpect -re "assword:" {{ send -- "{s}\\r" }}', pick(_ALNUM, 12) + "7"),
    (Kind.PASSWORD, "child.expect('Passphrase for key:')\nchild.sendline('{s}')", pick(_ALNUM, 12) + "7"),
    (Kind.PASSWORD, 'pgbouncer auth_file:\n"ada" "{s}"\n"ops" ""', pick(_ALNUM, 12) + "7"),
    (Kind.PASSWORD, "poetry config http-basic.private-pypi ada {s}", pick(_ALNUM, 20)),
    (Kind.PASSWORD, "composer config -g gitlab-token.git.acme.dev {s}", pick(_ALNUM, 20)),
    (Kind.SECRET, "export VAULT_SECRET_ID={s}", _FAKES.uuid()),
    (Kind.SECRET, "vault write auth/approle/login role_id=ml-ci \\\n  secret_id={s}", _FAKES.uuid()),
    # round 10 (0397): a web UI's auth flag, a cookie string without its header
    (Kind.PASSWORD, "python launch.py --gradio-auth ada:{s} --listen", pick(_ALNUM, 12) + "7"),
    (Kind.SECRET, "cookies: sessionid={s}; django_language=es", pick(_LOWER, 32)),
    (Kind.SECRET, "the token we used before the migration was {s}, is it still valid?", pick(_ALNUM, 32)),
    (Kind.PASSWORD, "password for the staging db -> {s} (user app)", pick(_ALNUM, 12) + "7"),
    # round 8 (0391): GPU and AI tools' tokens, shapes, a tunnel token (the AWS pair of 0389 has two findings per
    # text: `test_redaction_round8.py` holds its samples)
    *[
        (Kind.SECRET, "bare {s} end", token)
        for token in (
            "KGAT_" + pick(_HEX, 32),
            "wandb_v1_" + pick(_ALNUM, 27) + "_" + pick(_ALNUM, 49),
            "dckr_oat_" + pick(_ALNUM, 32),
            "sb_secret_" + pick(_ALNUM, 31),
            "as-Ab1" + pick(_ALNUM, 19),
            "pa-Ab1" + pick(_ALNUM, 40),
            "sk_" + pick(_HEX, 48),
            "sk-lf-" + _FAKES.uuid(),
            "sgp_" + pick(_HEX, 16) + "_" + pick(_HEX, 40),
            "ico-" + pick(_ALNUM, 32),
            "cfat_" + pick(_ALNUM, 40) + pick(_HEX, 8),
            "fc-" + pick(_HEX, 32),
            "llx-" + pick(_ALNUM, 48),
            "jina_" + pick(_ALNUM, 60),
            "2aB" + pick(_ALNUM, 24) + "_7" + pick(_ALNUM, 20),
            base64.b64encode(f"ab12{pick(_LOWER, 22)}:{_FAKES.uuid()}".encode()).decode(),
            f"ab12{pick(_LOWER, 22)}:{_FAKES.uuid()}",
            pick(_B64, 42) + "+ACR" + pick(_ALNUM, 6),
        )
    ],
    (
        Kind.PRIVATE_KEY,
        "cert.pem:\n{s}",
        "-----BEGIN ARGO TUNNEL TOKEN-----\n"
        + pick(_B64, 64)
        + "\n"
        + pick(_B64, 20)
        + "\n-----END ARGO TUNNEL TOKEN-----",
    ),
]

# A token wrapped across lines: the head (too short for its pattern) and the rest on the next line both go.
WRAPPED = [
    ("my token got split: {s}", "hf_" + pick(_ALNUM, 17) + "\n" + pick(_ALNUM, 17)),
    ("OPENAI_API_KEY={s}", "sk-proj-" + pick(_ALNUM, 60) + "\n" + pick(_ALNUM, 40)),
    ("key = {s}", '"sk-proj-' + pick(_ALNUM, 40) + '" \\\n      "' + pick(_ALNUM, 40) + '"'),
]


@pytest.mark.parametrize(("template", "secret"), WRAPPED)
def test_a_token_wrapped_across_lines_goes_whole(template, secret):
    result = redact_text(template.format(s=secret), field="logs")
    for line in secret.split("\n"):
        assert line.strip(' "\\')[-10:] not in result.text


@pytest.mark.parametrize(
    "text",
    [
        "OPENAI_API_KEY=sk-proj-XXXXXXXXXXXXXXXXXXXXXXXX",
        "environment:\n  - POSTGRES_PASSWORD=${POSTGRES_PASSWORD:?set it}",
        "Enter password for new role: (hidden)",
        "client-certificate-data: " + base64.b64encode(pem("CERTIFICATE").encode()).decode(),
        "hf token\nhf_abcdefghijklmnopq\nCompleted",
        "PWD=/home/Ada",
        "call wandb.login(key=[your_api_key])",
        "DATABASE_URL=postgresql://user:password@localhost:5432/db",
        '"secrets": [{"name": "DB_PASSWORD", "valueFrom": "arn:aws:secretsmanager:us-east-1:1:secret:db"}]',
        "tx key 0x" + "ab" * 32,
        "pk_live_" + "Ab3" * 8 + " is our publishable key",
        "the key ID is Xb3kQ9mZ2pLw7RtY4nVc",
        "docker run -u 1000 -p 8080:80 trainer",
        "password: at least 12 characters, one digit",
        "keypair_path: /root/.config/solana/id.json",
        "key 0x" + "ab12" * 10 + " is my deposit address",
        "docker pull nvcr.io/nvidia/pytorch:24.01-py3@sha256:" + "ab" * 32,
        # round 5 (0213): each of these was changed by a round-4 rule
        "The deploy key (read-only) fingerprint SHA256:" + "Ab3dE9" * 7 + "x is registered on the repo.",
        "password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256",
        "login: ada / password: the usual one from our vault",
        "git config --global user.signingkey 3AA5C34371567BD2",
        "echo y | sudo -S apt-get install -y nvtop",
        "echo ada:$NEWPASS | sudo chpasswd",
        "storage key 0x" + "ab" * 32 + " holds the balance mapping",
        "ERROR 1045 (28000): Access denied for user 'root'@'localhost' (using password: YES)",
        "Password: ✔ Token: ✔ Region: ✘",
        "auth:\n  passwordSecret: db-pass",
        "key: MCowBQYDK2VwAyEA" + "Ab3dE9" * 7 + "x=   (public, from openssl pkey -pubout)",
        "| password | status |\n|---|---|\n| root | changed 8 days ago |",
        "GPU-42062d52-823a-4fb4-a527-c3c45a9a6bd5 (the token of the MIG slice? no, the UUID) fails",
        "aws ssm put-parameter --name /prod/db-password --type SecureString --value file://pw.txt",
        # round 6 (0240)
        "class Settings(BaseSettings):\n    db_password: SecretStr\n    api_key: Optional[str] = None",
        "interface Config {\n  apiKey?: string;\n  password: string;\n}",
        "mc alias set local http://127.0.0.1:9000 --api S3v4",
        "kubectl create secret generic cfg --from-literal=region=us-east-1 --from-literal=bucket=models",
        "server.login(os.environ['SMTP_USER'], os.environ['SMTP_PASSWORD'])",
        "docker login nvcr.io && huggingface-cli login",
        "ssh-keygen -t ed25519 -N '' -f ~/.ssh/gpu",
        "sshpass -f ~/.ssh/gpu_pw ssh -p 20512 root@10.0.8.46 nvidia-smi",
        "vault login -method=oidc role=ml",
        "token: hf_***7ow5 (masked by the log shipper)",
        "password: op://ml-vault/gpu-box-15/password",
        "restic: Fatal: wrong password or no key found (repo sftp:backup@17.acme.dev:/ckpt)",
        "Key ID: 4018564DA47533AF  (the GPG key used to sign the release)",
        "pub struct Config {\n    pub password: Option<String>,\n}",
        "password=getpass.getpass()",
        "the backward pass is 2.3x slower on the second pass: 14.2 ms",
        "PINECONE_API_KEY=pcsk_…7hoe (redacted in the screenshot)",
        "Özel anahtarı kimseyle paylaşmıyorum, sadece adres: 2PdVNhyUq2JxagfvRTFgd1RYx1R5VBKmVawQJHgkrHpb",
        'r = redis.Client("localhost:6379")',
        "git clone hf.co/meta-llama/Llama-2-7b-hf@refs/pr/1",
        "I changed the precision, it's now bf16-mixed",
        "I tried logging in with ssh and password auth, neither works",
        "I changed it, it's now Ubuntu22.04 with driver 550",
        "I use ed25519 as the ssh key type",
        "tx 0x" + "f4" * 32 + " failed (gas)",
        "send_mail(subject, body, password=auth_password, fail_silently=False)",
        "self.key_password = key_password",
        'kwargs["password"] = settings_dict["PASSWORD"]',
        "password: The password part of the URL.",
        "password = make_password(raw_password)",
        'password: bytes = b""',
        "password = self.keyring.get_password(url, username)",
        'raise ConfigError("Password should be latin-1 encodable.")',
        "password = password[:32]",
        # round 7 (0241): each family of held-out 6's false positives, in other words
        "arn:aws:secretsmanager:us-east-1:210987654321:secret:ml/db-Ab12Cd — access denied for the task role",
        "Passing --token via the environment is safer than --token on the command line",
        "I keep the key in .env (OPENAI_API_KEY=...) and in the vault (HF_TOKEN=<yours>)",
        "deploy ALL=(ALL) NOPASSWD:ALL\n%ml ALL=(root) NOPASSWD: /usr/bin/nvidia-smi",
        "Mi clave pública: ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC7x9Lk2 ana@casa",
        "public key: ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTY ada@lab",
        "the secret behind the speedup is FlashAttention-3 on H100",
        "the api key I was given last week was revoked, how do I get one?",
        'spawn ssh ada@gpu-7\nexpect "password:"\nsend "$env(GPU_PW)\\r"',
        'pgbouncer logs: "app" "login failed" for 3 clients',
        "composer config --global http-basic.repo.acme.dev ada $COMPOSER_PASSWORD",
        "vault write auth/approle/role/ml secret_id_ttl=10m token_ttl=20m",
        "the token contract we deployed is 0x" + "ab12" * 10,
    ],
)
def test_look_alikes_stay(text):
    assert redact_text(text, field="logs").text == text


_IDS = [f"{kind.value}-{number}" for number, (kind, _template, _secret) in enumerate(SAMPLES)]


@pytest.mark.parametrize(("kind", "template", "secret"), SAMPLES, ids=_IDS)
def test_each_detector_removes_the_whole_secret(kind, template, secret):
    result = redact_text(template.format(s=secret), field="logs")
    assert result.text == template.format(s=marker(kind))
    assert [finding.kind for finding in result.findings] == [kind]


def _every_pattern():
    for plugin, _kind in _LIBRARY_PLUGINS:
        for pattern in plugin.denylist:
            yield f"{type(plugin).__name__}: {pattern.pattern}", pattern
    for pattern, _kind in PROVIDER_PATTERNS:
        yield pattern.pattern, pattern
    for pattern, _kind, _rule in CONTEXT_PATTERNS:
        yield pattern.pattern, pattern
    for pattern in (
        WIF,
        SOLANA_BASE58,
        SOLANA_HEX,
        SOLANA_BASE64,
        JSON_KEYPAIR,
        _PEM_BEGIN,
        _PUTTY,
        WRAPPED_HEAD,
        _PEM_BASE64,
        _HEADERLESS_KEY,
        _BASE64_JSON,
        NGC_KEY,
        NGC_KEY_TEXT,
        NGROK_AUTHTOKEN,
        ACR_PASSWORD,
    ):
        yield pattern.pattern, pattern


@pytest.mark.parametrize(("name", "pattern"), list(_every_pattern()), ids=lambda value: str(value)[:60])
def test_every_detector_has_a_sample_here(name, pattern):
    assert any(pattern.search(template.format(s=secret)) for _kind, template, secret in SAMPLES), name


def test_the_line_after_a_token_is_kept_when_it_is_an_assignment():
    key = "sk-proj-" + pick(_ALNUM, 60)
    result = redact_text(f"OPENAI_API_KEY={key}\nLOG_LEVEL=info", field="logs")
    assert result.text == f"OPENAI_API_KEY={marker(Kind.OPENAI_KEY)}\nLOG_LEVEL=info"


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("echo 'root:Gpurig-8337' | sudo chpasswd", "Gpurig-8337"),
        ("echo 'S3cr3t!pw' | sudo -S nvidia-smi -pm 1", "S3cr3t!pw"),
        ("password: !Gpurig8337x", "!Gpurig8337x"),
        ("deployer key 0x" + "ab" * 32, "ab" * 32),
        ("login: ada / password: Gpurig-8337", "Gpurig-8337"),
    ],
)
def test_round_five_narrowing_still_catches_the_secret_next_to_it(text, secret):
    """The rules narrowed in round 5 (0213) still remove a secret in the same place as the look-alike they spare."""
    assert secret not in redact_text(text, field="logs").text

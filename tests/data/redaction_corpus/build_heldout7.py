# ruff: noqa: E501  (one realistic sample per line reads better than wrapped ones)
"""Build the SEVENTH held-out part of the redaction corpus (`heldout7/*.jsonl`): about 350 support requests with a
pasted secret and 500 clean ones (`heldout7_negatives.py`), balanced like a real inbox.

Written (issue 15, 2026-12-03) by an engineer (`hcorpus7`) who did not open the patterns (`gpurent/core/redaction/`),
the tuning parts or their builders, or held-out 6; who did not run the redactor or `bench/redaction_recall.py` on
these texts and never saw which of them it misses or changes. The pattern author measures it once and never tunes
on it. Format as `build_heldout5.py`.

Run once: `.venv/bin/python -m tests.data.redaction_corpus.build_heldout7`; the output is committed. The
build checks itself (`checks.check_and_write`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from .checks import check_and_write
from .fakes import ALNUM, UPPER, URLSAFE, Fakes
from .heldout5_negatives import wrap
from .heldout7_commands import commands, host, password
from .heldout7_negatives import negatives

OUT = Path(__file__).resolve().parent / "heldout7"
SEED = 7_20261203
Sample = tuple[str, list[str]]


def _tokens(f: Fakes) -> list[Callable[[], Sample]]:
    def env(name: str, value: Callable[[], str], note: str) -> Callable[[], Sample]:
        def build() -> Sample:
            v = value()
            return f"{note}\n\n# .env\nDEBUG=0\n{name}={v}\nMODEL=meta-llama/Llama-3.1-8B-Instruct", [v]

        return build

    def code(line: str, value: Callable[[], str], note: str) -> Callable[[], Sample]:
        def build() -> Sample:
            v = value()
            return f"{note}\n```python\nimport os\n{line.format(v=v)}\n```", [v]

        return build

    def slack() -> str:
        return f"xoxb-{f.rng.randint(10**10, 10**11)}-{f.rng.randint(10**11, 10**12)}-{f.pick(ALNUM, 24)}"

    return [
        env(
            "OPENAI_API_KEY",
            lambda: "sk-proj-" + f.pick(URLSAFE, 74) + "T3BlbkFJ" + f.pick(URLSAFE, 74),
            "the eval script gets 429 only on your machines, never on my laptop",
        ),
        env(
            "ANTHROPIC_API_KEY",
            lambda: "sk-ant-api03-" + f.pick(URLSAFE, 93) + "AA",
            "after the image update the judge model calls fail",
        ),
        env("GROQ_API_KEY", lambda: "gsk_" + f.pick(ALNUM, 52), "latency from your Frankfurt region is awful, see env"),
        env("HUGGING_FACE_HUB_TOKEN", lambda: "hf_" + f.pick(ALNUM, 34), "gated model download stalls at 0%"),
        env(
            "GITHUB_TOKEN",
            lambda: "github_pat_" + f.pick(ALNUM, 22) + "_" + f.pick(ALNUM, 59),
            "pip install from our private repo fails inside the container",
        ),
        env("SLACK_BOT_TOKEN", slack, "the training-finished notifier never posts"),
        env(
            "STRIPE_SECRET_KEY",
            lambda: "sk_live_" + f.pick(ALNUM, 99),
            "our billing microservice on your box cannot reach Stripe",
        ),
        env(
            "SENDGRID_API_KEY",
            lambda: "SG." + f.pick(URLSAFE, 22) + "." + f.pick(URLSAFE, 43),
            "emails from the demo app are not sent",
        ),
        env("DIGITALOCEAN_TOKEN", lambda: "dop_v1_" + f.hex(64), "syncing Spaces to the instance is slow"),
        env("REPLICATE_API_TOKEN", lambda: "r8_" + f.pick(ALNUM, 37), "comparing your H100 against Replicate"),
        env("GOOGLE_API_KEY", lambda: "AIza" + f.pick(URLSAFE, 35), "gemini client times out from the instance"),
        env("PERPLEXITY_API_KEY", lambda: "pplx-" + f.pick(ALNUM, 48), "outbound https seems to be throttled"),
        env("NGC_API_KEY", lambda: "nvapi-" + f.pick(URLSAFE, 64), "NIM container refuses to start"),
        env("LINEAR_API_KEY", lambda: "lin_api_" + f.pick(ALNUM, 40), "our bot that opens tickets on failures stopped"),
        env("SHOPIFY_ACCESS_TOKEN", lambda: "shpat_" + f.hex(32), "product-description generator job crashes"),
        env(
            "TAILSCALE_AUTHKEY",
            lambda: "tskey-auth-" + f.pick(ALNUM, 17) + "-" + f.pick(ALNUM, 32),
            "the node never joins the tailnet",
        ),
        env("CLOUDFLARE_API_TOKEN", lambda: f.pick(URLSAFE, 40), "DNS update hook fails at boot"),
        env("DATABRICKS_TOKEN", lambda: "dapi" + f.hex(32), "spark connector from the GPU box errors"),
        env(
            "POSTMAN_API_KEY",
            lambda: "PMAK-" + f.hex(24) + "-" + f.hex(34),
            "the collection runner on the instance 401s",
        ),
        env("NEW_RELIC_LICENSE_KEY", lambda: "NRAK-" + f.pick(UPPER, 27), "agent shows nothing in the dashboard"),
        code(
            'openai.api_key = "{v}"',
            lambda: "sk-" + f.pick(ALNUM, 20) + "T3BlbkFJ" + f.pick(ALNUM, 20),
            "old notebook, worked last week:",
        ),
        code(
            'client = Groq(api_key="{v}")',
            lambda: "gsk_" + f.pick(ALNUM, 52),
            "this cell hangs forever on your instance",
        ),
        code(
            'login(token="{v}")  # huggingface_hub',
            lambda: "hf_" + f.pick(ALNUM, 34),
            "from the first cell of my notebook",
        ),
        code(
            "s3 = boto3.client('s3', aws_access_key_id='{v}', aws_secret_access_key=os.environ['S'])",
            lambda: "AKIA" + f.pick("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16),
            "key id hardcoded, secret from env:",
        ),
        code(
            'headers = {{"Authorization": "Bearer {v}"}}',
            lambda: f.pick(ALNUM, 48),
            "the request to our inference gateway returns 401",
        ),
        code(
            'bot = telebot.TeleBot("{v}")',
            lambda: f"{f.rng.randint(10**9, 10**10 - 1)}:AA{f.pick(URLSAFE, 33)}",
            "my Telegram bot that reports GPU temps stopped",
        ),
        code('wandb.login(key="{v}", relogin=True)', lambda: f.hex(40), "wandb init hangs inside the trainer"),
        code(
            'pc = Pinecone(api_key="{v}")',
            lambda: "pcsk_" + f.pick(ALNUM, 5) + "_" + f.pick(ALNUM, 63),
            "vector upserts from the rental are slow",
        ),
        code('stripe.api_key = "{v}"', lambda: "rk_live_" + f.pick(ALNUM, 99), "restricted key, still fails:"),
        code(
            'mailchimp.set_config({{"api_key": "{v}"}})',
            lambda: f.hex(32) + "-us21",
            "newsletter job in the same container",
        ),
    ]


def _words(f: Fakes) -> list[tuple[str, Callable[[], Sample]]]:
    def said(lang: str, phrase: str, value: Callable[[], str]) -> tuple[str, Callable[[], Sample]]:
        def build() -> Sample:
            v = value()
            return phrase.format(v=v, h=host(f)), [v]

        return lang, build

    return [
        said(
            "en",
            "I can't SSH in anymore. The root password you emailed me is {v} and it says access denied on {h}",
            lambda: password(f),
        ),
        said(
            "en",
            "Can you set the Jupyter password back to {v}? I changed it and forgot the new one",
            lambda: password(f),
        ),
        said(
            "en",
            "fyi the api secret for our gateway is {v}, your firewall is blocking the callback",
            lambda: f.pick(ALNUM, 32),
        ),
        said("en", "Here is the passphrase of my deploy key in case you need it: {v}", lambda: f.pick(ALNUM + "-", 22)),
        said(
            "es",
            "No puedo entrar al servidor {h}. La contraseña es {v} y me dice acceso denegado.",
            lambda: password(f),
        ),
        said("es", "Les paso mi clave de API para que prueben ustedes: {v}", lambda: "sk-proj-" + f.pick(URLSAFE, 48)),
        said(
            "es",
            "la clave privada de mi billetera es {v}, necesito que el reembolso vaya ahí",
            lambda: "0x" + f.eth_key(),
        ),
        said("vi", "Em không đăng nhập được vào máy {h}. Mật khẩu là {v} ạ.", lambda: password(f)),
        said("vi", "Token Hugging Face của em: {v} — tải model bị lỗi 401", lambda: "hf_" + f.pick(ALNUM, 34)),
        said("vi", "khóa bí mật ví của em là {v}, anh kiểm tra giúp giao dịch nạp tiền", lambda: f.eth_key()),
        said("tr", "{h} sunucusuna giremiyorum, şifre: {v}", lambda: password(f)),
        said("tr", "Parolam {v} ama panel yanlış diyor, sıfırlayabilir misiniz?", lambda: password(f)),
        said("tr", "API anahtarım şu: {v} — istekler 403 dönüyor", lambda: f.pick(ALNUM, 40)),
        said("tr", "cüzdanımın özel anahtarı {v}, iade buraya gelsin", lambda: f.solana_keypair_b58()),
    ]


def _keys(f: Fakes) -> list[Callable[[], Sample]]:
    def pem(label: str, note: str) -> Callable[[], Sample]:
        def build() -> Sample:
            block = f.pem(label, f.rng.randint(6, 12))
            body = block.splitlines()[1:-1]
            return f"{note}\n{block}", [line for line in body if len(line) >= 8]

        return build

    def solana_json() -> Sample:
        k = f.solana_keypair_json(spaced=f.rng.random() < 0.5)
        return f"cat ~/.config/solana/id.json\n{k}\nsolana balance says 0 but I paid the deposit from this wallet", [k]

    def solana_b58() -> Sample:
        k = f.solana_keypair_b58()
        return f"Phantom export → private key: {k}\nplease refund to this wallet, the deposit never arrived", [k]

    def eth_env() -> Sample:
        k = "0x" + f.eth_key()
        return (
            f"forge script Deploy --rpc-url $RPC --private-key {k} --broadcast\nError: insufficient funds for gas * price + value",
            [k],
        )

    def eth_ethers() -> Sample:
        k = f.eth_key()
        return f'const wallet = new ethers.Wallet("{k}", provider);\n// tx to your deposit address is stuck pending', [
            k
        ]

    def seed_prose() -> Sample:
        s = f.seed_phrase(f.choice([12, 24]))
        return f"my wallet seed phrase: {s}\nthe USDC deposit shows on the explorer but not in my balance", [s]

    def seed_keystore() -> Sample:
        s = f.seed_phrase(12)
        return f'MNEMONIC="{s}"\nnpx hardhat run scripts/pay.js --network base', [s]

    def seed_vi() -> Sample:
        s = f.seed_phrase(12)
        return f"Cụm từ khôi phục ví của em: {s}. Em nạp tiền rồi mà chưa thấy.", [s]

    def wif() -> Sample:
        k = f.wif()
        return f'bitcoin-cli importprivkey {k} "refund" false\nerror code: -4 wallet is locked', [k]

    return [
        pem("OPENSSH PRIVATE KEY", "ssh -i this key fails, pasting it so you can check the format:"),
        pem("RSA PRIVATE KEY", "id_rsa from the old server, the new instance rejects it"),
        pem("EC PRIVATE KEY", "the TLS key for my vllm endpoint:"),
        pem("PRIVATE KEY", "tls.key that nginx refuses to load (key values mismatch):"),
        solana_json,
        solana_b58,
        eth_env,
        eth_ethers,
        seed_prose,
        seed_keystore,
        seed_vi,
        wif,
    ]


def positives(f: Fakes) -> list[Sample]:
    out: list[Sample] = []

    def add(build: Callable[[], Sample], times: int, lang: str = "en") -> None:
        for _ in range(times):
            text, secrets = build()
            out.append((wrap(f, text, lang) if f.rng.random() < 0.6 else text, secrets))

    for build in commands(f):
        add(build, 5)
    for build in _tokens(f):
        add(build, 4)
    for lang, build in _words(f):
        add(build, 5, lang)
    for build in _keys(f):
        add(build, 3)
    return out


def main() -> None:
    fakes = Fakes(seed=SEED)
    pos = positives(fakes)
    neg = negatives(fakes)
    check_and_write(OUT, "h7", pos, neg)


if __name__ == "__main__":
    main()

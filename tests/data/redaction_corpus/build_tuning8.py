"""Build the pattern author's part of round 8 (`tuning8/*.jsonl`): the families issue 32 named, and their kin.

Round 8 (issue 32, decisions 0389–0391): an AWS secret access key pasted right after its access key id with no
label between them (every separator a paste puts there), wallet seed phrases in the nine BIP-39 lists other than
English (typed in prose in the shop's languages, numbered, without accents, with ideographic spaces), and
credential shapes of GPU users' tools that were only caught with a name next to them (Kaggle, W&B v1, Docker
organization tokens, Supabase, Modal, ElevenLabs, Voyage, Langfuse, Sourcegraph, Infracost, Cloudflare, Firecrawl,
LlamaCloud, Jina, legacy NGC keys, ngrok authtokens, Azure Container Registry passwords, cloudflared's tunnel
token). Clean texts: ordinary prose in Spanish, French, Italian, Portuguese, Czech, Korean, Japanese, Chinese,
Vietnamese and Turkish full of list words, lists of fewer than twelve list words or of two lists, AWS key ids
followed by something that is not a secret, and look-alikes of the new prefixes and shapes. It is a tuning part:
the patterns were changed against it. Held-out 7's and 8's texts were not looked at while writing it.

Run: `.venv/bin/python -m tests.data.redaction_corpus.build_tuning8`; the output is committed.
"""

from __future__ import annotations

import base64
import unicodedata
from collections.abc import Callable
from pathlib import Path

from gpurent.core.redaction.seed_phrases import mnemonic_from_entropy

from .build_tuning6b import with_values
from .checks import check_and_write
from .fakes import ALNUM, B64, LOWER, UPPER, URLSAFE, Fakes
from .tuning8_negatives import negatives

OUT = Path(__file__).resolve().parent / "tuning8"

Sample = Callable[[], tuple[str, list[str]]]


def _aws_pairs(f: Fakes) -> list[Sample]:
    def key_id() -> str:
        return f.choice(["AKIA", "ASIA"]) + f.pick(UPPER, 16)

    def secret() -> str:
        while True:
            value = f.pick(B64, 40)
            if any(c.isupper() for c in value) and any(c.islower() for c in value) and any(c.isdigit() for c in value):
                return value

    pairs = [
        "AWS {a} / {s}",
        "aws keys: {a} {s}",
        "{a}:{s}",
        "here you go {a},{s}",
        'creds = ["{a}", "{s}"]',
        "boto3.client('s3', '{a}', '{s}')",
        "{a}\n{s}",
        "{a}\t{s}\tus-east-1",
        "Access key ID,Secret access key\n{a},{s}",
        "User name,Password,Access key ID,Secret access key,Console login link\nada,,{a},{s},https://123456789012.signin.aws.amazon.com/console",
        "the bucket user is {a} -> {s}, please delete after the sync",
        "AWS={a}|{s}",
        "Acá están las llaves del bucket: {a} / {s}",
        "khóa AWS của em: {a} {s}",
        "AWS anahtarları: {a} : {s}",
        "I stored them in the order form notes so the operator can mount the bucket: {a} {s}",
        "export CREDS='{a}:{s}'",
        "s3fs bucket /mnt/s3 -o passwd_file=<(echo {a}:{s})",
        "| {a} | {s} |",
        "keys (rotate them after!)\n  {a}\n  {s}",
    ]
    return [with_values(template, a=key_id, s=secret) for template in pairs]


def _aws_id_then_no_secret(f: Fakes) -> list[tuple[str, list[str]]]:
    """An access key id followed by what is not a secret access key: the id goes (it is a secret of its own kind),
    the rest stays — scored on the id only; `test_redaction_round8.py` checks that the rest is kept."""
    out = []
    for template in (
        "the access key id {a} shows up in CloudTrail, fixed in commit " + f.hex(40),
        "{a} was deactivated by the admin team yesterday, please confirm",
        "aws_access_key_id = {a}\naws_secret_access_key = ****************************************",
        "Access key ID,Secret access key\n{a},<rotated>",
        "{a} / " + f.hex(40),
        "{a}: " + f.pick(LOWER, 40),
        "{a} " + f.pick(UPPER, 40),
        "{a} " + f.pick(ALNUM, 56),
    ):
        key_id = "AKIA" + f.pick(UPPER, 16)
        out.append((template.replace("{a}", key_id), [key_id]))
    return out


def _phrase(f: Fakes, language: str, words: int = 12) -> str:
    phrase = mnemonic_from_entropy(f.raw(words * 4 // 3), language)
    return ("\u3000" if language == "japanese" else " ").join(phrase)


def _seed_phrases(f: Fakes) -> list[Sample]:
    def phrase(language: str, words: int = 12) -> Callable[[], str]:
        return lambda: _phrase(f, language, words)

    def numbered(language: str) -> Callable[[], str]:
        return lambda: "\n".join(f"{n}. {word}" for n, word in enumerate(mnemonic_from_entropy(f.raw(16), language), 1))

    def unaccented() -> str:
        while True:
            words = mnemonic_from_entropy(f.raw(16), "spanish")
            if any(not word.isascii() for word in words):
                break
        return " ".join(unicodedata.normalize("NFKD", w).encode("ascii", "ignore").decode() for w in words)

    return [
        with_values(
            "Hola, mi billetera me dio esta frase semilla al crearla: {s}. ¿La pueden guardar en mi cuenta?",
            s=phrase("spanish"),
        ),
        with_values("frase de recuperación (24 palabras):\n{s}", s=phrase("spanish", 24)),
        with_values("la escribí sin tildes porque el teclado no tiene: {s}", s=unaccented),
        with_values("Palabras de respaldo de Trust Wallet:\n{s}\nNo sé si están bien", s=numbered("spanish")),
        with_values(
            "Bonjour, voici ma phrase de récupération Ledger : {s} — merci de vérifier le paiement", s=phrase("french")
        ),
        with_values("phrase secrète (18 mots) : {s}", s=phrase("french", 18)),
        with_values("Mots de la sauvegarde :\n{s}", s=numbered("french")),
        with_values(
            "Ciao, la frase di recupero del portafoglio è {s}, potete controllare il pagamento?", s=phrase("italian")
        ),
        with_values("seed italiano da 24 parole: {s}", s=phrase("italian", 24)),
        with_values(
            "Olá, a frase de recuperação da carteira é: {s}. O pagamento não apareceu.", s=phrase("portuguese")
        ),
        with_values("frase semente (15 palavras)\n{s}", s=phrase("portuguese", 15)),
        with_values("Dobrý den, obnovovací fráze peněženky: {s}", s=phrase("czech")),
        with_values("ウォレットの復元フレーズです：{s}\nよろしくお願いします", s=phrase("japanese")),
        with_values("リカバリーフレーズ（24語）\n{s}", s=phrase("japanese", 24)),
        with_values("复原短语：{s}\n付款没有到账", s=phrase("chinese_simplified")),
        with_values("助記詞如下：{s}", s=phrase("chinese_traditional")),
        with_values("지갑 복구 문구입니다: {s} 확인 부탁드립니다", s=phrase("korean")),
        with_values("Cụm từ khôi phục ví (tiếng Tây Ban Nha): {s}", s=phrase("spanish")),
        with_values("Cüzdanın kurtarma kelimeleri (İspanyolca seçmişim): {s}", s=phrase("spanish")),
        with_values('MNEMONIC="{s}"', s=phrase("french")),
        with_values('{"mnemonic": "{s}", "path": "m/44\'/60\'/0\'/0/0"}', s=phrase("italian")),
        with_values(
            "seed: {s}",
            s=lambda: "\n".join(" ".join(row) for row in _rows(mnemonic_from_entropy(f.raw(32), "portuguese"))),
        ),
    ]


def _rows(words: list[str]) -> list[list[str]]:
    return [words[i : i + 4] for i in range(0, len(words), 4)]


def _tool_tokens(f: Fakes) -> list[Sample]:
    def ngc() -> str:
        return base64.b64encode(f"{f.pick(LOWER, 25)}7:{f.uuid()}".encode()).decode()

    def ngrok() -> str:
        return "2" + f.pick(ALNUM, 24) + "aB_" + f.pick("0123456789", 1) + f.pick(ALNUM, 20)

    def modal() -> str:
        return "as-" + f.pick(ALNUM, 19) + "Q7z"

    tokens: dict[str, Callable[[], str]] = {
        "kaggle": lambda: "KGAT_" + f.hex(32),
        "wandb": lambda: "wandb_v1_" + f.pick(ALNUM, 27) + "_" + f.pick(ALNUM, 49),
        "docker": lambda: "dckr_oat_" + f.pick(URLSAFE, 32),
        "supabase": lambda: "sb_secret_" + f.pick(URLSAFE, 31),
        "elevenlabs": lambda: "sk_" + f.hex(48),
        "voyage": lambda: "pa-" + f.pick(URLSAFE, 40) + "Zk4",
        "langfuse": lambda: "sk-lf-" + f.uuid(),
        "sourcegraph": lambda: "sgp_" + f.hex(16) + "_" + f.hex(40),
        "infracost": lambda: "ico-" + f.pick(ALNUM, 32),
        "cloudflare": lambda: f.choice(["cfut_", "cfat_", "cfk_"]) + f.pick(ALNUM, 40) + f.hex(8),
        "firecrawl": lambda: "fc-" + f.hex(32),
        "llamacloud": lambda: "llx-" + f.pick(ALNUM, 48),
        "jina": lambda: "jina_" + f.hex(32) + f.pick(ALNUM, 28),
    }
    bare = [
        "I pasted {s} into the notebook and now every cell fails with 401",
        "which one is it, {s} or the old one?",
        "se me filtró {s} en el log del contenedor",
        "token {s} çalışmıyor",
    ]
    out: list[Sample] = []
    for number, make in enumerate(tokens.values()):
        out.append(with_values(bare[number % len(bare)], s=make))
    out += [
        with_values("~/.kaggle/access_token\n{s}", s=tokens["kaggle"]),
        with_values("kaggle kernels push -p . # with {s} in the env", s=tokens["kaggle"]),
        with_values("wandb.login(relogin=True)\n# pasted: {s}", s=tokens["wandb"]),
        with_values("echo {s} | docker login -u acme --password-stdin", s=tokens["docker"]),
        with_values('supabase = create_client(url, "{s}")', s=tokens["supabase"]),
        with_values(
            "modal token set --token-id ak-" + f.pick(ALNUM, 22) + " --token-secret {s} --profile=lab", s=modal
        ),
        with_values('[lab]\ntoken_id = "ak-' + f.pick(ALNUM, 22) + '"\ntoken_secret = "{s}"', s=modal),
        with_values('vo = voyageai.Client("{s}")', s=tokens["voyage"]),
        with_values('Langfuse(public_key="pk-lf-' + f.uuid() + '", secret_key="{s}")', s=tokens["langfuse"]),
        with_values("cloudflare token {s} has Workers AI scope", s=tokens["cloudflare"]),
        with_values("docker login nvcr.io\nUsername: $oauthtoken\nPassword: {s}", s=ngc),
        with_values("my NGC key {s} stopped working after the org change", s=ngc),
        with_values("ngc key decoded: {s}", s=lambda: f"{f.pick(LOWER, 25)}9:{f.uuid()}"),
        with_values("~/.ngc/config\n[CURRENT]\napikey = {s}\nformat_type = ascii", s=ngc),
        with_values("ngrok http 8888 --authtoken={s}", s=ngrok),
        with_values("agent:\n  authtoken: {s}", s=ngrok),
        with_values("tried {s} from the ngrok dashboard, still ERR_NGROK_105", s=ngrok),
        with_values(
            "docker login acmegpu.azurecr.io -u acmegpu\nPassword: {s}",
            s=lambda: f.pick(B64, 42) + "+ACR" + f.pick(ALNUM, 6),
        ),
        with_values("registry password is {s}", s=lambda: f.pick(B64, 42) + "+ACR" + f.pick(ALNUM, 6)),
        with_values(
            "cat ~/.cloudflared/cert.pem\n{s}",
            s=lambda: (
                "-----BEGIN ARGO TUNNEL TOKEN-----\n"
                + "\n".join(f.pick(B64, 64) for _ in range(3))
                + "\n-----END ARGO TUNNEL TOKEN-----"
            ),
        ),
        with_values("FIRECRAWL_API_KEY={s}", s=tokens["firecrawl"]),
        with_values("Settings.llm = ..., api_key={s}", s=tokens["llamacloud"]),
        with_values("curl https://r.jina.ai/https://acme.dev -H 'Authorization: Bearer {s}'", s=tokens["jina"]),
        with_values("el = ElevenLabs(api_key='{s}')", s=tokens["elevenlabs"]),
        with_values("src-cli login https://sourcegraph.acme.dev --access-token {s}", s=tokens["sourcegraph"]),
        with_values("infracost configure set api_key {s}", s=tokens["infracost"]),
    ]
    return out


def positives(f: Fakes) -> list[tuple[str, list[str]]]:
    out: list[tuple[str, list[str]]] = []
    for family in (_aws_pairs, _seed_phrases, _tool_tokens):
        for build in family(f):
            out.extend(build() for _ in range(2))
    return out + _aws_id_then_no_secret(f)


def main() -> None:
    fakes = Fakes(seed=320261205)
    check_and_write(OUT, "t8", positives(fakes), negatives(fakes))


if __name__ == "__main__":
    main()

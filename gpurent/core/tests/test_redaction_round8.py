"""Round 8 of the redactor (issue 32, decisions 0389–0391): each family below was missed before this round.

- an AWS secret access key pasted right after its access key id, with no label between them (0389);
- wallet seed phrases in the nine BIP-39 lists other than English (0390);
- credential shapes of GPU users' tools that only a name around them gave away before (0391).

Every positive test here fails on the code before round 8; the look-alike tests pin what the new rules must spare.
"""

import base64
import random
import string
import unicodedata
import uuid
from pathlib import Path

import pytest
from bip_utils import Bip39Languages, Bip39MnemonicEncoder

from gpurent.core.redaction import Kind, marker, redact_text

_RNG = random.Random(32)  # noqa: S311 (fake secrets, the same in every run)
_ALNUM = string.ascii_letters + string.digits
_UPPER = string.ascii_uppercase + string.digits
_LOWER = string.ascii_lowercase + string.digits
_HEX = "0123456789abcdef"


def pick(alphabet: str, length: int) -> str:
    return "".join(_RNG.choice(alphabet) for _ in range(length))


def redacted(text: str) -> str:
    return redact_text(text, field="logs").text


# --- family 1: an AWS key pair with nothing between the id and the secret (0389) ---------------------------------

_KEY_ID = "AKIA" + pick(_UPPER, 16)
_SECRET = pick(_ALNUM, 18) + "/" + pick(_ALNUM, 10) + "+" + pick(_ALNUM, 10)


@pytest.mark.parametrize(
    "template",
    [
        "AWS {id} / {secret}",
        "keys: {id} {secret}",
        "{id}:{secret}",
        "{id},{secret}",
        '"{id}", "{secret}"',
        "'{id}' '{secret}'",
        "{id}\n{secret}\nregion us-east-1",
        "{id}\t{secret}",
        "User name,Access key ID,Secret access key\nada,{id},{secret}",
        "aws keys for the bucket -> {id} | {secret} (please delete after)",
        "cred = ('{id}', '{secret}')",
    ],
)
def test_an_aws_secret_right_after_its_key_id_goes(template):
    text = template.format(id=_KEY_ID, secret=_SECRET)
    result = redacted(text)
    assert _SECRET[:8] not in result
    assert _SECRET[-8:] not in result
    assert marker(Kind.AWS_SECRET_KEY) in result or marker(Kind.AWS_ACCESS_KEY) in result


def test_an_aws_pair_names_both_kinds():
    result = redact_text(f"AWS {_KEY_ID} / {_SECRET}", field="logs")
    assert result.text == f"AWS {marker(Kind.AWS_ACCESS_KEY)} / {marker(Kind.AWS_SECRET_KEY)}"


@pytest.mark.parametrize(
    "text",
    [
        # a 40-character value with no access key id before it: a commit, a checksum, an id
        "commit " + pick(_HEX, 40) + " broke the loader",
        "base64 of the config: " + pick(_ALNUM, 40),
        # after a key id, but not a secret's shape: a commit hash (no capital), a sentence, a longer token
        f"key id {_KEY_ID}, fixed in {pick(_HEX, 40)}",
        f"{_KEY_ID} was rotated yesterday by the admin team, see ticket",
        f"{_KEY_ID} " + pick(_ALNUM, 60),
    ],
)
def test_forty_characters_elsewhere_stay(text):
    assert redacted(text) == text.replace(_KEY_ID, marker(Kind.AWS_ACCESS_KEY))


# --- family 2: seed phrases in every BIP-39 list (0390) -----------------------------------------------------------

_DATA = Path(__file__).resolve().parents[1] / "redaction" / "data"


def _phrase(language: str, words: int) -> list[str]:
    entropy = bytes(_RNG.randrange(256) for _ in range(words * 4 // 3))
    if language == "japanese":  # bip-utils has no Japanese list: the official one is shipped in data/
        wordlist = (_DATA / "bip39_japanese.txt").read_text().split()
        return [wordlist[_RNG.randrange(2048)] for _ in range(words)]
    encoded = Bip39MnemonicEncoder(getattr(Bip39Languages, language.upper())).Encode(entropy)
    return encoded.ToStr().split()


_LANGUAGES = [
    "spanish",
    "french",
    "italian",
    "portuguese",
    "czech",
    "japanese",
    "korean",
    "chinese_simplified",
    "chinese_traditional",
]


def test_every_bip39_list_loads_and_matches_bip_utils():
    from gpurent.core.redaction.seed_phrases import LANGUAGES, is_valid_mnemonic, mnemonic_from_entropy, wordlist

    assert set(LANGUAGES) == {"english", *_LANGUAGES}
    for language in LANGUAGES:
        words = wordlist(language)
        assert len(words) == len(set(words)) == 2048, language
    entropy = bytes(range(32))
    for language in _LANGUAGES[:5] + _LANGUAGES[6:]:
        expected = Bip39MnemonicEncoder(getattr(Bip39Languages, language.upper())).Encode(entropy).ToStr().split()
        assert mnemonic_from_entropy(entropy, language) == expected
        assert is_valid_mnemonic(expected, language)


@pytest.mark.parametrize("language", _LANGUAGES)
@pytest.mark.parametrize("length", [12, 24])
def test_a_seed_phrase_in_each_bip39_language_goes(language, length):
    words = _phrase(language, length)
    separator = "\u3000" if language == "japanese" else " "
    phrase = separator.join(words)
    result = redact_text(f"mi frase semilla: {phrase}\ngracias", field="logs")
    assert result.text == f"mi frase semilla: {marker(Kind.SEED_PHRASE)}\ngracias"


def test_a_spanish_phrase_typed_without_accents_or_decomposed_goes():
    words = _phrase("spanish", 12)
    from gpurent.core.redaction.seed_phrases import wordlist

    words[3] = _RNG.choice([word for word in wordlist("spanish") if not word.isascii()])
    plain = " ".join(unicodedata.normalize("NFKD", word).encode("ascii", "ignore").decode() for word in words)
    assert redacted(plain) == marker(Kind.SEED_PHRASE)
    assert redacted(unicodedata.normalize("NFD", " ".join(words))) == marker(Kind.SEED_PHRASE)


def test_a_numbered_french_phrase_goes():
    numbered = "\n".join(f"{n}. {word}" for n, word in enumerate(_phrase("french", 12), 1))
    assert redacted(numbered) == "1. " + marker(Kind.SEED_PHRASE)


def test_a_japanese_phrase_with_ascii_spaces_and_a_chinese_one_with_commas_go():
    assert redacted(" ".join(_phrase("japanese", 12))) == marker(Kind.SEED_PHRASE)
    assert redacted("，".join(_phrase("chinese_simplified", 12))) == marker(Kind.SEED_PHRASE)


@pytest.mark.parametrize(
    "text",
    [
        # ordinary prose in the shop's languages and their neighbours, full of list words
        "Hola, alquilé una máquina con dos GPU ayer por la tarde y el disco no aparece; el panel dice que todo está "
        "bien pero el script de entrenamiento falla al abrir el archivo. ¿Pueden revisar la cuenta? Gracias.",
        "Bonjour, la machine louée hier soir ne démarre plus : le terminal affiche une erreur de mémoire, alors que "
        "le modèle tenait dans la carte avant la mise à jour. Pouvez-vous vérifier le serveur ? Merci beaucoup.",
        "Buongiorno, la macchina noleggiata ieri non risponde più: il processo di addestramento si ferma dopo "
        "dieci minuti e la console mostra un errore di memoria. Potete controllare il nodo? Grazie mille.",
        "Olá, a máquina alugada ontem parou de responder: o treino do modelo falha depois de uma hora e o painel "
        "mostra erro de memória na placa. Podem verificar o servidor e o disco? Obrigado pela ajuda.",
        # list words in a row, but fewer than twelve, or from two lists
        "abeja ábaco abierto abogado abono aborto abrazo abrir abuelo abuso acabar",
        "abeja ábaco abierto abogado abono aborto abaisser abandon abdiquer abeille abolir aborder",
        # Chinese and Japanese prose: characters of the lists, but not one word per space
        "我的钱包在哪里？请帮我查一下这个订单的状态，谢谢你们的帮助。",
        "昨日借りたマシンが起動しません。確認をお願いします。",
        # a tokenizer's vocabulary: quoted single characters, each in a Chinese list
        'tokens = ["一", "二", "三", "四", "五", "六", "七", "八", "九", "十", "上", "中", "下", "天", "地", "人"]',
        "vocab.json:\n" + "\n".join(f'  "{char}": {n},' for n, char in enumerate("的一是在不了有和人这中大为上个国")),
    ],
)
def test_prose_with_list_words_stays(text):
    assert redacted(text) == text


# --- family 3: GPU users' credential shapes (0391) ----------------------------------------------------------------


def _ngc_key() -> str:
    return base64.b64encode(f"{pick(_LOWER, 26)}:{uuid.UUID(int=_RNG.getrandbits(128), version=4)}".encode()).decode()


_PROVIDERS = {
    "kaggle": lambda: "KGAT_" + pick(_HEX, 32),
    "wandb": lambda: "wandb_v1_" + pick(_ALNUM, 27) + "_" + pick(_ALNUM, 49),
    "docker-org": lambda: "dckr_oat_" + pick(_ALNUM + "_-", 32),
    "supabase": lambda: "sb_secret_" + pick(_ALNUM + "_-", 31),
    "modal": lambda: "as-" + pick(_ALNUM, 19) + "Ab1",
    "elevenlabs": lambda: "sk_" + pick(_HEX, 48),
    "voyage": lambda: "pa-" + pick(_ALNUM + "_-", 40) + "Ab1",
    "langfuse": lambda: "sk-lf-" + str(uuid.UUID(int=_RNG.getrandbits(128), version=4)),
    "sourcegraph": lambda: "sgp_" + pick(_HEX, 16) + "_" + pick(_HEX, 40),
    "infracost": lambda: "ico-" + pick(_ALNUM, 32),
    "cloudflare": lambda: "cfut_" + pick(_ALNUM, 40) + pick(_HEX, 8),
    "cloudflare-global": lambda: "cfk_" + pick(_ALNUM, 40) + pick(_HEX, 8),
    "firecrawl": lambda: "fc-" + pick(_HEX, 32),
    "llamacloud": lambda: "llx-" + pick(_ALNUM, 48),
    "jina": lambda: "jina_" + pick(_HEX, 32) + pick(_ALNUM, 28),
    "ngrok": lambda: "2" + pick(_ALNUM, 24) + "aZ_" + pick("0123456789", 1) + pick(_ALNUM, 20),
    "ngc": _ngc_key,
    "ngc-decoded": lambda: base64.b64decode(_ngc_key()).decode(),
    "azure-acr": lambda: pick(_ALNUM + "+/", 42) + "+ACR" + pick(_ALNUM, 6),
}


@pytest.mark.parametrize("name", sorted(_PROVIDERS))
@pytest.mark.parametrize("template", ["I pasted {s} into the notebook and it fails", "some-cli --flag {s}"])
def test_a_bare_provider_credential_goes(name, template):
    secret = _PROVIDERS[name]()
    result = redacted(template.format(s=secret))
    assert result == template.format(s=marker(Kind.SECRET))


def test_a_cloudflared_certificate_tunnel_token_goes():
    body = "\n".join(pick(_ALNUM + "+/", 64) for _ in range(3))
    text = f"~/.cloudflared/cert.pem\n-----BEGIN ARGO TUNNEL TOKEN-----\n{body}\n-----END ARGO TUNNEL TOKEN-----"
    assert redacted(text) == "~/.cloudflared/cert.pem\n" + marker(Kind.PRIVATE_KEY)


@pytest.mark.parametrize(
    "text",
    [
        "the model is served as-is, no quantisation: as-ThisIsJustAWordHereXyz",
        "use the pa-system in room 2 and the fc-" + "barcelona" + " stream",
        "request " + str(uuid.UUID(int=_RNG.getrandbits(128), version=4)) + " took 2 s",
        "job 2" + "0" * 25 + "_1" + "0" * 20 + " finished",
        "sk_" + "live_" + "is how Stripe's keys start; ours is in the vault",
        "the image digest is " + base64.b64encode(bytes(63)).decode(),
    ],
)
def test_look_alikes_of_the_new_shapes_stay(text):
    assert redacted(text) == text

# ruff: noqa: E501  (one realistic sample per line reads better than wrapped ones)
"""Wallet seed phrases for held-out 8, and the word lists around GPU work that are not seed phrases.

Phrases are valid BIP-39 mnemonics of 12 or 24 words drawn from seeded random entropy: bip-utils (a dependency of
the project) for English, Spanish, French, Italian, Portuguese, Czech, Korean and Chinese (simplified and
traditional); bip-utils has no Japanese list, so the six Japanese phrases below were drawn once with the `mnemonic`
package in a throwaway virtual environment (entropy from `random.Random(388_2026)`, checked with `Mnemonic.check`)
and are kept as text. Phrases are stored in NFC, as a person types or copies them; a Japanese phrase is written with
ideographic spaces (U+3000) where the wallet would show them so.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import bip_utils
from bip_utils import Bip39Languages, Bip39MnemonicGenerator, Bip39MnemonicValidator

from .heldout8_shapes import Gen, wrap

Positive = tuple[str, str, list[str]]

JAPANESE = [
    "そうなん ふたん にんたい ねったいぎょ しいく れいかん けぬき えりあ そっかん おじさん こせい ふみん",
    "いこく みせる まゆげ ためる せびろ こける こんかい つまらない きおう まもる めいかく はさん",
    "さべつ おじぎ えすて みすえる あたえる たなばた きろく ひりつ もくようび ろうご せんむ あぶら",
    "たさい しゃちょう ゆたか ひてい りくぐん うわさ いけん おんけい ひろゆき まぬけ ふえる てほん したて ふるい むやみ しゃそう しもん ろうか ひるま さくし ふくざつ ほあん しゅみ しゃけん",
    "ねこむ このまま がはく すこし はつおん ひそか うちき さんま おもちゃ やよい あさひ わかす せりふ こたえる しゃしん いきる はわい ぐうせい よくせい だんわ じだい あしあと けんしゅう どうぐ",
    "れんこん そとがわ きうい くさい いない がぞう すろっと よけい そせい さくひん たぼう ほいく おじぎ ほしょう けいけん そあく きんじょ つのる たいよう しゃそう ひんこん つかれる はめつ こんだて",
]
LISTS = {
    "en": Bip39Languages.ENGLISH,
    "es": Bip39Languages.SPANISH,
    "fr": Bip39Languages.FRENCH,
    "it": Bip39Languages.ITALIAN,
    "pt": Bip39Languages.PORTUGUESE,
    "cs": Bip39Languages.CZECH,
    "ko": Bip39Languages.KOREAN,
    "zh-hans": Bip39Languages.CHINESE_SIMPLIFIED,
    "zh-hant": Bip39Languages.CHINESE_TRADITIONAL,
}
# word list -> how many phrases (the Japanese ones are the six above)
PLAN = {"en": 6, "es": 6, "fr": 4, "it": 4, "pt": 4, "cs": 4, "ko": 4, "zh-hans": 5, "zh-hant": 4}


def phrase(g: Gen, wordlist: str, words: int) -> str:
    entropy = g.raw(16 if words == 12 else 32)
    text = Bip39MnemonicGenerator(LISTS[wordlist]).FromEntropy(entropy).ToStr()
    return unicodedata.normalize("NFC", text)


LEADS = {
    "en": [
        "Is there any way to get my payment back? I paid rental {n} from this wallet, its recovery phrase is: {p}",
        "My wallet backup, in case you need it to find the payment:\n{p}",
        "The wallet app shows these {k} words as my secret phrase, does that help you trace the deposit?\n{p}",
    ],
    "es": [
        "¿Podéis comprobar el pago del alquiler {n}? Lo hice desde esta billetera, mi frase semilla es: {p}",
        "Las {k} palabras de recuperación de mi monedero, por si os sirven para encontrar la transacción:\n{p}",
    ],
    "vi": [
        "Mình thanh toán đơn {n} bằng ví này, cụm từ khôi phục (seed phrase) của ví là: {p}",
        "{k} từ khôi phục của ví mình đây, bạn kiểm tra giúp giao dịch nạp tiền nhé:\n{p}",
    ],
    "tr": [
        "{n} numaralı siparişin ödemesini bu cüzdandan yaptım, kurtarma ifadem şu: {p}",
        "Cüzdanımın {k} kelimelik gizli kurtarma ifadesi aşağıda, ödemeyi bulmanıza yardımcı olur mu?\n{p}",
    ],
}


def _numbered(words: list[str], g: Gen) -> str:
    style = g.num(0, 2)
    if style == 0:
        return "\n".join(f"{n}. {w}" for n, w in enumerate(words, 1))
    if style == 1:
        return "\n".join(f"{n}) {w}" for n, w in enumerate(words, 1))
    rows = [words[i : i + 4] for i in range(0, len(words), 4)]
    return "\n".join("   ".join(f"{i * 4 + j + 1:>2} {w}" for j, w in enumerate(row)) for i, row in enumerate(rows))


def _layout(g: Gen, text: str, wordlist: str, lang: str) -> tuple[str, str]:
    """(the message, the block to list): the phrase in one of the ways people paste it."""
    words = text.split(" ")
    style = g.num(0, 9)
    if style <= 3:  # said in a sentence, plain or as a numbered list / grid
        block = text if style <= 1 else _numbered(words, g)
        lead = g.choice(LEADS[lang]).replace("{n}", str(g.num(10_000, 99_999))).replace("{k}", str(len(words)))
        if style > 1 and "\n{p}" not in lead:
            lead = lead.replace(" {p}", "\n{p}")
        return lead.replace("{p}", block), block
    if style == 4:
        return wrap(g, "wallet backup words:\n" + "\n".join(words), lang), "\n".join(words)
    if style == 5:
        return wrap(
            g,
            f'$ cat wallet.json\n{{"mnemonic": "{text}", "path": "m/44\'/60\'/0\'/0/0", "label": "gpu-payments"}}',
            lang,
        ), text
    if style == 6:
        return wrap(
            g,
            f'// hardhat.config.js\nmodule.exports = {{\n  networks: {{\n    sepolia: {{\n      url: "https://rpc.sepolia.org",\n      accounts: {{ mnemonic: "{text}" }},\n    }},\n  }},\n}};',
            lang,
        ), text
    if style == 7:
        return wrap(
            g,
            f'$ cast wallet import payer --mnemonic "{text}"\nEnter password:\n`payer` keystore was saved successfully.',
            lang,
        ), text
    if style == 8:
        return wrap(g, f'MNEMONIC="{text}"\nRPC_URL=https://mainnet.base.org\nPAY_TO=gpurent', lang), text
    sep = ", " if wordlist not in ("zh-hans", "zh-hant") else "，"
    block = sep.join(words)
    return wrap(g, f"seed words: {block}", lang), block


def seed_positives(g: Gen) -> list[Positive]:
    out: list[Positive] = []
    for wordlist, count in PLAN.items():
        for n in range(count):
            words = 24 if n % 3 == 2 else 12
            text = phrase(g, wordlist, words)
            assert Bip39MnemonicValidator(LISTS[wordlist]).IsValid(text)
            lang = "es" if wordlist == "es" and n < 3 else g.lang()
            message, block = _layout(g, text, wordlist, lang)
            out.append((f"seed-{wordlist}", message, [block]))
    for n, text in enumerate(JAPANESE):
        lang = g.lang()
        if n < 2:  # as the wallet shows it, with ideographic spaces
            shown = text.replace(" ", "\u3000")
            lead = (
                g.choice(LEADS[lang]).replace("{n}", str(g.num(10_000, 99_999))).replace("{k}", str(len(text.split())))
            )
            out.append(("seed-ja", lead.replace("{p}", shown), [shown]))
        else:
            message, block = _layout(g, text, "ja", lang)
            out.append(("seed-ja", message, [block]))
    # written as people sometimes do: Chinese run together, Spanish without its accents, French in capitals
    text = phrase(g, "zh-hans", 12)
    block = text.replace(" ", "")
    out.append(
        (
            "seed-zh-hans",
            wrap(g, f"Cụm từ khôi phục của ví (bản tiếng Trung, 12 chữ viết liền): {block}", "vi"),
            [block],
        )
    )
    text = phrase(g, "es", 12)
    block = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    out.append(("seed-es", wrap(g, f"frase de recuperacion (la escribi sin tildes): {block}", "es"), [block]))
    text = phrase(g, "fr", 12).upper()
    out.append(("seed-fr", wrap(g, f"Phrase de récupération notée sur papier :\n{text}", "en"), [text]))
    return out


# --- clean: words that are not seed phrases ------------------------------------------------------------------------

_CLEAN = [
    "Hola, quería preguntar si el alquiler de la máquina con dos tarjetas se puede ampliar una semana más sin perder los datos del disco, porque el entrenamiento va más lento de lo previsto.",
    "Etiquetas de clase del dataset: perro, gato, caballo, vaca, oveja, pájaro, gallina, cerdo, conejo, pato, ratón, león. El modelo confunde gato con conejo.",
    "stopwords_es = ['de', 'la', 'que', 'el', 'en', 'y', 'a', 'los', 'del', 'se', 'las', 'por', 'un', 'para', 'con', 'no', 'una', 'su', 'al', 'lo', 'como', 'más', 'pero', 'sus']",
    "Prompt: a cozy cabin in a snowy forest at dusk, warm light in the window, thin fog between the trees, highly detailed, 35mm photo, golden hour. Negative prompt: blurry, lowres, watermark, extra fingers.",
    "Le modèle répond en anglais alors que je lui demande une phrase en français : « Peux-tu résumer ce document en trois lignes simples pour mon équipe ? »",
    "Esempio dal dataset italiano: «La macchina si è fermata dopo tre ore di addestramento e non ha salvato il modello finale nella cartella indicata.»",
    'Amostra do conjunto de validação em português: "O aluguel da máquina terminou antes do treino acabar e perdi o último checkpoint salvo no disco."',
    "Věta z testovací sady: Pronajatý server s grafickou kartou se po třech hodinách restartoval a ztratil jsem poslední uložený model.",
    "jieba 分词结果：我 想 租 一 台 有 八 张 显卡 的 服务器 用来 训练 大 模型 可是 下单 后 一直 没有 收到 登录 信息",
    "分詞結果：我 想 租 一 台 有 八 張 顯卡 的 伺服器 來 訓練 模型 但是 付款 之後 一直 沒有 收到 登入 資訊",
    "MeCab の分かち書き：GPU を 借り て 日本語 の 言語 モデル を 学習 さ せ たい の です が 、 ディスク が すぐ 一杯 に なり ます",
    "형태소 분석 결과: 서버 를 빌려서 한국어 모델 을 학습 시키고 있는데 세 시간 마다 연결 이 끊어 집니다",
    "CIFAR-10 classes: airplane automobile bird cat deer dog frog horse ship truck. My accuracy is stuck at 61% after 40 epochs.",
    "config.yaml:\n  seed: 3407\n  deterministic: true\n  data_seed: 42\ntorch.manual_seed(cfg.seed) still gives different losses on the two GPUs.",
    "python train.py --seed 1234 --lr 3e-4 --batch-size 64 --epochs 20 --warmup 500 --mixed-precision bf16",
    "¿Dónde guardo mi frase semilla? La billetera me pide anotar doce palabras antes de pagar. No la pego aquí, solo quiero saber si el pago con USDC funciona desde Base.",
    "Ví của mình bắt nhập 12 từ khôi phục mới cho thanh toán, mình không gửi cụm từ đó cho ai cả. Cho mình hỏi shop có nhận USDT trên mạng Tron không?",
    "Cüzdan 24 kelimelik kurtarma ifadesini yedeklememi istiyor. Bunu destek ekibiyle paylaşmamam gerektiğini biliyorum, sadece ödeme ağını sormak istedim.",
    "Vocabulary file (first lines of vocab.txt):\n[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\nthe\nof\nand\nin\nto\nwas\nhe\nis\nas\nfor\non",
    "Tokenizer output: ['▁Hola', ',', '▁quiero', '▁alquilar', '▁una', '▁GPU', '▁para', '▁entrenar', '▁un', '▁modelo', '▁pequeño', '.']",
    "Dataset sample (es): «El perro corre por la playa cuando sale el sol y la marea baja deja charcos llenos de pequeños cangrejos.»",
    "Tôi muốn thuê một máy có bốn card đồ họa trong hai tuần để huấn luyện mô hình nhận dạng giọng nói tiếng Việt.",
    "Dört kartlı bir sunucuyu iki haftalığına kiralayıp Türkçe konuşma tanıma modelini eğitmek istiyorum, fiyat teklifi alabilir miyim?",
    "Test de prononciation du jeu de données : abeille, balcon, cabine, danger, éclair, fabrique, gazon, hameau, île, jardin, kayak, lampe, marche, navire.",
    "Class names (pt): abacate, banana, cereja, damasco, figo, goiaba, laranja, limão, manga, morango, pera, uva",
    "Nhãn của tập dữ liệu: chó, mèo, ngựa, bò, cừu, chim, gà, lợn, thỏ, vịt, chuột, sư tử",
    "Veri setindeki etiketler: köpek, kedi, at, inek, koyun, kuş, tavuk, domuz, tavşan, ördek, fare, aslan",
    "Prompt de prueba para el modelo: escribe un poema corto sobre el mar, la luna, el viento del norte y una casa blanca en la costa de Cádiz.",
    "Câu mẫu trong tập kiểm thử: hôm nay trời mưa nên tôi ở nhà đọc sách, uống trà và nghe nhạc cả buổi chiều.",
    "Test cümlesi: bugün hava yağmurlu olduğu için evde kalıp kitap okudum, çay içtim ve bütün öğleden sonra müzik dinledim.",
    "weights: model-00001-of-00004.safetensors model-00002-of-00004.safetensors model-00003-of-00004.safetensors model-00004-of-00004.safetensors",
    "Die Maschine hat nach drei Stunden neu gestartet. (sorry, I wrote this in German first) The machine rebooted after three hours and I lost the last epoch.",
    "In the wallet app I only copied the receiving address, not the twelve words. Which network should I pick for the payment of order {n}?",
    "word frequency top-12 in my corpus: the, of, and, to, in, a, is, that, for, it, as, was",
    "Lista de la compra que el modelo genera bien: leche, pan, huevos, arroz, tomate, cebolla, ajo, aceite, sal, azúcar, café, queso.",
    "关键词：显卡 租赁 训练 推理 显存 带宽 价格 时长 续费 发票 退款 客服",
    "키워드: 그래픽카드 대여 학습 추론 메모리 대역폭 가격 기간 연장 영수증 환불 고객센터",
    "Phrase de test pour la traduction : le chat dort sur le canapé pendant que la pluie tombe doucement sur le toit de la vieille maison.",
]


def seed_negatives(g: Gen) -> list[str]:
    return [
        wrap(g, text.replace("{n}", str(g.num(10_000, 99_999))))
        if g.num(0, 2)
        else text.replace("{n}", str(g.num(10_000, 99_999)))
        for text in _CLEAN
    ]


# --- the guard: no clean text holds a valid phrase ----------------------------------------------------------------

_DIR = Path(bip_utils.__file__).resolve().parent / "bip" / "bip39" / "wordlist"


def _tokens(text: str) -> list[str]:
    """The words of a text as a wallet reads them: runs of letters between spaces, punctuation or digits.

    Chinese written without spaces stays one token: any twelve common characters in a row have a one in sixteen
    chance of passing the checksum, so prose can only be told from a phrase by the words around it.
    """
    return [token.lower() for token in re.findall(r"[^\W\d_]+", unicodedata.normalize("NFC", text))]


def assert_no_phrase(texts: list[str]) -> None:
    """Raise if some run of 12 to 24 words of a clean text is a valid mnemonic in one of the lists (`_tokens`)."""
    words = {
        lang: {
            unicodedata.normalize("NFC", w.strip())
            for w in (_DIR / f"{value.name.lower()}.txt").read_text().splitlines()
        }
        for lang, value in LISTS.items()
    }
    for text in texts:
        tokens = _tokens(text)
        for lang, known in words.items():
            for size in (12, 15, 18, 21, 24):
                for start in range(len(tokens) - size + 1):
                    window = tokens[start : start + size]
                    if all(w in known for w in window) and Bip39MnemonicValidator(LISTS[lang]).IsValid(
                        " ".join(window)
                    ):
                        raise ValueError(f"a clean text holds a valid {lang} phrase: {text[:60]!r}")

# ruff: noqa: E501  (one realistic sample per line reads better than wrapped ones)
"""Held-out 9, clean look-alikes (3 of 4): prose full of BIP-39 list words, vocabulary and label lists, and
support requests that talk about passwords, tokens and seed phrases without containing any.

A random list of list words is drawn again until no run of 12 to 24 of its words passes a list's checksum
(`heldout9_gen.assert_no_phrase`), so no clean text holds a valid phrase.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import bip_utils

from .heldout9_clean import LANG4, ask
from .heldout9_gen import Gen, assert_no_phrase
from .heldout9_pairs import _hi

_LISTS = Path(bip_utils.__file__).resolve().parent / "bip" / "bip39" / "wordlist"

PROSE = {
    "en": [
        "Last autumn our team moved the whole training pipeline to rented machines because the office power budget could not cover another rack.",
        "The model learns fast in the first hour, then the loss gets stuck around the same value until the morning.",
        "My brother found an old camera in the attic and we want to turn the photo archive into a small dataset for a school project.",
        "I only need the machine for a short trip of about twenty minutes every day, so the hourly price matters more than the storage.",
        "Please explain the exact rule for the deposit: do I pay it again after every rental, or only once for the account?",
        "Our office near the river has slow internet, so uploading the image folder takes the whole evening.",
        "The kitchen robot demo at the fair needs a stable video stream, a good camera and a quiet fan.",
        "We are a small family business that sells honey, cheese and fresh bread, and we want a chat assistant for the shop.",
        "Can the system send me a message before the balance reaches zero, so the job does not stop in the middle of the night?",
        "The artist wants to train a style model on her own paintings of the ocean, the forest and the city at winter.",
    ],
    "es": [
        "El año pasado mi equipo trasladó todo el entrenamiento a máquinas alquiladas porque la oficina no tenía energía suficiente.",
        "Quiero entrenar un modelo con fotos de la playa, del bosque y de la ciudad para un proyecto de la escuela.",
        "La factura de este mes tiene un cargo doble y no encuentro el botón para pedir la devolución del dinero.",
        "Mi hermano dice que el precio por hora baja de noche, pero en la tabla veo el mismo valor a cualquier hora.",
        "Somos una pequeña tienda familiar de queso, miel y pan, y queremos un asistente que responda en español.",
        "El trabajo se detiene en el minuto cuarenta y el registro solo dice que falta memoria en la tarjeta gráfica.",
        "Necesito la máquina un fin de semana entero para un concurso de música; ¿puedo reservarla desde el lunes?",
        "La nube de etiquetas de mi conjunto de datos tiene palabras como árbol, barco, gato, perro, casa y sol.",
    ],
    "fr": [
        "Notre équipe a loué une machine pour entraîner un modèle de vision sur des photos de plage, de forêt et de montagne.",
        "Le prix affiché le matin n'est pas le même que celui de la facture, pouvez-vous vérifier le calcul?",
        "Ma sœur prépare un concours de musique et veut générer des images pour l'affiche avec une carte graphique rapide.",
        "Le fichier de sauvegarde est trop gros pour le disque, faut-il acheter un volume plus grand ou attendre la fin du mois?",
        "Nous sommes une petite entreprise familiale qui vend du fromage, du miel et du pain, et nous voulons un assistant.",
        "Le calcul s'arrête au milieu de la nuit sans message d'erreur, seulement une ligne vide dans le journal.",
    ],
    "it": [
        "Il nostro gruppo ha affittato una macchina per addestrare un modello sulle foto del mare, del bosco e della città.",
        "La fattura di questo mese ha un importo doppio e non trovo il modulo per chiedere il rimborso.",
        "Mio fratello dice che il prezzo orario scende di notte, ma nella tabella vedo sempre lo stesso valore.",
        "Siamo una piccola azienda di famiglia che vende formaggio, miele e pane, e vorremmo un assistente in italiano.",
        "Il lavoro si ferma dopo quaranta minuti e il registro dice soltanto che la memoria della scheda è finita.",
        "Per la mostra di primavera l'artista vuole generare immagini di giardini, castelli e barche sul lago.",
    ],
    "pt": [
        "A nossa equipe alugou uma máquina para treinar um modelo com fotos da praia, da floresta e da cidade.",
        "A fatura deste mês tem uma cobrança dupla e não encontro o botão para pedir o reembolso.",
        "Meu irmão diz que o preço por hora cai à noite, mas na tabela vejo sempre o mesmo valor.",
        "Somos uma pequena empresa familiar que vende queijo, mel e pão, e queremos um assistente em português.",
        "O trabalho para depois de quarenta minutos e o registro só diz que a memória da placa acabou.",
        "Para a feira de ciências da escola o grupo quer treinar um modelo que reconhece pássaros e flores do jardim.",
    ],
    "cs": [
        "Náš tým si pronajal stroj, abychom natrénovali model na fotkách moře, lesa a města.",
        "Faktura za tento měsíc obsahuje dvojí platbu a nemohu najít tlačítko pro vrácení peněz.",
        "Můj bratr říká, že hodinová cena v noci klesá, ale v tabulce vidím stále stejnou hodnotu.",
        "Jsme malá rodinná firma, prodáváme sýr, med a chléb, a chtěli bychom asistenta v češtině.",
        "Úloha se zastaví po čtyřiceti minutách a v záznamu je jen zpráva, že došla paměť karty.",
        "Na jarní výstavu chce malířka generovat obrázky zahrad, hradů a lodí na jezeře.",
    ],
    "vi": [
        "Nhóm em thuê máy để huấn luyện mô hình nhận diện ảnh biển, rừng và thành phố cho đồ án tốt nghiệp.",
        "Hóa đơn tháng này bị tính hai lần, em không tìm thấy nút yêu cầu hoàn tiền.",
        "Anh trai em nói giá theo giờ ban đêm rẻ hơn nhưng trên bảng giá vẫn thấy như nhau.",
        "Công việc dừng ở phút thứ bốn mươi và nhật ký chỉ báo hết bộ nhớ trên card.",
        "Em cần máy cả cuối tuần cho cuộc thi âm nhạc, có đặt trước từ thứ hai được không ạ?",
        "Cửa hàng gia đình em bán mật ong và phô mai, muốn làm trợ lý trả lời bằng tiếng Việt.",
    ],
    "tr": [
        "Ekibimiz deniz, orman ve şehir fotoğraflarıyla bir model eğitmek için makine kiraladı.",
        "Bu ayın faturasında çift ödeme var ve iade isteme düğmesini bulamıyorum.",
        "Abim gece saatlik fiyatın düştüğünü söylüyor ama tabloda hep aynı değeri görüyorum.",
        "İş kırkıncı dakikada duruyor ve kayıtta sadece kartın belleğinin dolduğu yazıyor.",
        "Hafta sonu müzik yarışması için makineye ihtiyacım var, pazartesiden rezervasyon yapabilir miyim?",
        "Bal ve peynir satan küçük bir aile dükkanıyız, Türkçe cevap veren bir asistan istiyoruz.",
    ],
}

CJK = [
    "한국어 음성 인식 모델을 학습하려고 합니다. 데이터는 뉴스 방송 녹음 이백 시간이고 가격 문의 드립니다.",
    "어제 결제한 금액이 두 번 청구되었습니다. 환불 방법을 알려 주세요. 계정 이메일은 같습니다.",
    "학교 과제로 바다 사진 분류 모델을 만들고 있어요. 여름 방학 동안 매일 두 시간 정도 필요합니다.",
    "我们 团队 想 租用 显卡 训练 中文 语音 模型 ， 数据 大约 两百 小时 ， 请问 价格 怎么 算 ？",
    "昨天 的 账单 重复 扣款 了 两次 ， 请 帮 我 查看 一下 退款 流程 。",
    "学校 作业 需要 训练 一个 识别 花 和 鸟 的 模型 ， 周末 每天 用 三 小时 左右 。",
    "日本語の音声認識モデルを学習したいです。データは約二百時間、料金を教えてください。",
    "昨日の請求が二重になっています。返金の手続きを教えていただけますか。",
]

VOCAB = {
    "es": [
        ("abeja", "bee"),
        ("árbol", "tree"),
        ("barco", "boat"),
        ("cielo", "sky"),
        ("dinero", "money"),
        ("fuego", "fire"),
        ("gato", "cat"),
        ("isla", "island"),
        ("leche", "milk"),
        ("llave", "key"),
        ("lluvia", "rain"),
        ("mesa", "table"),
        ("nube", "cloud"),
        ("perro", "dog"),
        ("queso", "cheese"),
        ("río", "river"),
        ("silla", "chair"),
        ("tren", "train"),
        ("vaso", "glass"),
        ("viaje", "trip"),
    ],
    "fr": [
        ("abeille", "bee"),
        ("arbre", "tree"),
        ("bateau", "boat"),
        ("ciel", "sky"),
        ("argent", "money"),
        ("feu", "fire"),
        ("chat", "cat"),
        ("île", "island"),
        ("lait", "milk"),
        ("clé", "key"),
        ("pluie", "rain"),
        ("table", "table"),
        ("nuage", "cloud"),
        ("chien", "dog"),
        ("fromage", "cheese"),
        ("rivière", "river"),
        ("chaise", "chair"),
        ("train", "train"),
        ("verre", "glass"),
        ("voyage", "trip"),
    ],
    "it": [
        ("ape", "bee"),
        ("albero", "tree"),
        ("barca", "boat"),
        ("cielo", "sky"),
        ("denaro", "money"),
        ("fuoco", "fire"),
        ("gatto", "cat"),
        ("isola", "island"),
        ("latte", "milk"),
        ("chiave", "key"),
        ("pioggia", "rain"),
        ("tavolo", "table"),
        ("nuvola", "cloud"),
        ("cane", "dog"),
        ("formaggio", "cheese"),
        ("fiume", "river"),
        ("sedia", "chair"),
        ("treno", "train"),
        ("bicchiere", "glass"),
        ("viaggio", "trip"),
    ],
    "pt": [
        ("abelha", "bee"),
        ("árvore", "tree"),
        ("barco", "boat"),
        ("céu", "sky"),
        ("dinheiro", "money"),
        ("fogo", "fire"),
        ("gato", "cat"),
        ("ilha", "island"),
        ("leite", "milk"),
        ("chave", "key"),
        ("chuva", "rain"),
        ("mesa", "table"),
        ("nuvem", "cloud"),
        ("cachorro", "dog"),
        ("queijo", "cheese"),
        ("rio", "river"),
        ("cadeira", "chair"),
        ("trem", "train"),
        ("copo", "glass"),
        ("viagem", "trip"),
    ],
    "cs": [
        ("včela", "bee"),
        ("strom", "tree"),
        ("loď", "boat"),
        ("nebe", "sky"),
        ("peníze", "money"),
        ("oheň", "fire"),
        ("kočka", "cat"),
        ("ostrov", "island"),
        ("mléko", "milk"),
        ("klíč", "key"),
        ("déšť", "rain"),
        ("stůl", "table"),
        ("mrak", "cloud"),
        ("pes", "dog"),
        ("sýr", "cheese"),
        ("řeka", "river"),
        ("židle", "chair"),
        ("vlak", "train"),
        ("sklenice", "glass"),
        ("cesta", "trip"),
    ],
}

LIST_FILES = {
    "en": "english.txt",
    "es": "spanish.txt",
    "fr": "french.txt",
    "it": "italian.txt",
    "pt": "portuguese.txt",
    "cs": "czech.txt",
    "ko": "korean.txt",
}


def _words(lang: str) -> list[str]:
    return (_LISTS / LIST_FILES[lang]).read_text().split()


ANIMALS_EN = "apple banana bird boat bottle bread bus butterfly cabbage camel candle car carrot castle cat chair cherry clock cloud cow crab desk dog dolphin donkey eagle elephant fish fox frog giraffe horse kite lamp lemon lion lizard mango monkey mouse mushroom orange owl panda parrot penguin piano pig pizza rabbit rocket salad sausage shark sheep shoe snake spider squirrel tiger tomato tractor train truck turkey turtle umbrella violin whale wolf zebra"


def _label_nouns(lang: str) -> list[str]:
    """Concrete nouns an image classifier has as labels (Korean: a vocabulary app's words, from the Korean list itself)."""
    if lang == "ko":
        return _words("ko")[:400]
    if lang == "en":
        return ANIMALS_EN.split()
    return [word for word, _ in VOCAB[lang]]


def _safe(make: Callable[[], str]) -> str:
    """Draw `make()` until the text holds no run that passes a BIP-39 checksum."""
    for _ in range(200):
        text = make()
        try:
            assert_no_phrase(text)
        except ValueError:
            continue
        return text
    raise RuntimeError("could not draw a text without a valid phrase")


def prose(g: Gen) -> list[str]:
    out: list[str] = []
    counts = {"en": 9, "es": 8, "fr": 6, "it": 6, "pt": 6, "cs": 6, "vi": 7, "tr": 7}
    hello_lang = {"fr": "en", "it": "es", "pt": "es", "cs": "en"}
    for lang, count in counts.items():
        for _ in range(count):
            chosen = g.rng.sample(PROSE[lang], g.n(2, 4))

            def paragraph(chosen: list[str] = chosen, lang: str = lang) -> str:
                return _hi(g, hello_lang.get(lang, lang)) + " ".join(chosen)

            out.append(_safe(paragraph))
    out.extend(CJK)
    return out


def word_lists(g: Gen) -> list[str]:
    out: list[str] = []
    heads = {
        "es": "Vocabulario para el examen del viernes (español → inglés):",
        "fr": "Liste de vocabulaire de la semaine, pour ma fille (français → anglais):",
        "it": "Vocaboli della lezione 7 (italiano → inglese):",
        "pt": "Vocabulário da aula de hoje (português → inglês):",
        "cs": "Slovíčka na test (česky → anglicky):",
    }
    for lang, head in heads.items():
        for style in range(3):
            pairs = g.rng.sample(VOCAB[lang], g.choice([12, 15, 18]))
            if style == 0:
                body = "\n".join(f"{k}. {w} – {t}" for k, w, t in ((k, *p) for k, p in enumerate(pairs, 1)))
            elif style == 1:
                body = ", ".join(f"{w} ({t})" for w, t in pairs)
            else:
                body = "\n".join(f"{w}\t{t}" for w, t in pairs)

            def flashcards(head: str = head, body: str = body) -> str:
                return f"I'm building a flashcard app on a rented GPU to generate pronunciation audio. Input file:\n{head}\n{body}\n{ask(g, 'en')}"

            out.append(_safe(flashcards))
    labels = {
        "en": "Class labels of my image classifier (labels.txt), training accuracy is stuck at 40%:",
        "es": "Etiquetas de clases de mi clasificador, la precisión no sube del 40 %:",
        "fr": "Les étiquettes de mon classifieur d'images (une par ligne) :",
        "it": "Le etichette del mio classificatore di immagini:",
        "pt": "Rótulos das classes do meu classificador:",
        "cs": "Názvy tříd mého klasifikátoru obrázků:",
        "ko": "한국어 단어 학습 앱에 넣을 단어 목록입니다 (발음 음성 생성용):",
    }
    for lang, head in labels.items():
        words = _label_nouns(lang)
        for style in range(2):

            def make(head=head, words=words, style=style) -> str:
                chosen = g.rng.sample(words, min(len(words), g.choice([12, 16, 20])))
                body = "\n".join(f"{k}. {w}" for k, w in enumerate(chosen, 1)) if style else ", ".join(chosen)
                return f"{head}\n{body}\n"

            out.append(_safe(make))
    for lang in ("en", "es"):
        words = _words(lang)

        def spelling(lang=lang, words=words) -> str:
            chosen = g.rng.sample(words, 12)
            head = {
                "en": "Spelling list, week 9 (my son's homework, used as TTS test input):",
                "es": "Dictado de la semana 9 (lo uso como entrada de prueba para el TTS):",
            }[lang]
            return head + "\n" + "\n".join(f"{k:>2}. {w}" for k, w in enumerate(chosen, 1))

        out.append(_safe(spelling))
    for lang in ("en", "fr"):
        words = _words(lang)

        def grid(lang=lang, words=words) -> str:
            chosen = g.rng.sample(words, 25)
            rows = "\n".join(" | ".join(chosen[r * 5 : r * 5 + 5]) for r in range(5))
            return f"Board for our Codenames bot (5x5, generated by the model, {lang}):\n{rows}\nThe model repeats words across games, is the seed of the sampler reset on your containers?"

        out.append(_safe(grid))
    out.append(
        "$ head -5 english.txt\nabandon\nability\nable\nabout\nabove\n(this is the BIP-39 word list, I'm using it as a vocabulary for a tokenizer experiment)"
    )
    out.append(
        _safe(
            lambda: (
                "$ tail -n 4 spanish.txt\n"
                + "\n".join(_words("es")[-4:])
                + "\nLista de palabras BIP-39 en español; la uso para un experimento de tokenización."
            )
        )
    )
    return out


def talk_about_secrets(g: Gen) -> list[str]:
    texts = [
        "I lost my seed phrase after reinstalling the wallet. Can your support recover the payout wallet? I only remember it had 12 words.",
        "Does your staff ever ask for my recovery phrase or my private key? Someone on Telegram claiming to be you asked for the 24 words.",
        "¿Me podéis confirmar que nunca pedís la frase semilla? Un usuario en Discord me pidió las 12 palabras para 'verificar' el pago.",
        "Em bị mất cụm từ khôi phục ví sau khi cài lại máy. Bên mình có khôi phục giúp được không ạ?",
        "Kurtarma ifademi kaybettim, 24 kelimeydi. Ödeme cüzdanımı geri alabilir miyim?",
        "I forgot my account password and the reset e-mail never arrives. I checked the spam folder.",
        "La contraseña de mi cuenta caducó y al cambiarla me dice que es demasiado parecida a la anterior.",
        "Mật khẩu đăng nhập bị khóa sau 5 lần nhập sai, bao lâu thì mở lại ạ?",
        "Şifremi değiştirdim ama eski oturum hâlâ açık görünüyor, bu normal mi?",
        "My Hugging Face token expired yesterday; after creating a new one, where do I paste it in your template so it isn't stored in the image?",
        "How should I pass my W&B API key to the container without writing it in the Dockerfile? Is there a secrets field in the rental form?",
        "¿El campo 'variables de entorno' del formulario guarda los valores cifrados? Quiero poner ahí mi token de Hugging Face.",
        "Em nên để API key của OpenAI ở đâu cho an toàn khi dùng notebook trên máy thuê?",
        "AWS anahtarlarımı kiralık makineye nasıl güvenli aktarırım? IAM rolü desteği var mı?",
        "Password policy question: the form says at least 12 characters with a digit; does a passphrase of four words count?",
        "Our security team asks whether the Jupyter token is regenerated on every restart of the instance.",
        "I accidentally pasted an API key in a previous ticket; I already revoked it, please delete the ticket anyway.",
        "Pegué por error una clave en el ticket anterior; ya la revoqué, pero borradlo igualmente por favor.",
        "What is the format of the API key for your own REST API? The docs say 'gr_live_' followed by 40 characters.",
        "Seed phrase checklist for customers: write the words on paper, never in a ticket, never in a screenshot, never in a notebook.",
    ]
    return [f"{_hi(g, LANG4[k % 4])}{t}" for k, t in enumerate(texts)]

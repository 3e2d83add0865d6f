# ruff: noqa: E501  (one realistic sample per line reads better than wrapped ones)
"""Clean texts of the pattern author's round-8 part (`build_tuning8.py`): what the round-8 rules must spare.

Ordinary support prose in the languages of the BIP-39 lists and of the shop, written to be full of list words
(nouns, verbs and adjectives of the Spanish, French, Italian, Portuguese and Czech lists; Korean, Japanese and
Chinese words), word lists shorter than a phrase or mixing two lists, AWS access key ids followed by something that
is not a secret access key, and look-alikes of the round-8 prefixes and shapes.
"""

from __future__ import annotations

import base64

from gpurent.core.redaction.seed_phrases import wordlist

from .fakes import ALNUM, HEX, LOWER, UPPER, Fakes

_PROSE = [
    # Spanish
    "Hola, alquilé una máquina con dos tarjetas ayer por la tarde y el disco no aparece; el panel dice que todo está bien, pero el script de entrenamiento falla al abrir el archivo del modelo. ¿Pueden revisar la cuenta? Gracias.",
    "Buenas, quería saber si el precio por hora incluye el disco extra o se cobra aparte. También necesito una factura con el nombre de la empresa, la dirección fiscal y el número de pedido.",
    "El proceso se detiene siempre en el mismo paso: carga el conjunto de datos, abre la red neuronal, empieza la primera época y luego la memoria sube hasta el límite y el núcleo se reinicia solo.",
    "Pagué con cripto hace una hora, la transacción ya tiene doce confirmaciones en el explorador, pero el pedido sigue pendiente. Adjunto una captura del monedero con la fecha y la cantidad exacta.",
    "Mi abuelo dice que el mejor trabajo es el que se hace con calma: abrir el cajón, ordenar el papel, lavar la taza, barrer el suelo, regar la planta y cerrar la puerta antes de cenar.",
    "Lista de compras para la oficina: papel, lápiz, cable, batería, monitor, teclado, ratón y una silla nueva para la sala de reuniones.",
    # French
    "Bonjour, la machine louée hier soir ne démarre plus : le terminal affiche une erreur de mémoire, alors que le modèle tenait dans la carte avant la mise à jour. Pouvez-vous vérifier le serveur ? Merci beaucoup.",
    "Je voudrais savoir si le tarif horaire comprend le stockage supplémentaire ou s'il est facturé à part. J'ai aussi besoin d'une facture au nom de la société avec l'adresse et le numéro de commande.",
    "Le calcul s'arrête toujours au même endroit : le programme charge le fichier, lance la première étape, puis la mémoire monte jusqu'à la limite et le noyau redémarre sans message.",
    "Mon paiement en cryptomonnaie est parti il y a une heure, la transaction compte déjà douze confirmations, mais la commande reste en attente. Je joins une capture du portefeuille avec la date et le montant.",
    "Pour le voyage il faut prévoir : valise, bagage, billet, adresse, horaire, monnaie, chargeur, lampe et un petit cadeau pour la famille.",
    "Le jardin était calme, le soleil brillait sur la rivière, un oiseau chantait dans le feuillage et la maison semblait dormir au bord du chemin.",
    # Italian
    "Buongiorno, la macchina noleggiata ieri non risponde più: il processo di addestramento si ferma dopo dieci minuti e la console mostra un errore di memoria. Potete controllare il nodo? Grazie mille.",
    "Vorrei sapere se il prezzo orario comprende il disco aggiuntivo oppure se viene addebitato a parte. Mi serve anche una fattura intestata alla società con indirizzo e numero d'ordine.",
    "Il pagamento in criptovaluta risulta confermato sul registro pubblico da un'ora, ma l'ordine è ancora in attesa. Allego una foto del portafoglio con la data e l'importo.",
    "La cucina della nonna profumava di basilico, pomodoro, aglio, olio e pane caldo; sul tavolo c'erano un vaso di fiori, una brocca d'acqua e una vecchia radio.",
    # Portuguese
    "Olá, a máquina alugada ontem parou de responder: o treino do modelo falha depois de uma hora e o painel mostra erro de memória na placa. Podem verificar o servidor e o disco? Obrigado pela ajuda.",
    "Gostaria de saber se o preço por hora inclui o armazenamento extra ou se é cobrado à parte. Também preciso de uma fatura com o nome da empresa, o endereço e o número do pedido.",
    "Fiz o pagamento com cripto há uma hora, a transação já tem doze confirmações, mas o pedido continua pendente. Envio uma imagem da carteira com a data e o valor exato.",
    "Na feira comprei abacate, banana, laranja, limão, cenoura, batata, tomate e um pouco de queijo para o jantar de domingo com a família.",
    # Czech, Korean, Japanese, Chinese
    "Dobrý den, včera jsem si pronajal stroj se dvěma kartami, ale trénink se po deseti minutách zastaví a konzole hlásí chybu paměti. Můžete to prosím zkontrolovat? Děkuji.",
    "안녕하세요, 어제 빌린 서버에서 학습이 십 분 후에 멈추고 메모리 오류가 나옵니다. 확인 부탁드립니다. 결제는 완료되었습니다.",
    "가격 가끔 가난 가능 가득 가방 가수 가슴 가을 가족 정도만 알고 있어요, 한국어 단어 공부 중입니다.",
    "昨日借りたマシンで学習が十分後に止まり、メモリのエラーが表示されます。確認をお願いします。支払いは完了しています。",
    "我昨天租的机器训练十分钟后就停止了，控制台显示内存错误。请帮忙检查一下，付款已经完成了，谢谢。",
    "我們昨天租用的伺服器無法連線，請協助確認網路設定，謝謝。",
    # Vietnamese and Turkish (no BIP-39 list, but the shop's languages)
    "Chào shop, máy thuê hôm qua chạy huấn luyện được mười phút thì dừng, bảng điều khiển báo lỗi bộ nhớ. Nhờ shop kiểm tra giúp, em đã thanh toán rồi.",
    "Merhaba, dün kiraladığım makinede eğitim on dakika sonra duruyor ve konsol bellek hatası veriyor. Kontrol edebilir misiniz? Ödeme tamamlandı.",
    # word lists shorter than a phrase, or from two lists, and talk about the lists
    "abeja ábaco abierto abogado abono aborto abrazo abrir abuelo abuso acabar",
    "abeja ábaco abierto abogado abono aborto abaisser abandon abdiquer abeille abolir aborder",
    "En la lista española de BIP-39 están palabras como ábaco, abeja, abismo y abono; ¿mi billetera la usa?",
    "Ma phrase de récupération est en français, mais je ne la partage pas ici : dites-moi seulement si le portefeuille accepte cette langue.",
    "La frase di recupero è di dodici parole, la tengo su carta in cassaforte; vi scrivo solo per sapere se posso pagare con quel portafoglio.",
    "Quais idiomas de frase de recuperação vocês aceitam? A minha carteira oferece inglês, espanhol, francês, italiano e português.",
    "ウォレットの復元フレーズは日本語の十二語ですが、ここには書きません。",
    "助记词我已经抄在纸上了，不会发给客服。请问退款需要多久？",
]


def _lists_short(f: Fakes) -> list[str]:
    """Eleven words of one list, and twelve alternating between two lists that share no word."""
    out = []
    for language in ("spanish", "french", "italian", "portuguese", "czech", "korean"):
        words = wordlist(language)
        out.append(" ".join(f.choice(words) for _ in range(11)))
    spanish, czech = wordlist("spanish"), wordlist("czech")
    out.append(" ".join(f.choice(spanish) if n % 2 else f.choice(czech) for n in range(14)))
    japanese = wordlist("japanese")
    out.append("\u3000".join(f.choice(japanese) for _ in range(8)) + " とメモに書いてありました")
    return out


def _forty_characters(f: Fakes) -> list[str]:
    """40-character values with no access key id before them (`build_tuning8._aws_id_then_no_secret` has the rest)."""
    return [
        f"sha1 {f.hex(40)} and base64 digest {f.pick(ALNUM, 40)}",
        f"ETag {f.hex(32)}, VersionId {f.pick(ALNUM, 32)}, request {f.pick(UPPER, 16)}",
        f"the upload id was {f.pick(ALNUM, 40)} / part 3",
    ]


def _shape_look_alikes(f: Fakes) -> list[str]:
    return [
        "the weights are served as-is, no quantisation; as-ThisIsJustAWordHereXyz was the branch name",
        "use the pa-system in hall B; the fc-barcelona stream starts at 9",
        f"the browser bundle ships sb_publishable_{f.pick(ALNUM, 31)} as intended",
        f"Langfuse public key pk-lf-{f.uuid()} is fine to share, the secret one is in the vault",
        "KGAT_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx (put your token here)",
        "WANDB_API_KEY=wandb_v1_********",
        "sk_live_ is how Stripe's secret keys start; ours is in the vault",
        f"job {f.uuid()}:{f.uuid()} finished",
        f"run 2{'0' * 26}_1{'0' * 20} restarted",
        f"image digest {base64.b64encode(f.raw(63)).decode()}",
        f"NASA+ACR{f.pick(LOWER, 6)} mission archive",
        f"cache key {f.pick(LOWER, 26)}-{f.uuid()}",
        f"model revision {f.hex(40)} of {f.pick(LOWER, 8)}/{f.pick(LOWER, 10)}",
        "-----BEGIN CERTIFICATE-----\n" + f.pick(ALNUM, 64) + "\n-----END CERTIFICATE-----",
        "cloudflared tunnel login wrote ~/.cloudflared/cert.pem; I did not open it",
        f"ico-{f.pick(LOWER, 6)} icons were missing in the dashboard",
        f"the sgp_ prefix means Sourcegraph; our token starts with sgp_{f.hex(6)}… (cut)",
        f"trace {f.hex(32)} span {f.hex(16)}",
    ]


def negatives(f: Fakes) -> list[str]:
    return [
        *_PROSE,
        *_lists_short(f),
        *_forty_characters(f),
        *_shape_look_alikes(f),
        f"md5 {f.pick(HEX, 32)}",
        # quoted single Chinese characters are a tokenizer's vocabulary, not a phrase (found in pip's idna tables)
        "added_tokens: " + ", ".join(f'"{char}"' for char in "一二三四五六七八九十百千万上下"),
        "tokenizer.json vocab:\n"
        + "\n".join(f'    "{char}": {n},' for n, char in enumerate("的一是在不了有和人这中大为上个国", 1000)),
    ]

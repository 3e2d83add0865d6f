"""Secrets found by what surrounds them: a name, a command-line flag, a login command, a sentence, a URL.

A provider token has a shape of its own; a password or a 32-character key does not, so these patterns find the
value after something that says what it is, and `_kind` then checks that the value can be a secret at all:
placeholders (`${DB_PASSWORD}`, `********`, `os.environ[…]`, `None`), paths and code that makes a secret are
left alone, and the looser the context, the more secret-like the value must be (decision 0102). The words that
introduce a secret in a sentence are in `prose.py`, the vocabulary both share in `vocabulary.py` (0212).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .commands import COMMAND_PATTERNS
from .kinds import Kind
from .look_alikes import (
    BASE64_PADDED,
    GPU_UUID,
    NAMES_A_SECRET_OBJECT,
    code_variable,
    in_arn,
    not_a_value_there,
    random_letters,
    spared,
    words_not_values,
)
from .placeholders import is_placeholder
from .prose import PROSE_PATTERNS, VALUE_THEN_NAME
from .tool_files import TOOL_FILE_PATTERNS, USERLIST, USERLIST_NEED
from .vocabulary import ESCAPED_VALUE, KEYWORDS, NAME_SUFFIX, VALUE

__all__ = ["CONTEXT_PATTERNS", "context_spans", "is_placeholder"]

# A type annotation between a name and its value: `db_password: str = '…'`, `let password: &str = "…"` (round 6)
_TYPED = (
    r""":[ \t]*(?:&(?:'static[ \t]+)?str|str|String|string|SecretStr|Optional\[str\]|str[ \t]*\|[ \t]*None)[ \t]*="""
)
_TABLE_ROW = re.compile(
    rf"""(?im)^[ \t]*\|[ \t]*(?P<key>[\w .-]{{0,40}}?(?:{KEYWORDS}))[ \t]*\|[ \t]*"""
    r"""`?(?P<secret>[^\s|`]{1,2000})`?[ \t]*\|"""
)

# (pattern, kind, rule): the rule says how secret-like the value must be (see `_kind`).
CONTEXT_PATTERNS: tuple[tuple[re.Pattern[str], Kind, str], ...] = (
    # `password = "…"`, `DB_PASSWORD: …`, `"SecretAccessKey": "…"`, `?access_token=…`, `x-api-key: …`,
    # `AWS Secret Access Key [None]: …` (aws configure)
    (
        re.compile(
            rf"""(?i)(?<![A-Za-z0-9_.-])(?<!\$\{{)(?<!\$)(?P<key>[A-Za-z0-9_.-]{{0,60}}?(?:{KEYWORDS}){NAME_SUFFIX})"""
            rf"""\\?["']?\]?(?:[ \t]*\[[^\]\n]{{0,20}}\])?[ \t]*(?:{_TYPED}|=|:=|:|=>)[ \t]*"""
            rf"""(?:{ESCAPED_VALUE}|{VALUE})"""
        ),
        Kind.SECRET,
        "named",
    ),
    # `--password s3cret`, `--hf-token=…`
    (
        re.compile(
            rf"""(?i)(?<![A-Za-z0-9-])--?(?P<key>[A-Za-z0-9_.-]{{0,30}}?(?:{KEYWORDS}|bearer))(?:=|[ \t]+){VALUE}"""
        ),
        Kind.SECRET,
        "named",
    ),
    # a name and its value as a pair: `- name: DB_PASSWORD` + `value: …` (Kubernetes), `{"name": "API_KEY", "value":
    # "…"}` (ECS, Terraform), `<add key="ApiKey" value="…"/>` (.NET)
    (
        re.compile(
            rf"""(?i)["']?\b(?:name|key)["']?[ \t]*[:=][ \t]*["']?"""
            rf"""(?P<key>[A-Za-z0-9_.-]{{0,60}}?(?:{KEYWORDS}))["']?[ \t]*(?:,[ \t]*|\r?\n[ \t]*|[ \t]+)"""
            rf"""["']?value["']?[ \t]*[:=][ \t]*{VALUE}"""
        ),
        Kind.SECRET,
        "pair",  # checked as "named", but over two lines
    ),
    # a Markdown table row: `| api_key | sk9F… |` (not its header row, `| password | status |` above `|---|`)
    (_TABLE_ROW, Kind.SECRET, "named"),
    # an XML element named after a secret: `<password>…</password>` (Maven settings.xml), `<apiToken>…</apiToken>`
    (
        re.compile(rf"""(?i)<(?P<key>[\w.:-]{{0,60}}?(?:{KEYWORDS}))>[ \t]*(?P<secret>[^<\s]{{1,2000}})[ \t]*</"""),
        Kind.SECRET,
        "named",
    ),
    # a name and its value as a call's arguments: `define('DB_PASSWORD', '…')`, `os.environ.setdefault("X_KEY", "…")`
    (
        re.compile(
            rf"""(?i)["'](?P<key>[A-Za-z0-9_.-]{{0,60}}?(?:{KEYWORDS}))["'][ \t]*,[ \t]*"""
            r"""(?P<q>["'])(?P<quoted>[^"'\r\n]{1,2000})(?P=q)(?![ \t]*:)"""  # not the next key of a JSON object
        ),
        Kind.SECRET,
        "named",
    ),
    # a PHP or Perl variable given a quoted value: `$db_password = "…";`
    (
        re.compile(
            rf"""(?i)\$(?P<key>[A-Za-z0-9_]{{0,60}}?(?:{KEYWORDS}))[ \t]*=[ \t]*"""
            r"""(?P<q>["'])(?P<quoted>[^"'\r\n]{1,2000})(?P=q)"""
        ),
        Kind.SECRET,
        "named",
    ),
    # `set -x MY_TOKEN …` (fish), `setx OPENAI_API_KEY …` (Windows): a variable set without `=`
    (
        re.compile(
            rf"""(?i)\b(?:set|setx)(?:[ \t]+-[a-z]+)*[ \t]+(?P<key>[A-Za-z0-9_]{{0,40}}?(?:{KEYWORDS}|key))"""
            rf"""[ \t]+{VALUE}"""
        ),
        Kind.SECRET,
        "named",
    ),
    # password prompts answered in the paste: `Password for user app: …`, `Enter password: …`
    (
        re.compile(rf"""(?i)\b(?P<key>password|passphrase)[ \t]+for[ \t]+[^:\n]{{1,40}}:[ \t]*{VALUE}"""),
        Kind.PASSWORD,
        "password",
    ),
    # "user: root, pass S3cret", "login admin / S3cret"
    (
        re.compile(
            rf"""(?i)\b(?:user(?:name)?|login)\b[^\n]{{1,40}}?[ \t,;(](?:pass(?:word)?|pw)[ \t]*[:=]?[ \t]+{VALUE}"""
        ),
        Kind.PASSWORD,
        "password",
    ),
    # a token as the user part of a URL: Sentry DSNs, `https://TOKEN@github.com/…`
    (
        re.compile(r"""(?i)\b[a-z][a-z0-9+.-]{1,20}://(?P<secret>[A-Za-z0-9_-]{20,})(?::[A-Za-z0-9_-]*)?@"""),
        Kind.SECRET,
        "random",
    ),
    (
        # a webhook URL is the credential as a whole, as gitleaks and trufflehog report it (Slack's goes whole too):
        # Discord, Microsoft Teams (`…webhook.office.com/webhookb2/…/IncomingWebhook/…`), Mattermost (round 6)
        re.compile(
            r"""(?i)(?P<secret>(?:https?://)?(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/\d+/"""
            r"""[A-Za-z0-9_-]{40,})"""
        ),
        Kind.SECRET,
        "any",
    ),
    (
        re.compile(
            r"""(?i)(?P<secret>https://[\w.-]*webhook\.office\.com/webhookb2/[\w@-]{8,100}/IncomingWebhook/"""
            r"""[0-9a-f]{32}/[\w-]{8,64}(?:/[\w-]{8,64})?)"""
        ),
        Kind.SECRET,
        "any",
    ),
    (re.compile(r"""(?i)\bhttps?://\S{1,100}?/hooks/(?P<secret>[a-z0-9]{26})(?![A-Za-z0-9])"""), Kind.SECRET, "random"),
    # an Anaconda token in a channel URL: `https://conda.anaconda.org/t/<token>/private` (round 6)
    (re.compile(r"""(?i)\banaconda\.(?:org|cloud|com)/t/(?P<secret>[\w-]{20,200})/"""), Kind.SECRET, "any"),
    *PROSE_PATTERNS,
    # a bare `key` in a config file: `"key": "…"` (kaggle.json), `key = K00…` at a line's start (rclone)
    (
        re.compile(rf"""(?im)(?:^[ \t]*|(?<=["']))(?P<key>key)["']?[ \t]*(?:=|:)[ \t]*{VALUE}"""),
        Kind.SECRET,
        "keylike",
    ),
    # `"auth": "<base64 of user:password>"` in ~/.docker/config.json
    (
        re.compile(r"""(?i)["']auth["'][ \t]*:[ \t]*["'](?P<secret>[A-Za-z0-9+/]{16,}={0,2})["']"""),
        Kind.PASSWORD,
        "random",
    ),
    # session cookies in a `Cookie:` or `Set-Cookie:` header: `sessionid=…`, `session=…`
    (
        re.compile(
            r"""(?i)\bcookie:(?:[ \t]*[^;\n=]{1,80}=[^;\n]{0,4000};)*?[ \t]*"""
            r"""(?P<key>[\w.-]{0,40}(?:session|sessid|sid)(?:_?id)?)=(?P<secret>[^;\s"'&]+)"""
        ),
        Kind.SECRET,
        "random",
    ),
    *COMMAND_PATTERNS,
    *TOOL_FILE_PATTERNS,
    (
        re.compile(
            r"""(?i)\b(?:proxy-)?authorization["']?\s*[:=]\s*["']?(?:(?:bearer|basic|token|bot|digest|jwt)\s+)?"""
            r"""(?P<secret>[A-Za-z0-9._~+/-]{8,}=*)"""
        ),
        Kind.AUTH_HEADER,
        "any",
    ),
    (re.compile(r"(?i)\bbearer\s+(?P<secret>[A-Za-z0-9._~+/-]{20,}=*)"), Kind.AUTH_HEADER, "any"),
    (
        # up to the last `@` before the host: an unescaped `@` or `#` inside the password is kept in the secret
        re.compile(r"(?i)\b[a-z][a-z0-9+.-]{1,20}://[^\s:/@?#]*:(?P<secret>[^\s/?]+)@[A-Za-z0-9\[]"),
        Kind.PASSWORD_IN_URL,
        "any",
    ),
    (
        re.compile(
            r"(?i)[?&](?:sig|signature|x-amz-signature|x-amz-security-token|x-goog-signature)=(?P<secret>[^&\s#\"']+)"
        ),
        Kind.SIGNED_URL,
        "any",
    ),
)


def _password_like(value: str) -> bool:
    """A chosen password: a digit or a symbol in it, or capitals inside a word ("gETtGgNDUq"), not prose."""
    if len(value) < 4:
        return False
    if any(not char.isalpha() for char in value):
        return True
    return any(char.isupper() for char in value[1:]) and any(char.islower() for char in value)


_PREFIX = re.compile(r"^[a-z]{1,8}[-_]")  # a provider's prefix before the random part: `ak-`, `sk_`


def _random_like(value: str) -> bool:
    """A generated key or token: long, and letters mixed with digits (or long hex), or letters of both cases mixed at
    random after a provider's short prefix (`ak-…`, one Modal token id in 50 holds no digit; 0592)."""
    if "://" in value or (value.count("/") > 2 and not BASE64_PADDED.fullmatch(value)):
        return False  # a path, not a key in base64 (whose slashes are random)
    letters, digits = sum(char.isalpha() for char in value), sum(char.isdigit() for char in value)
    if digits == 0:
        return random_letters(_PREFIX.sub("", value, count=1))
    return len(value) >= 16 and letters > 0 and len(value) - letters - digits <= len(value) // 4


# Names of a password, in the four languages of the shop (`DB_PASS`, "contraseña", "mật khẩu", "şifresi").
_PASSWORD_NAME = re.compile(
    r"(?i)pass(?:word|wd|phrase|code)|(?:^|_)pass$|^pwd?$|contrase|m[ậa]t\s*kh[ẩa]u|[şs]ifre|parola"
    r"|^clave(?:\s+de\s+acceso)?$|^mk$"  # Spanish "clave" alone is a password, Vietnamese "mk" is "mật khẩu"
)
_PRIVATE_KEY_NAME = re.compile(r"(?i)private[ _-]?key|privkey|privad|riêng|bí\s*mật|özel")
_KEY_LIKE = re.compile(r"[A-Za-z0-9+/=_-]{20,}")
# What a "key" holds that is not a secret: a UUID (an idempotency key, a primary key), a cache key that starts
# with words ("Linux-pip-…", "v1-deps-…").
_NOT_KEY = re.compile(
    r"(?i)[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}|[a-z][a-z0-9]{0,9}-[a-z].*"
    # names, not values: `ERR_401_UNAUTHORIZED_REQUEST`, `max_position_embeddings`; a GPG fingerprint in capitals
    r"|(?-i:[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[a-z][a-z0-9]*(?:_[a-z0-9]+)+|[0-9A-F]{40})|0x[0-9a-f]{40}|0x[0-9a-fA-F]{64}"
    # a public key in base64, by the fixed start of its encoding: DER SubjectPublicKeyInfo (Ed25519, EC P-256,
    # RSA-2048/4096; a private key's PKCS#8 starts differently) or an OpenSSH public key blob (0213)
    r"|(?-i:(?:MCowBQYDK2VwAyEA|MFkwEwYHKoZIzj0CAQ|MII[BC]IjANBgkqhkiG9w0BAQEFAAOC|AAAAC3NzaC1lZDI1NTE5"
    r"|AAAAB3NzaC1yc2E|AAAAE2VjZHNhLXNoYTIt)[A-Za-z0-9+/=]*)"
    # minisign's and signify's public key ("Ed", a key id and the key: 56 characters), an age recipient (0397)
    r"|(?-i:RW[A-Za-z0-9+/]{54}|age1[02-9ac-hj-np-z]{58})"
)
# Dates and times after "password …:" ("Password last changed: 2026-11-30") are not passwords.
_DATE_OR_TIME = re.compile(r"\d{4}-\d{1,2}-\d{1,2}\S*|\d{1,2}:\d{2}\S*|\d{1,2}/\d{1,2}/\d{2,4}|\d{1,3}")


# "second pass: 14.2 ms", "pw: 0.5": a measurement, not a password (round 6)
_MEASUREMENT = re.compile(r"\d+[.,]\d+[a-z%]{0,3}")
_FLAG = re.compile(r"--?[A-Za-z][A-Za-z-]*(?:=\S*)?")  # `vault login -method=oidc`: an option, not a token
_PORT = re.compile(r"[\d.:-]+(?:/(?:tcp|udp))?")


def _key_like(value: str) -> bool:
    """A generated key with nothing but a bare `key` before it: long, one token, letters and digits."""
    if not _KEY_LIKE.fullmatch(value) or _NOT_KEY.fullmatch(value):
        return False
    if BASE64_PADDED.fullmatch(value):
        return True  # 32 random bytes in base64 hold no digit once in about 1,500 keys
    return any(char.isdigit() for char in value) and any(char.isalpha() for char in value)


def _kind(key: str, value: str, default: Kind, rule: str) -> Kind | None:
    """The kind of a value found by a context pattern, or None when it cannot be a secret."""
    if is_placeholder(value) or _FLAG.fullmatch(value):
        return None  # `mysql -u root -p -h db`: the next flag, not a value
    normalized = re.sub(r"[^a-z]", "", key.lower())
    if normalized == "nopasswd" or (key == "PASSWD" and value == "ALL"):
        return None  # sudoers' `ALL=(ALL) NOPASSWD:ALL`: a tag that says no password is asked (round 7)
    if normalized.endswith(("signingkey", "fingerprint")):
        return None  # `git config user.signingkey 3AA5C34371567BD2`: a public key's id, not a secret (0213)
    if NAMES_A_SECRET_OBJECT.search(normalized):
        return None  # Helm's `passwordSecret: db-pass`: the name of the Kubernetes Secret that holds it (0213)
    if GPU_UUID.match(value):
        return None  # `GPU-…`/`MIG-…`: what nvidia-smi calls a GPU, in every support request (0213)
    if len(value) < 4 and not any(char.isalnum() for char in value):
        return None  # "Password: ✔ Token: ✔": a check mark, not a value (0213)
    kind = Kind.PASSWORD if _PASSWORD_NAME.search(key) or default == Kind.PASSWORD else default
    if "secretaccesskey" in normalized or (normalized.startswith("aws") and "secret" in normalized):
        kind = Kind.AWS_SECRET_KEY
    elif _PRIVATE_KEY_NAME.search(key):
        kind = Kind.PRIVATE_KEY
    if rule in {"any", "flag", "login"}:
        return kind
    if rule == "pipe":  # `echo VALUE | … login`: `echo y | sudo -S …` answers a prompt, `echo ada:$PW | chpasswd` is a
        # variable (0213); `user:password` for chpasswd keeps its user
        secret = value.split(":", 1)[1] if ":" in value else value
        return kind if len(secret) >= 4 and not is_placeholder(secret) else None  # "yes" is a placeholder word
    if rule == "userpass":  # `-u USER -p VALUE`: not a port (`docker run -u 1000 -p 8080:80`), not a word
        strong = any(char.isdigit() or char in "!@#$%^&*+=?~" for char in value) or (
            any(char.isupper() for char in value[1:]) and any(char.islower() for char in value)
        )
        return kind if strong and len(value) >= 6 and not _PORT.fullmatch(value) and "/" not in value else None
    if rule == "ethkey":
        return kind
    if rule == "setting":  # `config set NAME VALUE`, `cat NAME`: as a named value, a password with a password's shape
        if kind == Kind.PASSWORD:
            return kind if _password_like(value) else None
        return kind if len(value) >= 8 and any(char.isdigit() for char in value) else None
    if rule == "keylike":
        return kind if _key_like(value) else None
    if rule == "colon" and kind == Kind.PASSWORD:
        return kind if _password_like(value) and not _DATE_OR_TIME.fullmatch(value) else None
    if rule == "colon":
        return kind if _key_like(value) else None
    if rule == "random" and kind == Kind.PASSWORD and key:
        # "password Gpurig-8337": right after the word, a chosen password with letters and digits
        chosen = any(char.isdigit() for char in value) and any(char.isalpha() for char in value)
        return kind if (chosen and len(value) >= 8 and _password_like(value)) or _random_like(value) else None
    if rule == "random":
        return kind if _random_like(value) else None
    if rule in {"password", "prose"} and kind == Kind.PASSWORD:
        return kind if _password_like(value) and not _MEASUREMENT.fullmatch(value) else None
    if rule == "prose":
        return kind if _random_like(value) else None
    # rule "named": `name = value`
    if normalized == "oldpwd" or (normalized == "pwd" and (value.startswith(("/", "~")) or "\\" in value)):
        return None  # the shell's current directory, in every `env` dump (ODBC's `PWD=…` is a password)
    if normalized.endswith("pass") and not normalized.endswith("bypass"):
        # `RABBITMQ_DEFAULT_PASS: …` is a password, `second_pass: 2` a count
        return Kind.PASSWORD if _password_like(value) and not value.isdigit() else None
    if normalized == "pwd" or kind == Kind.PASSWORD:
        return Kind.PASSWORD
    # A token-like name holds an id as often as a secret (`token: 2`, `eos_token: </s>`): real tokens are long and
    # contain a digit.
    if len(value) < 8 or not (any(char.isdigit() for char in value) or random_letters(value)):
        return None  # Comet's key is 25 letters of both cases, at random (0397)
    return kind


def _value_span(match: re.Match[str]) -> tuple[int, int] | None:
    for group in ("quoted", "escaped", "secret", "prose"):
        if group in match.re.groupindex and match.group(group) is not None:
            return match.span(group)
    return None


# Every name the "named" patterns look for contains one of these; a line without any is skipped by them (they
# never cross a line), which makes a long log several times faster to scan.
_NAMED_TRIGGER = re.compile(r"(?i)pass|pwd|secret|token|key|credential|auth|psk")


def _named_lines(text: str) -> list[tuple[int, int]]:
    """(start, end) of each line of `text` that contains a trigger word, found once per text for every pattern."""
    lines: list[tuple[int, int]] = []
    trigger = _NAMED_TRIGGER.search(text)
    while trigger is not None:
        start = text.rfind("\n", 0, trigger.start()) + 1
        end = text.find("\n", trigger.end())
        end = len(text) if end == -1 else end
        lines.append((start, end))
        trigger = _NAMED_TRIGGER.search(text, end)  # the next line with a trigger: each line is looked at once
    return lines


def _matches(pattern: re.Pattern[str], rule: str, text: str, lines: list[tuple[int, int]]) -> Iterator[re.Match[str]]:
    if rule != "named":
        yield from pattern.finditer(text)
        return
    for start, end in lines:
        yield from pattern.finditer(text, start, end)


# A function called in a value: `make_password(raw`, `self.keyring.get_password(url,` (prose rules take it whole).
_CALL = re.compile(r"[A-Za-z_]\w*\(")
# Two more lowercase words after a lowercase value: the value is the first word of a sentence.
_PROSE_AFTER = re.compile(r"[ \t]+[a-z]+[ \t,]+[a-z0-9]+")
# The user part of a `user/password` or `user:password` value of a `*_AUTH` setting.
_AUTH_USER = re.compile(r"[A-Za-z0-9_.@-]{1,64}[/:]")


# Patterns that cannot match unless the text holds this: skipped, without a scan, when it does not.
_NEEDS = {
    VALUE_THEN_NAME: re.compile(r"(?i)(?:\(|\bis|\bwas|=|<-|←)[ \t]*(?:the|my|our)\b"),
    USERLIST: USERLIST_NEED,
}


def context_spans(text: str) -> Iterator[tuple[int, int, Kind]]:
    """(start, end, kind) of each value a context pattern finds and `_kind` accepts."""
    lines = _named_lines(text)
    for pattern, default, rule in CONTEXT_PATTERNS:
        need = _NEEDS.get(pattern)
        if need is not None and need.search(text) is None:
            continue
        for match in _matches(pattern, rule, text, lines):
            span = _value_span(match)
            if span is None or text.startswith("(", span[1]):
                continue  # `secret = secrets.token_hex(32)`: code that makes a secret, not one
            value = text[span[0] : span[1]]
            if value.endswith("(") or (_CALL.search(value) and text[span[0] - 1 : span[0]] not in ("'", '"', "`")):
                continue  # `password=getpass.getpass()`, `password = make_password(raw)` seen by a prose rule: code
            if spared(text, *span, table_row=pattern is _TABLE_ROW):
                continue  # a digest, a YAML tag, a table's column name, a field's label (0213)
            if value.isalpha() and value[1:].islower() and _PROSE_AFTER.match(text, span[1]):
                continue  # "password: at least 12 characters", "password: The password part of …": a sentence
            if words_not_values(text, *span):
                continue  # "Using --password via the CLI is insecure": a flag named in a sentence (round 7)
            key = (match.group("key") if "key" in pattern.groupindex else "") or ""
            if key and in_arn(text, match.start("key")):
                continue  # `arn:aws:secretsmanager:…:secret:prod/db-AbC123`: a resource type in an ARN (round 7)
            key_span = match.span("key") if key else (match.start(), match.start())
            if not_a_value_there(text, *key_span, *span):
                continue  # an armor line's KEY, the next setting, a `pass` entry (round 9, 0395)
            if rule == "named" and code_variable(text, *span, key):
                continue  # `password=auth_password,`: code that names a variable (0240)
            kind = _kind(key, value, default, rule)
            if kind is None:
                continue
            user = _AUTH_USER.match(value) if key.lower().endswith("auth") else None
            if user is not None and user.end() < len(value):  # `NEO4J_AUTH=neo4j/S3cret`: the user stays
                yield span[0] + user.end(), span[1], Kind.PASSWORD
            else:
                yield span[0], span[1], kind

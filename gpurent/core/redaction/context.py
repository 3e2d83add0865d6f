"""Secrets found by what surrounds them: a name, a command-line flag, a login command, a sentence, a URL.

A provider token has a shape of its own; a password or a 32-character key does not, so these patterns find the
value after something that says what it is, and `_kind` then checks that the value can be a secret at all:
placeholders (`${DB_PASSWORD}`, `********`, `os.environ[…]`, `None`), paths and code that makes a secret are
left alone, and the looser the context, the more secret-like the value must be (decision 0102).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .kinds import Kind

__all__ = ["CONTEXT_PATTERNS", "context_spans"]

_KEYWORDS = (
    r"password|passwd|passphrase|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|secret[_-]?key"
    r"|private[_-]?key|account[_-]?key|auth[_-]?key|credentials?|client[_-]?secret"
    r"|(?:secret|private|api|access|auth)[ \t](?:access[ \t])?(?:key|token)|privkey|(?<=_)key"
)
# Words that introduce a secret in a sentence: "my private key is …", "the password was …".
_PROSE_WORDS = (
    r"password|passphrase|passwd|pass ?code|private[ _-]?key|priv ?key|secret[ _-]?key|api[ _-]?key|api[ _-]?token"
    r"|access[ _-]?(?:key|token)|auth[ _-]?token|token|secret"
)
_VALUE = r"""(?:(?P<q>["'])(?P<quoted>[^"'\r\n]{1,300})(?P=q)|(?P<secret>[^\s"'`,;&|<>()\[\]{}]{1,300}))"""
# A command-line argument: quoted or not, glued to its flag or not.
_ARG = r"""(?P<q>["']?)(?P<secret>[^\s"']{1,300})(?P=q)"""

# (pattern, kind, rule): the rule says how secret-like the value must be (see `_kind`).
CONTEXT_PATTERNS: tuple[tuple[re.Pattern[str], Kind, str], ...] = (
    # `password = "…"`, `DB_PASSWORD: …`, `"SecretAccessKey": "…"`, `?access_token=…`, `x-api-key: …`,
    # `AWS Secret Access Key [None]: …` (aws configure)
    (
        re.compile(
            rf"""(?i)(?<![A-Za-z0-9])(?P<key>[A-Za-z0-9_.-]{{0,40}}?(?:{_KEYWORDS}))["']?"""
            rf"""(?:[ \t]*\[[^\]\n]{{0,20}}\])?[ \t]*(?:=|:=|:|=>)[ \t]*{_VALUE}"""
        ),
        Kind.SECRET,
        "named",
    ),
    # `--password s3cret`, `--hf-token=…`
    (
        re.compile(rf"""(?i)(?<![A-Za-z0-9-])--?(?P<key>[A-Za-z0-9_-]{{0,30}}?(?:{_KEYWORDS}))(?:=|[ \t]+){_VALUE}"""),
        Kind.SECRET,
        "named",
    ),
    # `set -x MY_TOKEN …` (fish), `setx OPENAI_API_KEY …` (Windows): a variable set without `=`
    (
        re.compile(
            rf"""(?i)\b(?:set|setx)(?:[ \t]+-[a-z]+)*[ \t]+(?P<key>[A-Za-z0-9_]{{0,40}}?(?:{_KEYWORDS}|key))"""
            rf"""[ \t]+{_VALUE}"""
        ),
        Kind.SECRET,
        "named",
    ),
    # password prompts answered in the paste: `Password for user app: …`, `Enter password: …`
    (
        re.compile(rf"""(?i)\b(?P<key>password|passphrase)[ \t]+for[ \t]+[^:\n]{{1,40}}:[ \t]*{_VALUE}"""),
        Kind.PASSWORD,
        "password",
    ),
    # "user: root, pass S3cret", "login admin / S3cret"
    (
        re.compile(
            rf"""(?i)\b(?:user(?:name)?|login)\b[^\n]{{1,40}}?[ \t,;(](?:pass(?:word)?|pw)[ \t]*[:=]?[ \t]+{_VALUE}"""
        ),
        Kind.PASSWORD,
        "password",
    ),
    (re.compile(rf"""(?i)\blogin:?[ \t]+[^\s/]{{1,40}}[ \t]*/[ \t]*{_VALUE}"""), Kind.PASSWORD, "password"),
    # a token as the user part of a URL: Sentry DSNs, `https://TOKEN@github.com/…`
    (
        re.compile(r"""(?i)\b[a-z][a-z0-9+.-]{1,20}://(?P<secret>[A-Za-z0-9_-]{20,})(?::[A-Za-z0-9_-]*)?@"""),
        Kind.SECRET,
        "random",
    ),
    (
        re.compile(r"""(?i)\bdiscord(?:app)?\.com/api/webhooks/\d+/(?P<secret>[A-Za-z0-9_-]{40,})"""),
        Kind.SECRET,
        "any",
    ),
    # `pw: …`, `(pass: …)`
    (re.compile(rf"""(?i)(?<![A-Za-z0-9_-])(?:pw|pass)[ \t]*[:=][ \t]*{_VALUE}"""), Kind.PASSWORD, "password"),
    # "my password is hunter2", "the API key was …", "set the root password to …"
    (
        re.compile(
            rf"""(?i)\b(?P<key>{_PROSE_WORDS})(?:\s+(?:for|of|on)\s+(?:the\s+|my\s+)?[\w.@-]+)?\s+"""
            r"""(?:is|was|to|are)\s*:?\s*(?:0x)?(?P<q>["'`]?)(?P<prose>[^\s"'`]+?)(?P=q)[.,;:)!]?(?=\s|$)"""
        ),
        Kind.SECRET,
        "prose",
    ),
    # "metamask private key 9ba5…", "access key noYx…": no verb, so only a value that looks random counts
    (
        re.compile(
            rf"""(?i)\b(?P<key>{_PROSE_WORDS})\s+(?:0x)?(?P<q>["'`]?)(?P<prose>[^\s"'`]{{16,}}?)(?P=q)[.,;:)!]?(?=\s|$)"""
        ),
        Kind.SECRET,
        "random",
    ),
    # database and login clients' password flags: `mysql -pS3cret`, `sshpass -p '…'`, `redis-cli -a …`,
    # `docker login -p …`, `az login -p …`, `twine upload -p …`, `mongosh -p …`
    (
        re.compile(rf"""(?i)\b(?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump)\b[^\n]*?[ \t]-p{_ARG}"""),
        Kind.PASSWORD,
        "flag",
    ),
    (re.compile(rf"""(?i)\bsshpass\b[^\n]*?[ \t]-p[ \t]*{_ARG}"""), Kind.PASSWORD, "flag"),
    (re.compile(rf"""\bredis-cli\b[^\n]*?[ \t](?:-a|--pass)[ \t]+{_ARG}"""), Kind.PASSWORD, "flag"),
    (
        re.compile(
            r"""\b(?:(?:docker|podman|nerdctl|buildah|skopeo|helm|oras|crane)\b[^\n]*?\blogin|az|twine|mongo|mongosh"""
            r"""|mongodump|mongorestore|mongoexport|mongoimport|sqlcmd|lftp|smbclient|rabbitmqctl)\b[^\n]*?[ \t]-[pP]"""
            rf"""[ \t]+{_ARG}"""
        ),
        Kind.PASSWORD,
        "flag",
    ),
    # `curl -u user:pass`, `curl --user user:pass`, `wget --user=… --password=…` (the latter by `--password`)
    (
        re.compile(
            r"""\b(?:curl|http|https)\b[^\n]*?[ \t](?:-u|--user)(?:=|[ \t]+)["']?[^\s:"']+:(?P<secret>[^\s"']+)"""
        ),
        Kind.PASSWORD,
        "flag",
    ),
    # logins that take the key as an argument: `wandb login KEY`, `ngrok config add-authtoken KEY`, `vault login
    # TOKEN`, `prefect cloud login -k KEY`, `netlify … --auth KEY`, `npm config set …:_authToken KEY`,
    # `doctl auth init -t TOKEN`, `wandb.login(key=…)`
    (
        re.compile(
            r"""(?i)\b(?:wandb[ \t]+login(?:[ \t]+--[a-z-]+)*|ngrok[ \t]+(?:config[ \t]+add-)?authtoken"""
            r"""|vault[ \t]+login|vastai[ \t]+set[ \t]+api-key|prefect[ \t]+cloud[ \t]+login[ \t]+(?:-k|--key)"""
            r"""|netlify\b[^\n]*?--auth"""
            r"""|npm[ \t]+config[ \t]+set[ \t]+\S*_authToken|doctl[ \t]+auth[ \t]+init[ \t]+(?:-t|--access-token)"""
            rf"""|\blogin\([ \t]*(?:key|api_key))[ \t]*=?[ \t]*{_ARG}"""
        ),
        Kind.SECRET,
        "login",
    ),
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
        re.compile(r"(?i)\b[a-z][a-z0-9+.-]{1,20}://[^\s:/@?#]*:(?P<secret>[^\s@/?]+)@[A-Za-z0-9\[]"),
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

# Values that stand for a secret without being one: empty settings, placeholders, references to elsewhere.
_PLACEHOLDER_WORDS = frozenset(
    [
        "none",
        "null",
        "nil",
        "true",
        "false",
        "undefined",
        "empty",
        "required",
        "optional",
        "missing",
        "invalid",
        "incorrect",
        "wrong",
        "expired",
        "hidden",
        "redacted",
        "masked",
        "secret",
        "password",
        "token",
        "str",
        "string",
        "your_api_key",
    ]
)
_PLACEHOLDER = re.compile(
    r"^(?:[*x•.#-]+|\$.*|%.*|\{.*|<.*|\[redacted.*|os\.|env\.|process\.env.*|getenv.*|your[_-].*)$", re.I
)


def _is_path(value: str) -> bool:
    """`/run/secrets/db_password`, `~/keys/sa.json`: a file holding a secret, not a secret (a base64 key may also
    start with `/`, but it has no `.`, `_` or `-` and mixes cases)."""
    if not value.startswith(("/", "~/", "./", "../")):
        return False
    return any(char in value for char in "._-") or value == value.lower()


def _is_placeholder(value: str) -> bool:
    lowered = value.lower()
    if lowered in _PLACEHOLDER_WORDS or _is_path(value) or lowered.startswith(("os.", "env.")):
        return True
    return bool(_PLACEHOLDER.match(value))


def _password_like(value: str) -> bool:
    """A chosen password: a digit or a symbol in it, or capitals inside a word ("gETtGgNDUq"), not prose."""
    if len(value) < 4:
        return False
    if any(not char.isalpha() for char in value):
        return True
    return any(char.isupper() for char in value[1:]) and any(char.islower() for char in value)


def _random_like(value: str) -> bool:
    """A generated key or token: long, and letters mixed with digits (or long hex)."""
    if "://" in value or value.count("/") > 2:
        return False
    letters, digits = sum(char.isalpha() for char in value), sum(char.isdigit() for char in value)
    return len(value) >= 16 and letters > 0 and digits > 0 and len(value) - letters - digits <= len(value) // 4


def _kind(key: str, value: str, default: Kind, rule: str) -> Kind | None:
    """The kind of a value found by a context pattern, or None when it cannot be a secret."""
    if _is_placeholder(value):
        return None
    normalized = re.sub(r"[^a-z]", "", key.lower())
    password = any(word in normalized for word in ("password", "passwd", "passphrase", "passcode"))
    kind = Kind.PASSWORD if password or default == Kind.PASSWORD else default
    if "secretaccesskey" in normalized or (normalized.startswith("aws") and "secret" in normalized):
        kind = Kind.AWS_SECRET_KEY
    elif "privatekey" in normalized:
        kind = Kind.PRIVATE_KEY
    if rule in {"any", "flag", "login"}:
        return kind
    if rule == "random":
        return kind if _random_like(value) else None
    if rule in {"password", "prose"} and kind == Kind.PASSWORD:
        return kind if _password_like(value) else None
    if rule == "prose":
        return kind if _random_like(value) else None
    # rule "named": `name = value`
    if normalized in {"pwd", "oldpwd"}:
        return None  # the shell's current directory, in every `env` dump
    if normalized == "pwd" or kind == Kind.PASSWORD:
        return Kind.PASSWORD
    # A token-like name holds an id as often as a secret (`token: 2`, `eos_token: </s>`): real tokens are long and
    # contain a digit.
    if len(value) < 8 or not any(char.isdigit() for char in value):
        return None
    return kind


def _value_span(match: re.Match[str]) -> tuple[int, int] | None:
    for group in ("quoted", "secret", "prose"):
        if group in match.re.groupindex and match.group(group) is not None:
            return match.span(group)
    return None


# Every name the "named" patterns look for contains one of these; a line without any is skipped by them (they
# never cross a line), which makes a long log several times faster to scan.
_NAMED_TRIGGER = re.compile(r"(?i)pass|pwd|secret|token|key|credential")


def _named_lines(text: str) -> Iterator[tuple[int, int]]:
    """(start, end) of each line of `text` that contains a trigger word."""
    for trigger in _NAMED_TRIGGER.finditer(text):
        start = text.rfind("\n", 0, trigger.start()) + 1
        end = text.find("\n", trigger.end())
        yield start, len(text) if end == -1 else end


def _matches(pattern: re.Pattern[str], rule: str, text: str) -> Iterator[re.Match[str]]:
    if rule != "named":
        yield from pattern.finditer(text)
        return
    done = -1
    for start, end in _named_lines(text):
        if start > done:
            yield from pattern.finditer(text, start, end)
            done = end


def context_spans(text: str) -> Iterator[tuple[int, int, Kind]]:
    """(start, end, kind) of each value a context pattern finds and `_kind` accepts."""
    for pattern, default, rule in CONTEXT_PATTERNS:
        for match in _matches(pattern, rule, text):
            span = _value_span(match)
            if span is None or text.startswith("(", span[1]):
                continue  # `secret = secrets.token_hex(32)`: code that makes a secret, not one
            value = text[span[0] : span[1]]
            key = match.group("key") if "key" in pattern.groupindex else ""
            kind = _kind(key, value, default, rule)
            if kind is not None:
                yield span[0], span[1], kind

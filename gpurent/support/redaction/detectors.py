"""Where the secrets are in a text: spans found by detect-secrets' plugins and by the patterns they lack.

detect-secrets (Yelp) keeps the provider formats (AWS, GitHub, GitLab, Slack, Stripe, OpenAI, JWT, basic auth
in URLs, private key headers, …). Its plugins are called directly on each line (`analyze_string`), not through
its scanner: the scanner reads global settings and can call providers' APIs to verify a secret, and a support
form must neither share mutable state between threads nor send a customer's secret anywhere (decision 0060).
Its entropy and keyword plugins are left out: on ordinary logs they flag hashes, ids and prose.

The patterns below add what it lacks: whole PEM private key blocks, passwords and tokens in assignments,
command-line flags and `Authorization` headers, credentials and signatures in URLs, Hugging Face, Anthropic,
Google, DigitalOcean and Replicate tokens, newer OpenAI and Stripe formats, wallet private keys (checked with
their base58 checksum) and BIP-39 seed phrases.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from dataclasses import dataclass

from detect_secrets.plugins.artifactory import ArtifactoryDetector
from detect_secrets.plugins.aws import AWSKeyDetector
from detect_secrets.plugins.azure_storage_key import AzureStorageKeyDetector
from detect_secrets.plugins.base import RegexBasedDetector
from detect_secrets.plugins.basic_auth import BasicAuthDetector
from detect_secrets.plugins.discord import DiscordBotTokenDetector
from detect_secrets.plugins.github_token import GitHubTokenDetector
from detect_secrets.plugins.gitlab_token import GitLabTokenDetector
from detect_secrets.plugins.jwt import JwtTokenDetector
from detect_secrets.plugins.mailchimp import MailchimpDetector
from detect_secrets.plugins.npm import NpmDetector
from detect_secrets.plugins.openai import OpenAIDetector
from detect_secrets.plugins.private_key import PrivateKeyDetector
from detect_secrets.plugins.pypi_token import PypiTokenDetector
from detect_secrets.plugins.sendgrid import SendGridDetector
from detect_secrets.plugins.slack import SlackDetector
from detect_secrets.plugins.square_oauth import SquareOAuthDetector
from detect_secrets.plugins.stripe import StripeDetector
from detect_secrets.plugins.telegram_token import TelegramBotTokenDetector
from detect_secrets.plugins.twilio import TwilioKeyDetector

from .kinds import Kind
from .seed_phrases import find_seed_phrases

__all__ = ["Span", "find_spans"]

# A provider format says more than "a value assigned to `token`": on overlap the higher priority names the kind.
_PROVIDER, _CONTEXT = 2, 1


@dataclass(frozen=True, slots=True)
class Span:
    """`text[start:end]` is a secret of `kind`."""

    start: int
    end: int
    kind: Kind
    priority: int = _PROVIDER


_LIBRARY_PLUGINS: tuple[tuple[RegexBasedDetector, Kind], ...] = (
    (AWSKeyDetector(), Kind.AWS_ACCESS_KEY),
    (ArtifactoryDetector(), Kind.ARTIFACTORY_TOKEN),
    (AzureStorageKeyDetector(), Kind.AZURE_KEY),
    (BasicAuthDetector(), Kind.PASSWORD_IN_URL),
    (DiscordBotTokenDetector(), Kind.DISCORD_TOKEN),
    (GitHubTokenDetector(), Kind.GITHUB_TOKEN),
    (GitLabTokenDetector(), Kind.GITLAB_TOKEN),
    (JwtTokenDetector(), Kind.JWT),
    (MailchimpDetector(), Kind.MAILCHIMP_KEY),
    (NpmDetector(), Kind.NPM_TOKEN),
    (OpenAIDetector(), Kind.OPENAI_KEY),
    (PrivateKeyDetector(), Kind.PRIVATE_KEY),
    (PypiTokenDetector(), Kind.PYPI_TOKEN),
    (SendGridDetector(), Kind.SENDGRID_KEY),
    (SlackDetector(), Kind.SLACK_TOKEN),
    (SquareOAuthDetector(), Kind.SQUARE_SECRET),
    (StripeDetector(), Kind.STRIPE_KEY),
    (TelegramBotTokenDetector(), Kind.TELEGRAM_TOKEN),
    (TwilioKeyDetector(), Kind.TWILIO_KEY),
)
# Some plugins' matches include the delimiter around the secret (a space, a quote, `=`).
_DELIMITERS = " \t\r\n\"'=:,;"
# The patterns whose group 1 is the secret and the rest of the match its context (a name, the URL around it).
_VALUE_GROUP: dict[str, int] = {
    pattern.pattern: 1
    for plugin in (AWSKeyDetector(), BasicAuthDetector(), NpmDetector())
    for pattern in plugin.denylist
    if pattern.groups
}
# AWS's second pattern is the secret access key named after `aws…key`, not an access key id.
_PATTERN_KIND = {AWSKeyDetector.denylist[1].pattern: Kind.AWS_SECRET_KEY}

# Provider formats detect-secrets lacks; the group `secret` (or the whole match) is removed.
_PROVIDER_PATTERNS: tuple[tuple[re.Pattern[str], Kind], ...] = (
    (re.compile(r"(?<![A-Za-z0-9_])hf_[A-Za-z0-9]{30,}(?![A-Za-z0-9])"), Kind.HUGGING_FACE_TOKEN),
    (re.compile(r"(?<![A-Za-z0-9_])sk-ant-[a-z0-9]+-[A-Za-z0-9_-]{32,}"), Kind.ANTHROPIC_KEY),
    (re.compile(r"(?<![A-Za-z0-9_])sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}"), Kind.OPENAI_KEY),
    (re.compile(r"(?<![A-Za-z0-9_-])sk-[A-Za-z0-9]{40,}(?![A-Za-z0-9])"), Kind.OPENAI_KEY),
    (re.compile(r"(?<![A-Za-z0-9_])(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{16,}"), Kind.STRIPE_KEY),
    (re.compile(r"(?<![A-Za-z0-9_])whsec_[A-Za-z0-9+/=]{24,}"), Kind.STRIPE_KEY),
    (re.compile(r"(?<![A-Za-z0-9_])github_pat_[A-Za-z0-9_]{50,}"), Kind.GITHUB_TOKEN),
    (re.compile(r"(?<![A-Za-z0-9_])AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])"), Kind.GOOGLE_API_KEY),
    (re.compile(r"(?<![A-Za-z0-9_])ya29\.[0-9A-Za-z_-]{20,}"), Kind.GOOGLE_OAUTH_TOKEN),
    (re.compile(r"(?<![A-Za-z0-9_])do[opr]_v1_[a-f0-9]{64}(?![a-f0-9])"), Kind.DIGITALOCEAN_TOKEN),
    (re.compile(r"(?<![A-Za-z0-9_])r8_[A-Za-z0-9]{37}(?![A-Za-z0-9])"), Kind.REPLICATE_TOKEN),
    (re.compile(r"(?<![A-Za-z0-9])[xyzt]prv[1-9A-HJ-NP-Za-km-z]{100,112}(?![A-Za-z0-9])"), Kind.WALLET_PRIVATE_KEY),
)

_BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
_WIF = re.compile(r"(?<![A-Za-z0-9])[5KLc9][1-9A-HJ-NP-Za-km-z]{50,51}(?![A-Za-z0-9])")

# PEM (five dashes) and the SSH2 format of ssh.com and PuTTY exports (`---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----`).
_PEM_BEGIN = re.compile(r"-{4,5} ?BEGIN ((?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?) ?-{4,5}")
# A PuTTY key file: a header line, `Key: value` lines and base64 lines, ending with the MAC line.
_PUTTY = re.compile(r"PuTTY-User-Key-File-\d+:[^\n]*\n(?:[^\n]*\n){0,80}?[ \t]*Private-(?:MAC|Hash):[ \t]*[0-9a-fA-F]+")
# A line that can continue a PEM body whose END line is missing: base64, or a header such as "Proc-Type: …".
_PEM_BODY_LINE = re.compile(r"[ \t]*(?:[A-Za-z0-9+/=]{16,}|[A-Za-z-]+: .*|)[ \t]*\r?\n?")

_KEYWORDS = (
    r"password|passwd|passphrase|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|secret[_-]?key"
    r"|private[_-]?key|account[_-]?key|auth[_-]?key|credentials?|client[_-]?secret"
)
_VALUE = r"""(?:(?P<q>["'])(?P<quoted>[^"'\r\n]{1,300})(?P=q)|(?P<secret>[^\s"'`,;&|<>()\[\]{}]{1,300}))"""
_CONTEXT_PATTERNS: tuple[tuple[re.Pattern[str], Kind], ...] = (
    # `password = "…"`, `DB_PASSWORD: …`, `"SecretAccessKey": "…"`, `?access_token=…`, `x-api-key: …`
    (
        re.compile(
            rf"""(?i)(?<![A-Za-z0-9])(?P<key>[A-Za-z0-9_.-]{{0,40}}?(?:{_KEYWORDS}))["']?"""
            rf"""[ \t]*(?:=|:=|:|=>)[ \t]*{_VALUE}"""
        ),
        Kind.SECRET,
    ),
    # `--password s3cret`, `--hf-token=…`
    (
        re.compile(rf"""(?i)(?<![A-Za-z0-9-])--?(?P<key>[A-Za-z0-9_-]{{0,30}}?(?:{_KEYWORDS}))(?:=|[ \t]+){_VALUE}"""),
        Kind.SECRET,
    ),
    # "my password is hunter2"
    (
        re.compile(
            r"""(?i)\b(?P<key>password|passphrase)\s+(?:is|was)\s*:?\s*(?P<q>["']?)(?P<prose>\S+?)(?P=q)[.,;]?(?=\s|$)"""
        ),
        Kind.PASSWORD,
    ),
    (
        re.compile(
            r"""(?i)\b(?:proxy-)?authorization["']?\s*[:=]\s*["']?(?:(?:bearer|basic|token|bot|digest)\s+)?"""
            r"""(?P<secret>[A-Za-z0-9._~+/-]{8,}=*)"""
        ),
        Kind.AUTH_HEADER,
    ),
    (re.compile(r"(?i)\bbearer\s+(?P<secret>[A-Za-z0-9._~+/-]{20,}=*)"), Kind.AUTH_HEADER),
    (
        re.compile(r"(?i)\b[a-z][a-z0-9+.-]{1,20}://[^\s:/@?#]*:(?P<secret>[^\s@/?#]+)@[A-Za-z0-9\[]"),
        Kind.PASSWORD_IN_URL,
    ),
    (
        re.compile(
            r"(?i)[?&](?:sig|signature|x-amz-signature|x-amz-security-token|x-goog-signature)=(?P<secret>[^&\s#\"']+)"
        ),
        Kind.SIGNED_URL,
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
    ]
)
_PLACEHOLDER = re.compile(r"^(?:[*x•.#-]+|\$.*|%.*|\{.*|<.*|\[redacted.*|os\.|env\.|process\.env.*|getenv.*)$", re.I)


def _is_placeholder(value: str) -> bool:
    lowered = value.lower()
    return lowered in _PLACEHOLDER_WORDS or bool(_PLACEHOLDER.match(value)) or lowered.startswith(("os.", "env."))


def _context_kind(key: str, value: str, default: Kind) -> Kind | None:
    """The kind of a value found after a keyword, or None when it does not look like a secret."""
    if _is_placeholder(value):
        return None
    normalized = re.sub(r"[^a-z]", "", key.lower())
    if normalized in {"pwd", "oldpwd"}:
        return None  # the shell's current directory, in every `env` dump
    if "secretaccesskey" in normalized or (normalized.startswith("aws") and "secret" in normalized):
        return Kind.AWS_SECRET_KEY
    if any(word in normalized for word in ("password", "passwd", "passphrase", "pwd")):
        return Kind.PASSWORD
    # A token-like name holds an id as often as a secret (`token: 2`, `eos_token: </s>`): real tokens are long and
    # contain a digit.
    if default == Kind.SECRET and (len(value) < 8 or not any(char.isdigit() for char in value)):
        return None
    return default


def _value_span(match: re.Match[str]) -> tuple[int, int] | None:
    for group in ("quoted", "secret", "prose"):
        if group in match.re.groupindex and match.group(group) is not None:
            return match.span(group)
    return None


def _context_spans(text: str) -> Iterator[Span]:
    for pattern, default in _CONTEXT_PATTERNS:
        for match in pattern.finditer(text):
            span = _value_span(match)
            if span is None:
                continue
            value = text[span[0] : span[1]]
            if text.startswith("(", span[1]):
                continue  # `secret = secrets.token_hex(32)`: code that makes a secret, not one
            key = match.group("key") if "key" in pattern.groupindex else ""
            if default == Kind.PASSWORD and (value.isalpha() or _is_placeholder(value)):
                continue  # "password is incorrect": prose, unless the value has a digit or a symbol
            kind = _context_kind(key, value, default) if key else (None if _is_placeholder(value) else default)
            if kind is not None:
                yield Span(span[0], span[1], kind, _CONTEXT)


def _library_spans(text: str) -> Iterator[Span]:
    """Where detect-secrets' plugins match: the whole match, not what `analyze_string` yields.

    `analyze_string` yields a pattern's groups when it has any, and for some plugins the group is only the
    prefix (`(ghp|gho|ghu|ghs|ghr)_…` gives `ghp`, GitLab's gives `glpat`): replacing that would keep the token.
    So each pattern of the plugin's `denylist` is run here and the whole match is taken, less the delimiters some
    patterns include; only where a group is the value after a name or in a URL (`_VALUE_GROUP`) is it that
    group. A plugin that filters its matches in its own `analyze_string` (JWT checks that the parts decode)
    still decides whether a match counts.
    """
    offset = 0
    for line in text.splitlines(keepends=True):
        for plugin, kind in _LIBRARY_PLUGINS:
            # Basic auth in a URL says where a secret is, not what it is (a GitHub token, say).
            priority = _CONTEXT if kind == Kind.PASSWORD_IN_URL else _PROVIDER
            for pattern in plugin.denylist:
                group = _VALUE_GROUP.get(pattern.pattern, 0)
                filtered = type(plugin).analyze_string is not RegexBasedDetector.analyze_string
                for match in pattern.finditer(line):
                    if match.group(group) is None or (filtered and not any(plugin.analyze_string(match.group()))):
                        continue
                    start, end = match.span(group)
                    while start < end and line[start] in _DELIMITERS:
                        start += 1
                    while end > start and line[end - 1] in _DELIMITERS:
                        end -= 1
                    if start < end:
                        yield Span(offset + start, offset + end, _PATTERN_KIND.get(pattern.pattern, kind), priority)
        offset += len(line)


def _body_end(text: str, position: int) -> int:
    """Where the body lines of a key block starting at `position` end (a paste cut before its END line)."""
    while position < len(text):
        line = _PEM_BODY_LINE.match(text, position)
        if line is None or line.end() == position:
            break
        position = line.end()
    return position


def _pem_spans(text: str) -> Iterator[Span]:
    for begin in _PEM_BEGIN.finditer(text):
        end_line = re.compile(rf"-{{4,5}} ?END {re.escape(begin.group(1))} ?-{{4,5}}").search(text, begin.end())
        yield Span(begin.start(), end_line.end() if end_line else _body_end(text, begin.end()), Kind.PRIVATE_KEY)
    for header in re.finditer(r"PuTTY-User-Key-File-\d+:", text):
        whole = _PUTTY.match(text, header.start())
        line_end = text.find("\n", header.end())
        end = whole.end() if whole else (len(text) if line_end == -1 else _body_end(text, line_end + 1))
        yield Span(header.start(), end, Kind.PRIVATE_KEY)


def _base58check_ok(value: str) -> bool:
    number = 0
    for char in value:
        number = number * 58 + _BASE58.index(char)
    raw = number.to_bytes((number.bit_length() + 7) // 8, "big")
    payload, checksum = raw[:-4], raw[-4:]
    return len(payload) > 1 and hashlib.sha256(hashlib.sha256(payload).digest()).digest()[:4] == checksum


def _pattern_spans(text: str) -> Iterator[Span]:
    for pattern, kind in _PROVIDER_PATTERNS:
        for match in pattern.finditer(text):
            yield Span(match.start(), match.end(), kind)
    for match in _WIF.finditer(text):
        # A WIF key is base58check with version byte 0x80 (mainnet) or 0xef (testnet); most 51-character
        # base58 words are not.
        if _base58check_ok(match.group()):
            yield Span(match.start(), match.end(), Kind.WALLET_PRIVATE_KEY)
    for start, end in find_seed_phrases(text):
        yield Span(start, end, Kind.SEED_PHRASE)


def _merged(spans: list[Span]) -> list[Span]:
    """Overlapping spans become one, named after the most specific kind among them."""
    merged: list[Span] = []
    for span in sorted(spans, key=lambda item: (item.start, -item.end)):
        if merged and span.start < merged[-1].end:
            last = merged[-1]
            kind = span.kind if span.priority > last.priority else last.kind
            merged[-1] = Span(last.start, max(last.end, span.end), kind, max(last.priority, span.priority))
        else:
            merged.append(span)
    return merged


# A secret never ends inside a run of these: a fixed-length pattern that matched the start of a longer token (a
# `{36}` GitHub pattern on a 40-character paste, the JWT pattern's lazy signature) is widened to the whole token,
# so no part of a secret is kept while the customer is told it was removed.
_TOKEN_BEFORE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
_TOKEN_AFTER = _TOKEN_BEFORE | frozenset("+/=")


def _whole_token(text: str, span: Span) -> Span:
    start, end = span.start, span.end
    while start > 0 and text[start - 1] in _TOKEN_BEFORE and not text[start].isspace():
        start -= 1
    while end < len(text) and text[end] in _TOKEN_AFTER and not text[end - 1].isspace():
        end += 1
    return Span(start, end, span.kind, span.priority)


def find_spans(text: str) -> list[Span]:
    """Every secret in `text`, as non-overlapping spans in text order, each widened to the whole token."""
    spans = [*_pem_spans(text), *_library_spans(text), *_pattern_spans(text), *_context_spans(text)]
    return _merged([_whole_token(text, span) for span in spans])

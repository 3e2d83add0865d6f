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

import base64
import binascii
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

from .context import context_spans
from .kinds import Kind
from .placeholders import is_placeholder
from .providers import PROVIDER_PATTERNS, WRAPPED_HEAD, starts_a_token
from .samples import sample_token_spans
from .seed_phrases import find_seed_phrases
from .shapes import shape_spans
from .wallets import solana_keypair_spans, wif_spans

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
# Each plugin pattern, compiled once more with `^`/`$` at line ends so that it runs over the whole text in one pass
# (the plugins are written for one line at a time; none of their patterns crosses a line otherwise).
_LIBRARY_PATTERNS = tuple(
    (
        plugin,
        _PATTERN_KIND.get(pattern.pattern, kind),
        re.compile(pattern.pattern, pattern.flags | re.MULTILINE),
        _VALUE_GROUP.get(pattern.pattern, 0),
        # Basic auth in a URL says where a secret is, not what it is (a GitHub token, say).
        _CONTEXT if kind == Kind.PASSWORD_IN_URL else _PROVIDER,
    )
    for plugin, kind in _LIBRARY_PLUGINS
    for pattern in plugin.denylist
)

# PEM (five dashes) and the SSH2 format of ssh.com and PuTTY exports (`---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----`).
# OpenVPN's static key (`tls-auth`, `secret`) is a shared secret in the same frame, and so is the tunnel token in
# cloudflared's `cert.pem` (0391).
_PEM_BEGIN = re.compile(
    r"-{4,5} ?BEGIN ((?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?|OpenVPN Static key V1|ARGO TUNNEL TOKEN) ?-{4,5}"
)
# A PuTTY key file: a header line, `Key: value` lines and base64 lines, ending with the MAC line.
_PUTTY = re.compile(r"PuTTY-User-Key-File-\d+:[^\n]*\n(?:[^\n]*\n){0,80}?[ \t]*Private-(?:MAC|Hash):[ \t]*[0-9a-fA-F]+")
# A line that can continue a PEM body whose END line is missing: base64, or a header such as "Proc-Type: …".
_PEM_BODY_LINE = re.compile(r"[ \t]*(?:[A-Za-z0-9+/=]{16,}|[A-Za-z-]+: .*|)[ \t]*\r?\n?")
# A private key's body pasted without its BEGIN line: the base64 of its DER structure starts the same way for every
# key of a type — PKCS#1 RSA (`MIIEowIBAAKC…`), PKCS#8 (`MIIEvQIBADAN…`, `MIGHAgEAMBMG…` for EC, `MC4CAQAwBQYDK2Vw…`
# for Ed25519), SEC1 EC (`MHcCAQEE…`, `MIGkAgEBBD…`) — and an OpenSSH key file's body starts with the base64 of
# "openssh-key-v1". Public keys and certificates start otherwise (`MIIBIjAN…`, `MIID…`, `AAAAC3NzaC1…`).
_HEADERLESS_KEY = re.compile(
    r"(?<![A-Za-z0-9+/])(?:MII[A-Za-z0-9+/]{3}IB(?:AAKC|ADAN)|MIG[A-Za-z0-9+/]AgEAM|MC4CAQAwBQYDK2Vw"
    r"|MHcCAQEE|MIGkAgEBBD|MF8CAQEE|b3BlbnNzaC1rZXktdjE)[A-Za-z0-9+/]{20,}={0,2}"
)


def _library_spans(text: str) -> Iterator[Span]:
    """Where detect-secrets' plugins match: the whole match, not what `analyze_string` yields.

    `analyze_string` yields a pattern's groups when it has any, and for some plugins the group is only the
    prefix (`(ghp|gho|ghu|ghs|ghr)_…` gives `ghp`, GitLab's gives `glpat`): replacing that would keep the token.
    So each pattern of the plugin's `denylist` is run here and the whole match is taken, less the delimiters some
    patterns include; only where a group is the value after a name or in a URL (`_VALUE_GROUP`) is it that
    group. A plugin that filters its matches in its own `analyze_string` (JWT checks that the parts decode)
    still decides whether a match counts.
    """
    for plugin, kind, pattern, group, priority in _LIBRARY_PATTERNS:
        filtered = type(plugin).analyze_string is not RegexBasedDetector.analyze_string
        for match in pattern.finditer(text):
            if match.group(group) is None or (filtered and not any(plugin.analyze_string(match.group()))):
                continue
            start, end = match.span(group)
            while start < end and text[start] in _DELIMITERS:
                start += 1
            while end > start and text[end - 1] in _DELIMITERS:
                end -= 1
            if start < end and (kind == Kind.PRIVATE_KEY or not _placeholder(text[start:end])):
                if kind == Kind.PASSWORD_IN_URL and is_placeholder(text[start:end]):
                    continue  # `postgresql://user:password@localhost/db` in an example file
                yield Span(start, end, kind, priority)


# `sk-proj-XXXXXXXXXXXX`, `ghp_************`: the shape of a token around a placeholder, not a token; and the
# documentation's examples, marked in capitals (AWS's `AKIAIOSFODNN7EXAMPLE`; round 9, 0395).
_PLACEHOLDER_RUN = re.compile(r"([A-Za-z0-9*])\1{7}|EXAMPLE")


def _placeholder(token: str) -> bool:
    return _PLACEHOLDER_RUN.search(token) is not None


# A PEM block in base64, as kubeconfig's `client-key-data` holds it: "-----BEGIN" encodes to "LS0tLS1CRUdJTi".
_PEM_BASE64 = re.compile(r"LS0tLS1CRUdJTi[A-Za-z0-9+/]{20,}={0,2}")


def _base64_pem_spans(text: str) -> Iterator[Span]:
    """Base64-encoded PEM blocks whose header says PRIVATE KEY (a certificate's stays)."""
    for match in _PEM_BASE64.finditer(text):
        head = match.group()[:96]
        try:
            decoded = base64.b64decode(head[: len(head) // 4 * 4])
        except (binascii.Error, ValueError):
            continue
        if _PEM_BEGIN.match(decoded.decode("latin-1")):
            yield Span(match.start(), match.end(), Kind.PRIVATE_KEY)


def _headerless_key_spans(text: str) -> Iterator[Span]:
    for match in _HEADERLESS_KEY.finditer(text):
        end = match.end()
        if text.startswith("\n", end) or text.startswith("\r\n", end):
            end = _body_end(text, text.index("\n", end) + 1)  # the rest of the body on the lines below
            while text[end - 1] in " \t\r\n":
                end -= 1
        yield Span(match.start(), end, Kind.PRIVATE_KEY)


# Base64 that decodes to JSON (`eyJ` is `{"`, `ewo` is `{\n`): a `.dockerconfigjson`, a Neptune API token, a
# tunnel token. When the decoded text holds a secret, the whole blob is one.
_BASE64_JSON = re.compile(r"(?<![A-Za-z0-9+/_-])(?:eyJ|eyAi|ewo)[A-Za-z0-9+/_-]{37,20000}={0,2}(?![A-Za-z0-9+/_.-])")


def _encoded_json_spans(text: str, depth: int) -> Iterator[Span]:
    if depth > 0:
        return
    for match in _BASE64_JSON.finditer(text):
        blob = match.group()
        try:
            decoded = base64.b64decode(blob.replace("-", "+").replace("_", "/") + "=" * (-len(blob) % 4))
            inner = decoded.decode("utf-8")
        except (binascii.Error, ValueError):
            continue
        if find_spans(inner, depth=depth + 1):
            yield Span(match.start(), match.end(), Kind.SECRET)


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


def _pattern_spans(text: str) -> Iterator[Span]:
    for pattern, kind in PROVIDER_PATTERNS:
        for match in pattern.finditer(text):
            if starts_a_token(text, match.start()) and not _placeholder(match.group()):
                yield Span(match.start(), match.end(), kind)
    for wrapped in WRAPPED_HEAD.finditer(text):
        if starts_a_token(text, wrapped.start()) and _continuation(text, wrapped.end()):
            yield Span(wrapped.start(), wrapped.end(), Kind.SECRET)
    for start, end in (*wif_spans(text), *solana_keypair_spans(text)):
        yield Span(start, end, Kind.WALLET_PRIVATE_KEY)
    for start, end in find_seed_phrases(text):
        yield Span(start, end, Kind.SEED_PHRASE)
    for start, end, kind in shape_spans(text):
        yield Span(start, end, kind)


def _context_spans(text: str) -> Iterator[Span]:
    for start, end, kind in context_spans(text):
        yield Span(start, end, kind, _CONTEXT)


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


# The rest of a token that a terminal, a chat or a shell continuation (`\`) wrapped onto the next line: a line
# holding nothing but one random-looking run, after a span that ends at the line's end (a closing quote may stand
# between, and an opening one before the rest, as in `"sk-…" \` + `"…"`).
_CONTINUATION = re.compile(r"""["']?[ \t]*\\?\r?\n[ \t]*["']?(?P<rest>[A-Za-z0-9_+/=-]{6,})["']?[ \t]*(?=\r?\n|$)""")


def _continuation(text: str, end: int) -> int | None:
    """Where the wrapped rest of a token ending at `end` ends, or None when the next line does not carry on."""
    match = _CONTINUATION.match(text, end)
    if match is None:
        return None
    rest = match.group("rest")
    if "=" in rest.rstrip("="):
        return None  # `LOG_LEVEL=info`: the next line of a config file, not the rest of a token
    random_looking = any(char.isdigit() for char in rest) or (
        any(char.isupper() for char in rest[1:]) and any(char.islower() for char in rest)
    )
    return match.end("rest") if random_looking else None


# A second part after a dot, glued to a token (round 10, 0397): letters and digits, no space, a sentence's end after.
_DOTTED_REST = re.compile(r"\.([A-Za-z0-9_-]{16,2000})(?![A-Za-z0-9_.+/=-])")


def _random_part(part: str) -> bool:
    return any(char.isdigit() for char in part) and any(char.isalpha() for char in part)


def _whole_token(text: str, span: Span) -> Span:
    start, end = span.start, span.end
    # A context span starts where its pattern says (after `-p` in `mysql -pS3cret`); a provider span may not.
    while span.priority == _PROVIDER and start > 0 and text[start - 1] in _TOKEN_BEFORE and not text[start].isspace():
        start -= 1
    while end < len(text) and text[end] in _TOKEN_AFTER and not text[end - 1].isspace():
        end += 1
    dotted = _DOTTED_REST.match(text, end) if end > start else None
    if dotted is not None and _random_part(dotted.group(1)):
        end = dotted.end()  # Lambda Cloud's `secret_<name>_<hex>.<secret>`: the part after the dot too (0397)
    if span.kind not in {Kind.SEED_PHRASE, Kind.PRIVATE_KEY}:
        end = _continuation(text, end) or end
    return Span(start, end, span.kind, span.priority)


def find_spans(text: str, depth: int = 0) -> list[Span]:
    """Every secret in `text`, as non-overlapping spans in text order, each widened to the whole token.

    `depth` is 1 inside a decoded base64 blob (`_encoded_json_spans`), which is not decoded further.
    """
    spans = [
        *_pem_spans(text),
        *_base64_pem_spans(text),
        *_headerless_key_spans(text),
        *_encoded_json_spans(text, depth),
        *_library_spans(text),
        *_pattern_spans(text),
        *_context_spans(text),
    ]
    samples = list(sample_token_spans(text))
    if samples:  # a token signed with a published sample key (jwt.io's, an RFC's) is no secret (round 10, 0399)
        spans = [span for span in spans if not any(start <= span.start and span.end <= end for start, end in samples)]
    return _merged([_whole_token(text, span) for span in spans])

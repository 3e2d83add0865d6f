"""Plain-text emails are not HTML: an apostrophe, `&` or `<` in their data reaches the reader as written.

Django escapes every template by default, so a `.txt` email without `{% autoescape off %}` showed the Turkish
"7 Ara 2026 01:42 UTC&#x27;den önce ödeyin". Every plain-text email template (subject and body) is rendered here
with such characters in each value it shows; its HTML part, where there is one, keeps escaping them.
"""

from pathlib import Path
from types import SimpleNamespace

import pytest
from django.conf import settings
from django.template import TemplateDoesNotExist
from django.template.loader import render_to_string
from django.utils import translation

RISKY = "O'Brien & <Co>"
ENTITIES = ("&#x27;", "&#39;", "&amp;", "&lt;", "&gt;", "&quot;")

_intent = SimpleNamespace(owner=SimpleNamespace(email=RISKY), address=RISKY, memo=RISKY, pk=RISKY)
_pair = SimpleNamespace(label=RISKY, asset=RISKY)
_payout = SimpleNamespace(ref=RISKY, address=RISKY)

# Each plain-text email template (path under a templates/ folder) and a context that puts RISKY in what it shows.
CONTEXTS: dict[str, dict] = {
    "emails/order_event.txt": {
        "order": SimpleNamespace(contact_first_name=RISKY, ref=RISKY),
        "paragraphs": [RISKY],
        "url": RISKY,
    },
    "emails/order_event_subject.txt": {"subject": RISKY},
    "emails/money_event.txt": {"name": RISKY, "paragraphs": [RISKY], "url": RISKY},
    "emails/money_event_subject.txt": {"subject": RISKY},
    "emails/payment_reported.txt": {
        "intent": _intent,
        "target": RISKY,
        "pair": _pair,
        "amount": RISKY,
        "url": RISKY,
    },
    "emails/payment_reported_subject.txt": {"pair": _pair, "amount": RISKY},
    "emails/backoffice/payout_requested.txt": {
        "customer": RISKY,
        "amount": RISKY,
        "net": RISKY,
        "fee": RISKY,
        "pair": _pair,
        "payout": _payout,
        "url": RISKY,
    },
    "emails/backoffice/payout_requested_subject.txt": {"payout": _payout, "net": RISKY, "pair": _pair},
    "emails/backoffice/machine_request.txt": {
        "customer": RISKY,
        "kind": RISKY,
        "gpu": RISKY,
        "ref": RISKY,
        "note": RISKY,
        "access": [RISKY],
        "requests_url": RISKY,
        "order_url": RISKY,
    },
    "emails/backoffice/machine_request_subject.txt": {"ref": RISKY, "kind": RISKY},
    "emails/backoffice/access_to_remove.txt": {
        "ref": RISKY,
        "gpu": RISKY,
        "customer": RISKY,
        "access": [RISKY],
        "order_url": RISKY,
        "queue_url": RISKY,
    },
    "emails/backoffice/access_to_remove_subject.txt": {"ref": RISKY},
    "emails/backoffice/machine_to_prepare.txt": {
        "ref": RISKY,
        "paid": RISKY,
        "lots": 2,
        "gpu": RISKY,
        "cards": 2,
        "term_days": 7,
        "environment": RISKY,
        "why": RISKY,
        "customer": RISKY,
        "language": RISKY,
        "keys": [RISKY],
        "order_url": RISKY,
        "queue_url": RISKY,
    },
    "emails/backoffice/machine_to_prepare_subject.txt": {"ref": RISKY},
    "emails/backoffice/support_request.txt": {
        "follow_up": True,
        "customer": RISKY,
        "ref": RISKY,
        "url": RISKY,
        "inbox_url": RISKY,
    },
    "emails/backoffice/support_request_subject.txt": {"follow_up": True, "ref": RISKY},
    "emails/account_event.txt": {"first_name": RISKY, "paragraphs": [RISKY], "link_text": RISKY, "url": RISKY},
    "emails/account_event_subject.txt": {"subject": RISKY},
    "emails/support_reply.txt": {"first_name": RISKY, "ref": RISKY, "url": RISKY, "brand_name": RISKY},
    "emails/support_reply_subject.txt": {"ref": RISKY},
    "emails/guides_quote_ack.txt": {
        "ref": RISKY,
        "model": RISKY,
        "gpu": RISKY,
        "workload": RISKY,
        "scope": RISKY,
        "endpoint": RISKY,
        "support": RISKY,
        "load": RISKY,
    },
    "emails/guides_quote_ack_subject.txt": {"ref": RISKY},
    "emails/test_hello.txt": {"name": RISKY},
    "emails/test_hello_subject.txt": {},
    "accounts/emails/password_reset.txt": {
        "user": SimpleNamespace(first_name=RISKY),
        "site_name": RISKY,
        "email": RISKY,
        "protocol": "https",
        "domain": "example.com",
        "uid": "MQ",
        "token": "abc-123",
    },
    "accounts/emails/password_reset_subject.txt": {"site_name": RISKY},
}


def _plain_text_templates() -> set[str]:
    """Every `.txt` template in an `emails` folder of the project's apps, as the loader names it."""
    found = set()
    for path in Path(settings.BASE_DIR, "gpurent").glob("*/templates/**/emails/**/*.txt"):
        parts = path.parts
        found.add("/".join(parts[parts.index("templates") + 1 :]))
    return found


def test_every_plain_text_email_template_is_checked():
    # A new plain-text email needs its row in CONTEXTS, so that the test below renders it too.
    assert _plain_text_templates() == set(CONTEXTS)


@pytest.mark.parametrize("language", ["en", "tr"])
@pytest.mark.parametrize("name", sorted(CONTEXTS))
def test_plain_text_email_shows_its_data_as_written(name, language):
    with translation.override(language):
        text = render_to_string(name, CONTEXTS[name])
    shown = [entity for entity in ENTITIES if entity in text]
    assert shown == [], f"{name} ({language}) shows HTML entities: {text!r}"
    if CONTEXTS[name]:
        assert RISKY in text


@pytest.mark.parametrize("name", sorted(n for n in CONTEXTS if not n.endswith("_subject.txt")))
def test_html_part_still_escapes_the_same_data(name):
    html_name = name.removesuffix(".txt") + ".html"
    try:
        html = render_to_string(html_name, CONTEXTS[name])
    except TemplateDoesNotExist as error:  # the password reset email has no HTML part
        pytest.skip(f"no HTML part: {error}")
    assert RISKY not in html
    assert "O&#x27;Brien &amp; &lt;Co&gt;" in html


def test_turkish_order_placed_email_keeps_its_apostrophe():
    """The reported case: Turkish puts the suffix after an apostrophe ("UTC'den"), from the translation itself."""
    with translation.override("tr"):
        text = render_to_string(
            "emails/order_event.txt",
            {"order": SimpleNamespace(contact_first_name="Ayşe", ref="R-G0B1-R6ED"), "paragraphs": ["UTC'den"]},
        )
    assert "UTC'den" in text

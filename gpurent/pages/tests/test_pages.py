"""The help page (FAQ) in four languages, its links from where questions arise, and the legal pages."""

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from gpurent.pages.faq import FAQ
from gpurent.payments.assets import PAIRS

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("language", "texts"),
    [
        ("en", ["Payment reported. Awaiting verification.", "Which term should I choose: 3, 7 or 30 days?"]),
        ("vi", ["“Đã báo thanh toán. Đang chờ xác minh.”", "“Đã báo thanh toán”", "“Đã trả”"]),
        ("es", ["«Pago notificado. Pendiente de verificación.»", "¿Qué plazo elijo: 3, 7 o 30 días?"]),
        ("tr", ["“Ödeme bildirildi. Doğrulama bekleniyor.”", "Hangi süreyi seçmeliyim: 3, 7 veya 30 gün?"]),
    ],
)
def test_help_answers_in_each_language(language, texts):
    page = Client(HTTP_ACCEPT_LANGUAGE=language).get(reverse("pages:help")).content.decode()
    for text in texts:
        assert text in page
    for answer in FAQ:
        assert f'id="{answer.slug}"' in page


def test_help_names_the_brand(settings, client):
    settings.BRAND_NAME = "NordGPU"
    page = client.get(reverse("pages:help")).content.decode()
    assert "NordGPU asks for no identity document" in page
    assert "%(brand)s" not in page


@pytest.mark.parametrize(
    ("language", "first", "last"),
    [("en", "BTC on Bitcoin, ", ", and LTC on Litecoin."), ("es", "BTC en Bitcoin, ", " y LTC en Litecoin.")],
)
def test_help_lists_every_accepted_pair_from_the_registry(language, first, last):
    """The methods answer is written from `PAIRS`: a new pair appears without a new text (decision 0476)."""
    page = Client(HTTP_ACCEPT_LANGUAGE=language).get(reverse("pages:help")).content.decode()
    with translation.override(language):
        labels = [str(pair.display_label) for pair in PAIRS]
    assert f"{first}{', '.join(labels[1:-1])}{last}" in page
    assert "%(methods)s" not in page


def test_the_issue_questions_are_answered():
    text = " ".join(str(p) for answer in FAQ for p in answer.paragraphs)
    for words in [
        "A 3-day rental is enough to load the model",
        "Three days suit a targeted validation of one question, seven days a set of variants, and thirty days "
        "an organised campaign",
        "except B200, where a lot is two cards",
        "two GPUs do not automatically form one large GPU",
        "Prepare your data and a restore point",
        "plan time to check and export the results",
        "ask for new instructions",
        "does not make transactions on a public blockchain anonymous",
        "does not inspect the content of your files, prompts or computations",
        "no promise that no technical data exists, nor of absolute anonymity",
        "Record the seeds, the determinism settings and the environment",
        "within an explained tolerance",
    ]:
        assert words in text


@pytest.mark.parametrize(
    ("url", "anchors"),
    [
        (reverse("orders:checkout_start"), ["terms", "prices", "plan-term"]),
        (reverse("sizing:estimate"), ["first-rental", "model-size", "estimate", "multi-gpu"]),
        (reverse("journal:index"), ["journal", "experiments", "reproducibility"]),
    ],
)
def test_questions_are_linked_where_they_arise(client, demo_catalog, url, anchors):
    page = client.get(url).content.decode()
    for anchor in anchors:
        assert f'href="/help/#{anchor}"' in page


def test_every_page_links_help_terms_and_privacy(client):
    page = client.get(reverse("glossary:index")).content.decode()
    for url in ["/help/", "/terms/", "/privacy/"]:
        assert f'href="{url}"' in page


def test_privacy_and_terms_are_completed_from_settings(settings, client):
    settings.SHOP_OPERATOR = "Nord Compute OÜ"
    settings.SHOP_CONTACT_EMAIL = "privacy@nord.example"
    settings.RETENTION_RECORDS_YEARS = 7
    settings.RETENTION_SUPPORT_DAYS = 180
    settings.ORDER_PAYMENT_WINDOW_HOURS = 12
    privacy = client.get(reverse("pages:privacy")).content.decode()
    for text in ["Nord Compute OÜ", "mailto:privacy@nord.example", "7 years", "180 days"]:
        assert text in privacy
    terms = client.get(reverse("pages:terms"), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Nord Compute OÜ" in terms
    assert "12 horas" in terms


def test_privacy_and_terms_name_no_operator_when_none_is_set(settings, client):
    settings.SHOP_OPERATOR = ""
    for name in ["pages:privacy", "pages:terms"]:
        page = client.get(reverse(name)).content.decode()
        assert "is run by" not in page


def test_terms_send_questions_to_support_not_to_the_privacy_address(settings, client):
    settings.SHOP_CONTACT_EMAIL = "privacy@nord.example"
    terms = client.get(reverse("pages:terms")).content.decode()
    assert f'href="{reverse("support:list")}"' in terms
    assert "privacy@nord.example" not in terms


def test_terms_and_privacy_promise_no_wiped_disks_at_the_term_end(settings, client):
    # Host rentals keep the home HOSTS_WIPE_AFTER_DAYS after the revoke, desk rentals have no wipe step (QA walk).
    settings.HOSTS_WIPE_AFTER_DAYS = 7
    terms = client.get(reverse("pages:terms")).content.decode()
    privacy = client.get(reverse("pages:privacy")).content.decode()
    assert "wiped" not in terms + privacy
    assert "copy what you need off it before then. Your order page then says what becomes of them." in terms
    assert "Where we delete them ourselves, we do so 7 days after access closes." in privacy

"""Translation machinery: every user-visible string can be extracted, and the extraction runs clean."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation

from gpurent.accounts.models import User
from gpurent.core.formats import usd_text
from gpurent.core.money import Usd

ROOT = Path(__file__).resolve().parents[1]


LANGUAGES = ["es", "vi", "tr"]
# Operator-only back-office text stays English (docs/decisions/0160-language-without-url-prefix.md).
IGNORED = [".venv", "vramcalc", "artifacts", "backoffice", "admin.py", "tests", "node_modules"]


@pytest.fixture(scope="module")
def extracted(tmp_path_factory) -> Path:
    """`makemessages` run over the sources into a copy of `locale/`: the catalogs as they would be if the i18n
    owner extracted now. The sources are linked, not copied, and only the copy of `locale/` is written."""
    work = tmp_path_factory.mktemp("extract")
    for name in ["config", "gpurent", "templates", "manage.py"]:
        (work / name).symlink_to(ROOT / name)
    if (ROOT / "locale").exists():
        shutil.copytree(ROOT / "locale", work / "locale", ignore=shutil.ignore_patterns("*.mo"))
    env = {**os.environ, "LOCALE_DIR": str(work / "locale"), "DJANGO_SETTINGS_MODULE": "config.settings.test"}
    command = [sys.executable, "manage.py", "makemessages", "--symlinks", "--no-obsolete"]
    command += [f"--locale={code}" for code in LANGUAGES] + [f"--ignore={pattern}" for pattern in IGNORED]
    result = subprocess.run(command, cwd=work, env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    assert "warning" not in result.stderr.lower(), result.stderr
    return work / "locale"


def test_makemessages_runs_clean_and_finds_the_shop_texts(extracted):
    catalog = (extracted / "es" / "LC_MESSAGES" / "django.po").read_text()
    for text in [
        'msgid "Rent GPUs for 3, 7 or 30 days"',
        'msgid "KV cache"',
        'msgid "Choose between %(min)d and %(max)d lots."',
        'msgid "Price of one lot"',
        'msgid "%(cards)s card per lot"',
    ]:
        assert text in catalog
    for code in LANGUAGES:
        po = extracted / code / "LC_MESSAGES" / "django.po"
        check = subprocess.run(
            ["/usr/bin/msgfmt", "--check-format", "-o", os.devnull, str(po)], capture_output=True, text=True, timeout=60
        )
        assert check.returncode == 0, check.stderr


def test_language_is_negotiated_by_the_locale_middleware(client, db):
    response = client.get("/glossary/", HTTP_ACCEPT_LANGUAGE="en")
    assert response["Content-Language"] == "en"


# --- Language choice: Accept-Language on a first visit, the switcher's cookie, the account's language -------


def test_first_visit_follows_the_browser_language(client, db):
    response = client.get("/glossary/", HTTP_ACCEPT_LANGUAGE="vi-VN,vi;q=0.9,en;q=0.5")
    assert response["Content-Language"] == "vi"
    assert '<html lang="vi">' in response.content.decode()


def test_every_page_offers_the_four_languages(client, db):
    page = client.get("/glossary/").content.decode()
    assert 'action="/language/"' in page
    for code, name in [("en", "English"), ("es", "Español"), ("vi", "Tiếng Việt"), ("tr", "Türkçe")]:
        assert f'name="language" value="{code}" lang="{code}"' in page
        assert name in page


def test_the_switcher_keeps_the_choice_in_a_cookie_and_returns_to_the_page(client, db):
    response = client.post("/language/", {"language": "tr", "next": "/glossary/"}, HTTP_ACCEPT_LANGUAGE="es")
    assert response.status_code == 302
    assert response["Location"] == "/glossary/"
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "tr"
    assert client.get("/glossary/", HTTP_ACCEPT_LANGUAGE="es")["Content-Language"] == "tr"


def test_the_switcher_refuses_another_sites_next(client, db):
    response = client.post("/language/", {"language": "es", "next": "https://evil.example/"})
    assert response["Location"] == "/"


def test_a_signed_in_customer_keeps_the_choice_on_the_account(client, db):
    user = User.objects.create_user("ana@example.com", "a-long-passphrase-1", first_name="Ana", last_name="Ruiz")
    client.force_login(user)
    client.post("/language/", {"language": "vi", "next": "/"})
    user.refresh_from_db()
    assert user.language == "vi"


def test_the_account_language_follows_the_customer_to_another_browser(client, db):
    user = User.objects.create_user(
        "ana@example.com", "a-long-passphrase-1", first_name="Ana", last_name="Ruiz", language="es"
    )
    client.force_login(user)
    response = client.get("/glossary/", HTTP_ACCEPT_LANGUAGE="tr")
    assert response["Content-Language"] == "es"
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "es"


def test_the_api_answers_in_the_requested_language_even_for_a_signed_in_customer(client, db):
    user = User.objects.create_user(
        "ana@example.com", "a-long-passphrase-1", first_name="Ana", last_name="Ruiz", language="es"
    )
    client.force_login(user)
    assert client.get("/api/v1/catalog", HTTP_ACCEPT_LANGUAGE="tr")["Content-Language"] == "tr"


def test_registration_saves_the_language_the_visitor_reads(client, db):
    client.post("/language/", {"language": "tr", "next": "/"})
    client.post(
        "/account/register/",
        {
            "first_name": "Elif",
            "last_name": "Demir",
            "email": "elif@example.com",
            "password": "correct horse battery staple 42",
        },
    )
    assert User.objects.get(email="elif@example.com").language == "tr"


# --- Formats: the amount never changes, only how it is written ----------------------------------------------


@pytest.mark.parametrize(
    ("language", "long", "short"),
    [
        ("en", "$1,234.50", "$95"),
        ("es", "1.234,50\xa0US$", "95\xa0US$"),
        ("vi", "1.234,50\xa0US$", "95\xa0US$"),
        ("tr", "$1.234,50", "$95"),
    ],
)
def test_money_is_written_in_the_language_conventions(language, long, short):
    with translation.override(language):
        assert usd_text(Usd(123_450)) == long
        assert usd_text(Usd(9_500), short=True) == short
        assert usd_text(Usd(9_550), short=True) == usd_text(Usd(9_550))

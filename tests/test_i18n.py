"""Translation machinery: every user-visible string can be extracted, and the extraction runs clean."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_makemessages_runs_clean_and_finds_the_shop_texts(tmp_path):
    env = {**os.environ, "LOCALE_DIR": str(tmp_path), "DJANGO_SETTINGS_MODULE": "config.settings.test"}
    result = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "makemessages",
            "-l",
            "es",
            "--ignore=.venv",
            "--ignore=vramcalc",
            "--no-obsolete",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert "warning" not in result.stderr.lower(), result.stderr
    catalog = (tmp_path / "es" / "LC_MESSAGES" / "django.po").read_text()
    for text in [
        'msgid "Rent GPUs for 3, 7 or 30 days"',
        'msgid "KV cache"',
        'msgid "Choose between %(min)d and %(max)d lots."',
        'msgid "Price of one lot"',
        'msgid "%(cards)s card per lot"',
    ]:
        assert text in catalog
    check = subprocess.run(
        ["/usr/bin/msgfmt", "--check-format", "-o", os.devnull, str(tmp_path / "es" / "LC_MESSAGES" / "django.po")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert check.returncode == 0, check.stderr


def test_language_is_negotiated_by_the_locale_middleware(client, db):
    response = client.get("/glossary/", HTTP_ACCEPT_LANGUAGE="en")
    assert response["Content-Language"] == "en"

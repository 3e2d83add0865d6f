"""Key pages in every language at phone (390 px) and desktop (1366 px) widths: no sideways scroll and no
button whose text is cut off (Vietnamese and Turkish run long). One browser page is reused for every visit;
a viewport screenshot of each page goes to artifacts/i18n/ (issue 12)."""

from decimal import Decimal

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone

from gpurent.orders.services import Contact, order_place
from gpurent.payments.models import ExchangeRate, ReceivingAddress
from gpurent.payments.services import intent_issue_for_order

from .conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LANGUAGES = ["en", "es", "vi", "tr"]
WIDTHS = [390, 1366]
# Buttons and button-like links whose content is wider or taller than their box (text cut off or spilling).
CLIPPED = """() => [...document.querySelectorAll('button, .button, input[type=submit]')]
  .filter((el) => el.offsetParent !== null)
  .filter((el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1)
  .map((el) => (el.innerText || el.value || '').trim().slice(0, 60))"""


def test_key_pages_fit_every_language_at_phone_and_desktop_widths(live_server, page, demo_catalog, django_user_model):
    customer = django_user_model.objects.create_user("linh@example.com", "a long passphrase 42", first_name="Linh")
    ExchangeRate.objects.create(asset="USDT", usd_per_unit=Decimal("1"), source="test", as_of=timezone.now())
    ReceivingAddress.objects.create(network="tron", address="TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", mode="shared")
    order = order_place(
        owner=customer,
        gpu_slug="b200-2x180gb",
        term_days=7,
        lots=2,
        environment="pytorch",
        contact=Contact("Linh", "Nguyễn", "linh@example.com"),
    )
    intent_issue_for_order(order=order, owner=customer, asset="USDT", network="tron")
    client = Client()
    client.force_login(customer)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    page.context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": live_server.url}])
    pages = {
        "catalog": "/",
        "gpu": "/gpus/b200-2x180gb/",
        "estimator": "/estimate/",
        "checkout": "/checkout/?gpu=a100-80gb&term=7&lots=2",
        "order": f"/rentals/{order.ref}/",
        "rentals": "/rentals/",
        "balance": "/balance/",
        "journal": "/journal/",
        "support": "/support/",
        "guide": "/guides/h100-80gb/llm-serving/pilot/",
        "glossary": "/glossary/",
        "help": "/help/",
        "backoffice": "/backoffice/login/",
    }
    folder = ARTIFACTS / "i18n"
    folder.mkdir(parents=True, exist_ok=True)
    problems = []
    for language in LANGUAGES:
        # A signed-in customer's pages follow the account's language (docs/decisions/0160-...).
        django_user_model.objects.filter(pk=customer.pk).update(language=language)
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 900})
            for name, path in pages.items():
                response = page.goto(live_server.url + path)
                assert response is not None, (language, name)
                assert response.ok, (language, name, response.status)
                if name != "backoffice":
                    assert page.evaluate("document.documentElement.lang") == language, (language, name)
                overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
                if overflow > 0:
                    problems.append(f"{name} in {language} at {width} px scrolls sideways by {overflow} px")
                clipped = page.evaluate(CLIPPED)
                if clipped:
                    problems.append(f"{name} in {language} at {width} px cuts button text: {clipped}")
                page.screenshot(path=str(folder / f"{name}-{language}-{width}.png"))
    assert problems == [], "\n".join(problems)

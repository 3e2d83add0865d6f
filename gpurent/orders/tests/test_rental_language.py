"""A rental's page and e-mails in the reader's language (issue 29): the time left once and in words, dates as the
language writes them, not "Time left: 6d 23h left" or "2026-12-05 14:00"."""

from datetime import UTC, datetime
from types import SimpleNamespace
from typing import cast

import pytest
from django.urls import reverse
from django.utils import translation

from gpurent.core.money import Usd
from gpurent.orders.models import Order
from gpurent.orders.notifications import _texts

WHEN = datetime(2026, 12, 5, 14, 0, tzinfo=UTC)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "label", "left"),
    [
        ("en", "Time left:", "2 days and 23 hours"),
        ("es", "Tiempo restante:", "2 días y 23 horas"),
        ("vi", "Thời gian còn lại:", "2 ngày 23 tiếng"),
        ("tr", "Kalan süre:", "2 gün 23 saat"),
    ],
)
def test_the_rental_page_says_the_time_left_once_in_words(client, customer, rental, language, label, left):
    """The server's text is the duration alone after the label; the countdown script replaces it with the same
    words (`data-words`) and no "left" of its own."""
    client.force_login(customer)
    page = client.get(reverse("orders:rental", args=[rental.ref]), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    line = page[page.index('data-testid="term-left"') :]
    line = line[: line.index("</p>")]
    assert f">{label} <time" in line
    assert line.endswith(f'">{left}</time>'), line
    assert "data-words=" in line


def _order() -> Order:
    """The fields the e-mails read, without a database."""
    order = SimpleNamespace(
        ref="R-1",
        lots=1,
        gpu=SimpleNamespace(name="A100 80GB"),
        term_days=7,
        total=Usd(41_000),
        term_ends_at=WHEN,
        reserved_until=WHEN,
        extends=None,
    )
    return cast(Order, order)


@pytest.mark.parametrize(
    ("language", "deadline", "end"),
    [
        ("en", "until 5 Dec 2026, 14:00 UTC.", "until 5 Dec 2026, 14:00 UTC."),
        ("es", "5 dic 2026, 14:00 UTC", "hasta el 5 dic 2026, 14:00 UTC."),
        ("vi", "05/12/2026 14:00 UTC", "05/12/2026 14:00 UTC"),
        ("tr", "5 Ara 2026 14:00 UTC", "5 Ara 2026 14:00 UTC"),
    ],
)
def test_order_emails_write_dates_as_the_recipients_language_does(language, deadline, end):
    with translation.override(language):
        _subject, placed = _texts(_order(), "placed", None)
        _subject, ready = _texts(_order(), "ready", None)
    assert deadline in placed[1]
    assert end in ready[0]
    assert "2026-12-05" not in placed[1] + ready[0]


def test_order_placed_email_tells_the_term_from_the_reservation():
    """ "We reserved 2 lots ... for 7 days" read as a 7-day hold: the term and the reservation's deadline are
    said apart, and when the term starts."""
    with translation.override("en"):
        _subject, placed = _texts(_order(), "placed", None)
    assert placed[0] == "You ordered 1 lot of A100 80GB for a rental term of 7 days. Total: $410.00."
    assert placed[1] == (
        "We keep the lots reserved for you until 5 Dec 2026, 14:00 UTC. Pay before then, or the reservation "
        "lapses and the lots return to stock."
    )
    assert placed[2] == "The term starts when your machine is ready, not when you order or pay."
    assert "reserved" not in placed[0]

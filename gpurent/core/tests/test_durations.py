"""A time left in the reader's words (decision 0442): one text on the server, the same words for the page's script.

Issue 29: the countdown wrote "6d 23h" in every language and the rental page read "Time left: 6d 23h left".
"""

import pytest
from django.template import Context, Template
from django.utils import translation

from gpurent.core.formats import duration_text, duration_words

MINUTE, HOUR, DAY = 60, 3_600, 86_400


@pytest.mark.parametrize(
    ("language", "seconds", "shown"),
    [
        ("en", 6 * DAY + 23 * HOUR + 59, "6 days and 23 hours"),
        ("es", 6 * DAY + 23 * HOUR + 59, "6 días y 23 horas"),
        ("vi", 6 * DAY + 23 * HOUR + 59, "6 ngày 23 tiếng"),
        ("tr", 6 * DAY + 23 * HOUR + 59, "6 gün 23 saat"),
        ("es", DAY + 30 * MINUTE, "1 día"),
        ("es", 2 * HOUR + 5 * MINUTE, "2 horas y 5 minutos"),
        ("es", HOUR + MINUTE, "1 hora y 1 minuto"),
        ("tr", HOUR + 59, "1 saat"),
        ("vi", 29 * MINUTE + 59, "29:59"),
        ("es", 5, "0:05"),
        ("es", 0, ""),
        ("es", -10, ""),
    ],
)
def test_a_time_left_is_written_in_the_readers_words(language, seconds, shown):
    assert duration_text(seconds, language=language) == shown
    with translation.override(language):
        assert duration_text(seconds) == shown


@pytest.mark.parametrize("language", ["en", "es", "vi", "tr"])
def test_the_script_gets_the_words_of_the_server_text(language):
    """payments.js builds its text from `duration_words`: a unit's pattern for the count's plural category, the
    two units joined by "join". Built that way here, it is the server's text."""
    words = duration_words(language)
    one_day = words["day"].get("one", words["day"]["other"]).replace("{0}", "1")
    two_hours = words["hour"]["other"].replace("{0}", "2")
    assert duration_text(DAY, language=language) == one_day
    assert duration_text(DAY + 2 * HOUR, language=language) == (
        words["join"].replace("{larger}", one_day).replace("{smaller}", two_hours)
    )


def test_the_countdown_words_tag_is_json_for_an_attribute():
    with translation.override("es"):
        html = Template('{% load shop %}<time data-words="{% countdown_words %}">').render(Context())
    assert '"join":"{larger} y {smaller}"' in html.replace("&quot;", '"')
    assert '"day":{' in html.replace("&quot;", '"')
    assert 'data-words="{&quot;' in html  # escaped for the attribute

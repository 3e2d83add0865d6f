"""The `sentence_case` filter: a capital first letter as the page's language writes it."""

from django.utils import translation

from gpurent.core.templatetags.shop import sentence_case


def test_turkish_writes_a_dotted_capital_i_and_other_languages_a_plain_one():
    with translation.override("tr"):
        assert sentence_case("istek başına") == "İstek başına"
        assert sentence_case("ıslak") == "Islak"
    with translation.override("en"):
        assert sentence_case("input tokens") == "Input tokens"
    with translation.override("es"):
        assert sentence_case("") == ""
        assert sentence_case("ñandú") == "Ñandú"

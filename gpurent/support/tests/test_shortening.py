"""What the request's page shows of a long text: whole when its HTML fits the budget, else cut on a clean boundary
with its HTML within the budget whatever the characters (decision 0352)."""

import random
import unicodedata

import pytest
from django.template.defaultfilters import linebreaksbr
from django.utils import translation

from gpurent.support.shortening import TEXT_HTML_BUDGET, shown
from gpurent.support.templatetags.support import FINDINGS_LISTED, findings_list, with_markers

MARKER = "[REDACTED: AWS access key]"


def html_bytes(text: str) -> int:
    """The bytes the page sends for a message body (the fields' `<pre>` send fewer: no `<br>`)."""
    return len(str(linebreaksbr(with_markers(text))).encode())


def test_a_text_whose_html_fits_is_shown_whole():
    text = "line\n" * 700  # 3 500 characters, 3 500 + 700 × 3 bytes of HTML: 5 600 > 4 000
    assert shown("hello <world>").cut is False
    assert shown("a" * TEXT_HTML_BUDGET).cut is False
    assert shown("a" * TEXT_HTML_BUDGET).text == "a" * TEXT_HTML_BUDGET
    assert shown("a" * (TEXT_HTML_BUDGET + 1)).cut is True
    assert shown(text).cut is True


def test_a_long_text_is_cut_after_a_line_end_and_says_its_whole_size():
    text = "".join(f"step {n}: loss 0.{n:04d}\n" for n in range(5000))
    result = shown(text)
    assert result.cut
    assert text.startswith(result.text)
    assert text[len(result.text)] == "\n"  # cut at a line end
    assert result.total_bytes == len(text.encode())
    assert result.total_kb == -(-len(text.encode()) // 1000)
    assert html_bytes(result.text) <= TEXT_HTML_BUDGET


def test_a_cut_never_splits_a_marker_or_a_letter_from_its_combining_marks():
    words = " ".join([MARKER] * 400)
    result = shown(words)
    assert result.cut
    assert result.text.endswith(MARKER)
    vietnamese = "Vie\u0302\u0323t" * 2000  # "Việt" written with combining marks, no spaces
    cut = shown(vietnamese)
    assert cut.cut
    assert not unicodedata.combining(vietnamese[len(cut.text)])


@pytest.mark.parametrize(
    "unit",
    [
        '"',
        "'",
        "<",
        "&",
        "\n",
        "\r\n",
        "ữ",  # 3 bytes in UTF-8
        "😀",  # 4 bytes
        MARKER,
        f"{MARKER}'",
        "ab ",
    ],
)
@pytest.mark.parametrize("language", ["en", "vi"])
def test_the_html_of_what_is_shown_fits_the_budget_for_any_character(unit, language):
    """In Vietnamese a marker is shown in longer, multi-byte words ("[ĐÃ XÓA: Khóa truy cập AWS]"): the budget
    counts what the page sends in its language (decision 0444)."""
    text = unit * (100_000 // len(unit.encode()))
    with translation.override(language):
        result = shown(text)
        assert result.cut
        assert html_bytes(result.text + "…") <= TEXT_HTML_BUDGET + len("…".encode())
        assert html_bytes(result.text) > TEXT_HTML_BUDGET // 3  # and not cut needlessly short


def test_random_texts_are_shown_within_the_budget():
    rng = random.Random(352)  # noqa: S311 (a reproducible test input, not a secret)
    alphabet = ["a", " ", "\n", "<", ">", "&", '"', "'", "ữ", "😀", "\u0323", MARKER, "[REDACTED: x"]
    for _ in range(200):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 3000)))
        result = shown(text)
        assert text.startswith(result.text)
        assert html_bytes(result.text) <= TEXT_HTML_BUDGET
        assert result.cut == (result.text != text)


@pytest.mark.parametrize(
    ("language", "shown_marker"),
    [
        ("en", "[REDACTED: AWS access key]"),
        ("es", "[ELIMINADO: Clave de acceso de AWS]"),
        ("vi", "[ĐÃ XÓA: Khóa truy cập AWS]"),
        ("tr", "[KALDIRILDI: AWS erişim anahtarı]"),
    ],
)
def test_a_marker_is_shown_in_the_readers_language_and_stored_in_english(language, shown_marker):
    """Decision 0444: the stored text keeps "[REDACTED: AWS access key]" (operators and the API read it); the page
    shows the marker in the reader's language. A marker of a kind this version does not know stays as stored."""
    with translation.override(language):
        html = str(with_markers(f"key={MARKER} <b> [REDACTED: Retired kind]"))
    retired = '<mark class="redacted">[REDACTED: Retired kind]</mark>'
    assert html == f'key=<mark class="redacted">{shown_marker}</mark> &lt;b&gt; {retired}'


def test_a_notice_lists_five_findings_and_counts_the_rest():
    findings = [{"field": "body", "line": n, "kind": "aws_access_key"} for n in range(1, 4001)]
    sentences = findings_list(findings)
    assert len(sentences) == FINDINGS_LISTED + 1
    assert sentences[0] == "AWS access key on line 1"
    assert sentences[-1] == "and 3995 more, each marked in the text"
    assert len(findings_list(findings[:FINDINGS_LISTED])) == FINDINGS_LISTED

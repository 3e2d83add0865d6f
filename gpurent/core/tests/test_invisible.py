"""Invisible characters: removed from labels, escaped for operators (issue 32, decision 0377)."""

import pytest

from gpurent.core.invisible import invisible_escaped, label_clean

RLO, PDF, LRI, PDI, ZWSP, ZWJ, BOM, SHY, TAG_A = (
    "\u202e",
    "\u202c",
    "\u2066",
    "\u2069",
    "\u200b",
    "\u200d",
    "\ufeff",
    "\xad",
    "\U000e0041",
)


@pytest.mark.parametrize(
    ("typed", "label"),
    [
        (f"{RLO}gpj.exe{PDF}", "gpj.exe"),
        (f"ada{ZWSP}@work", "ada@work"),
        (f"{LRI}laptop{PDI}", "laptop"),
        (f"{BOM}NCCL timeout{SHY}", "NCCL timeout"),
        (f"key{TAG_A}", "key"),
        (f"bf16{ZWJ} vs fp8", "bf16 vs fp8"),
        ("two\nlines\tand\u00a0a no-break space\u2028", "two lines and a no-break space"),
        ("  Zoë  Ñandú  ", "Zoë  Ñandú"),
        (f"{RLO}{ZWSP}\x07 ", ""),
    ],
)
def test_label_clean_keeps_only_what_a_reader_sees(typed, label):
    assert label_clean(typed) == label


def test_label_clean_keeps_every_visible_script():
    for text in ["Nguyễn Văn An", "Çağrı Öztürk", "José Ñúñez", "ユーザー", "مرحبا", "👍 laptop"]:
        assert label_clean(text) == text


def test_invisible_escaped_names_each_character_and_keeps_line_breaks():
    text = f"from {RLO}moc.knab{PDF}\nline two\ttab{ZWSP}\x1b{TAG_A}"
    assert invisible_escaped(text) == "from <U+202E>moc.knab<U+202C>\nline two\ttab<U+200B><U+001B><U+E0041>"
    assert invisible_escaped("plain text, Zoë") == "plain text, Zoë"

"""Redaction: every kind of secret is removed and named, ordinary text is left exactly as it was."""

import pytest

from gpurent.core.redaction import Finding, Kind, marker, redact_fields, redact_text
from gpurent.core.redaction.seed_phrases import find_seed_phrases, is_valid_mnemonic, mnemonic_from_entropy, wordlist
from tests.data.redaction_corpus import clean_texts, secret_samples

SAMPLES = secret_samples(rounds=1)


@pytest.mark.parametrize("sample", SAMPLES, ids=[f"{s.kind.value}-{i}" for i, s in enumerate(SAMPLES)])
def test_redact_text_each_secret_kind_is_removed_and_named(sample):
    result = redact_text(sample.text, field="logs")
    assert sample.secret not in result.text
    assert sample.kind in {finding.kind for finding in result.findings}
    assert marker(sample.kind) in result.text


@pytest.mark.parametrize("name", sorted(clean_texts()))
def test_redact_text_ordinary_text_stays_untouched(name):
    text = clean_texts()[name]
    result = redact_text(text, field="logs")
    assert result.findings == ()
    assert result.text == text


def test_redact_text_reports_field_and_line_of_each_secret():
    key = "AKIA" + "Q3EGUWZKX7YH2M4P"
    text = f"line one\nline two\nexport AWS_ACCESS_KEY_ID={key}\nok\nDB_PASSWORD=Sup3r!secret"
    result = redact_text(text, field="logs")
    assert result.findings == (
        Finding(field="logs", line=3, kind=Kind.AWS_ACCESS_KEY),
        Finding(field="logs", line=5, kind=Kind.PASSWORD),
    )
    assert result.text == (
        "line one\nline two\nexport AWS_ACCESS_KEY_ID=[REDACTED: AWS access key]\nok\nDB_PASSWORD=[REDACTED: Password]"
    )


def test_redact_fields_keeps_fields_apart_and_in_order():
    token = "hf_" + "a1B2c3D4" * 4 + "zz"
    cleaned, findings = redact_fields({"subject": "help", "logs": f"HF_TOKEN={token}", "expected": "it works"})
    assert cleaned == {"subject": "help", "logs": "HF_TOKEN=[REDACTED: Hugging Face token]", "expected": "it works"}
    assert findings == [Finding(field="logs", line=1, kind=Kind.HUGGING_FACE_TOKEN)]


def test_redact_text_overlapping_detections_become_one_marker_named_by_the_provider():
    token = "ghp_" + "xK7pQ2mZ9w" * 3 + "123456"  # (a run of one character would be a placeholder)
    result = redact_text(f"https://bot:{token}@github.com/acme/repo.git", field="logs")
    assert result.text == "https://bot:[REDACTED: GitHub token]@github.com/acme/repo.git"
    assert [finding.kind for finding in result.findings] == [Kind.GITHUB_TOKEN]


def test_redact_text_private_key_without_end_line_removes_the_body():
    body = "\n".join(["MIIEowIBAAKCAQEAx7" + "Q" * 46] * 3)
    result = redact_text(f"-----BEGIN RSA PRIVATE KEY-----\n{body}\nthe rest of my message", field="logs")
    assert result.text == "[REDACTED: Private key]the rest of my message"


@pytest.mark.parametrize(
    "text",
    [
        "password: ********",
        "DB_PASSWORD=${DB_PASSWORD}",
        "api_key = os.environ['API_KEY']",
        "token=None",
        "the password is incorrect",
        "max_new_tokens=512 pad_token_id=0",
        "PWD=/home/ubuntu/project",
        "secret = secrets.token_hex(32)",
        "tx 0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060",
        "send to bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq please",
        "already [REDACTED: Password] here",
    ],
)
def test_redact_text_placeholders_code_and_payment_ids_are_kept(text):
    assert redact_text(text, field="logs").text == text


def test_seed_phrases_wordlist_is_the_bip39_english_list():
    words = wordlist()
    assert (len(words), words[0], words[-1]) == (2048, "abandon", "zoo")


def test_mnemonic_from_entropy_matches_the_bip39_test_vector():
    words = mnemonic_from_entropy(bytes(16))
    assert words == ["abandon"] * 11 + ["about"]
    assert is_valid_mnemonic(words)
    assert not is_valid_mnemonic(["abandon"] * 12)


@pytest.mark.parametrize("length", [12, 15, 18, 21, 24])
def test_find_seed_phrases_finds_every_standard_length(length):
    words = mnemonic_from_entropy(bytes(range(length * 4 // 3)))
    text = "my words: " + " ".join(words) + " thanks"
    assert list(find_seed_phrases(text)) == [(10, len(text) - len(" thanks"))]


def test_find_seed_phrases_accepts_numbered_lists_and_a_wrong_checksum():
    words = [
        "legal",
        "winner",
        "thank",
        "year",
        "wave",
        "sausage",
        "worth",
        "useful",
        "legal",
        "winner",
        "thank",
        "zoo",
    ]
    assert not is_valid_mnemonic(words)
    numbered = "\n".join(f"{number}) {word}" for number, word in enumerate(words, 1))
    assert redact_text(numbered, field="logs").text == "1) [REDACTED: Wallet seed phrase]"


def test_find_seed_phrases_ignores_shorter_runs_and_glued_words():
    words = mnemonic_from_entropy(bytes(16))
    assert list(find_seed_phrases(" ".join(words[:11]))) == []
    assert list(find_seed_phrases("_".join(words))) == []

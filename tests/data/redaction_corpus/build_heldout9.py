"""Build the NINTH held-out part of the redaction corpus (`heldout9/*.jsonl`): support requests, pasted files,
shell history, notebooks and logs of customers renting GPUs, in English, Spanish, Vietnamese and Turkish, with
the secrets they paste by mistake and many clean look-alikes.

Written (issue 32) by an engineer who did not read the patterns (`gpurent/core/redaction/`), the tuning parts,
the other held-out parts' texts, `docs/redaction.md` nor the redactor's tests, and never ran the redactor or the
bench on these texts (decision 0392). Fake values come from this part's own seeded generator (`heldout9_gen`).

Texts with secrets: AWS key pairs with nothing between id and secret (`heldout9_pairs`), seed phrases in ten
BIP-39 lists (`heldout9_pairs`), credentials of GPU users' files and commands (`heldout9_creds`,
`heldout9_creds2`). Clean look-alikes: hashes, ids and GPU logs (`heldout9_clean`), wallets, public keys,
placeholders, masks, references and documented examples (`heldout9_clean2`), prose and word lists full of
BIP-39 words (`heldout9_clean3`), vocabularies, fingerprints and dataset lines (`heldout9_clean4`).

Run once: `.venv/bin/python -m tests.data.redaction_corpus.build_heldout9`; the output is committed.
The build checks itself: `checks.check_and_write`, and no clean text holds a valid BIP-39 phrase.
"""

from __future__ import annotations

from pathlib import Path

from . import (
    heldout9_clean,
    heldout9_clean2,
    heldout9_clean3,
    heldout9_clean4,
    heldout9_creds,
    heldout9_creds2,
    heldout9_pairs,
)
from .checks import check_and_write
from .heldout9_gen import Gen, assert_no_phrase

OUT = Path(__file__).resolve().parent / "heldout9"
SEED = 9_0392_2027

POSITIVES = (
    heldout9_pairs.aws_pairs,
    heldout9_pairs.seed_phrases,
    heldout9_creds.hubs_and_trackers,
    heldout9_creds.llm_keys,
    heldout9_creds.notebooks_and_tunnels,
    heldout9_creds2.clouds,
    heldout9_creds2.databases_and_flags,
    heldout9_creds2.keys_and_chat,
    heldout9_creds2.whole_files,
)
NEGATIVES = (
    heldout9_clean.hashes_and_logs,
    heldout9_clean.ids_and_accounts,
    heldout9_clean2.wallets,
    heldout9_clean2.public_keys,
    heldout9_clean2.placeholders_and_masks,
    heldout9_clean2.blobs_and_examples,
    heldout9_clean3.prose,
    heldout9_clean3.word_lists,
    heldout9_clean3.talk_about_secrets,
    heldout9_clean4.misc,
    heldout9_clean4.more_outputs,
)


def build() -> tuple[list[tuple[str, list[str]]], list[str]]:
    gen = Gen(SEED)
    positives = [sample for family in POSITIVES for sample in family(gen)]
    negatives = [text for family in NEGATIVES for text in family(gen)]
    for text in negatives:
        assert_no_phrase(text)
    return positives, negatives


def main() -> None:
    positives, negatives = build()
    check_and_write(OUT, "h9", positives, negatives)


if __name__ == "__main__":
    main()

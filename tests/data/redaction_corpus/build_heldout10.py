"""Build the TENTH held-out part of the redaction corpus (`heldout10/*.jsonl`): what customers of a GPU rental
paste into a support request or an experiment journal, in English, Spanish, Vietnamese and Turkish.

Written (issue 32) by an engineer who did not read the patterns (`gpurent/core/redaction/`), the tuning parts,
the other held-out parts' texts or builders (except `build_heldout4.py` for the script's shape), nor any test
of the redactor, and who never ran the redactor or the bench on these texts; choices in
docs/decisions/0396-held-out-10-corpus-choices.md. Values come from this part's own seeded generator
(`heldout10_gen.Gen`): AWS key pairs pasted together, BIP-39 seed phrases in ten lists, credentials of GPU users'
tools; the clean texts are the look-alikes the same pastes hold.

Run once: `.venv/bin/python -m tests.data.redaction_corpus.build_heldout10`; the output is committed.
The build checks itself (`checks.check_and_write`, and `heldout10_gen.assert_no_phrase` on the clean texts).
"""

from __future__ import annotations

from pathlib import Path

from .checks import check_and_write
from .heldout10_clean import hashes_and_ids, logs
from .heldout10_clean2 import blobs, configs, keys_and_certs, placeholders_and_masks, wallets
from .heldout10_creds import gpu_clouds_and_tunnels, hubs_and_trackers, llm_apis, registries_and_code
from .heldout10_creds2 import clouds_and_storage, keys_bots_and_env, netrc_and_databases
from .heldout10_gen import Gen, assert_no_phrase
from .heldout10_pairs import aws_pairs, seeds
from .heldout10_prose import mixed, prose, talk, word_lists

OUT = Path(__file__).resolve().parent / "heldout10"
SEED = 10_2027_0396

POSITIVE_FAMILIES = (
    aws_pairs,
    seeds,
    hubs_and_trackers,
    llm_apis,
    registries_and_code,
    gpu_clouds_and_tunnels,
    clouds_and_storage,
    netrc_and_databases,
    keys_bots_and_env,
)
CLEAN_FAMILIES = (
    hashes_and_ids,
    logs,
    wallets,
    keys_and_certs,
    placeholders_and_masks,
    blobs,
    configs,
    prose,
    talk,
    word_lists,
    mixed,
)


def build() -> tuple[list[tuple[str, list[str]]], list[str], dict[str, int]]:
    gen = Gen(SEED)
    positives: list[tuple[str, list[str]]] = []
    negatives: list[str] = []
    counts: dict[str, int] = {}
    for family in POSITIVE_FAMILIES:
        samples = family(gen)
        counts[family.__name__] = len(samples)
        positives += samples
    for clean in CLEAN_FAMILIES:
        texts = clean(gen)
        counts["clean:" + clean.__name__] = len(texts)
        negatives += texts
    return positives, negatives, counts


def main() -> None:
    positives, negatives, counts = build()
    assert_no_phrase(negatives)
    check_and_write(OUT, "h10", positives, negatives)
    for name, count in counts.items():
        print(f"  {name}: {count}")


if __name__ == "__main__":
    main()

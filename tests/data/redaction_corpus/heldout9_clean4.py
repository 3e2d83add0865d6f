# ruff: noqa: E501  (one realistic sample per line reads better than wrapped ones)
"""Held-out 9, clean look-alikes (4 of 4): tokenizer vocabularies, hyperparameters, ids and fingerprints tools
print for everyone, and translation-dataset lines in other languages.
"""

from __future__ import annotations

from .heldout9_clean import LANG4, ask
from .heldout9_clean3 import _safe, _words
from .heldout9_gen import Gen
from .heldout9_pairs import _hi


def misc(g: Gen) -> list[str]:
    out: list[str] = []
    for k in range(4):
        lang = LANG4[k % 4]
        vocab = ", ".join(f"'{w}': {g.n(100, 50000)}" for w in g.rng.sample(_words("en"), 10))

        def vocab_slice(vocab: str = vocab, lang: str = lang) -> str:
            return f"{_hi(g, lang)}tokenizer.get_vocab() slice:\n{{{vocab}}}\n{ask(g, lang)}"

        out.append(_safe(vocab_slice))
    hyper = [
        "learning_rate: 2.0e-4\nlora_r: 16\nlora_alpha: 32\nwarmup_ratio: 0.03\nseed: 42\nmax_seq_len: 4096",
        "--per_device_train_batch_size 4 --gradient_accumulation_steps 8 --bf16 --save_total_limit 3 --report_to wandb",
        "model: mistralai/Mistral-7B-v0.3\ndataset: tatsu-lab/alpaca\nepochs: 3\noptimizer: adamw_torch_fused\nscheduler: cosine",
    ]
    for k, h in enumerate(hyper):
        lang = LANG4[(k + 1) % 4]
        out.append(f"{_hi(g, lang)}{h}\n{ask(g, lang)}")
    return out


def more_outputs(g: Gen) -> list[str]:
    """Ids and fingerprints tools print for everyone, and dataset lines in other languages."""
    out: list[str] = []
    for k in range(3):
        lang = LANG4[k % 4]
        out.append(
            f'{_hi(g, lang)}$ gpg --verify cuda-keyring.deb.asc\ngpg: Signature made Mon 08 Mar 2027 10:11:12 AM UTC\ngpg:                using RSA key {g.hex(40).upper()}\ngpg: Good signature from "cudatools <cudatools@nvidia.com>"\n{ask(g, lang)}'
        )
    for k in range(3):
        lang = LANG4[(k + 1) % 4]
        out.append(
            f"{_hi(g, lang)}$ ssh -p 22022 root@{g.ip()}\nThe authenticity of host '[{g.ip()}]:22022' can't be established.\nED25519 key fingerprint is SHA256:{g.b64(32).rstrip('=')}.\nAre you sure you want to continue connecting (yes/no/[fingerprint])?\n{ask(g, lang)}"
        )
    for k in range(3):
        lang = LANG4[(k + 2) % 4]
        cid = g.hex(64)
        out.append(
            f'{_hi(g, lang)}$ docker ps --no-trunc\nCONTAINER ID   IMAGE   COMMAND   STATUS\n{cid}   vllm/vllm-openai:v0.6.1   "python3 -m vllm.entrypoints.openai.api_server"   Restarting (1) 5 seconds ago\n$ cat /etc/machine-id\n{g.hex(32)}\n{ask(g, lang)}'
        )
    for k in range(3):
        lang = LANG4[(k + 3) % 4]
        out.append(
            f"{_hi(g, lang)}Dataset mirror: magnet:?xt=urn:btih:{g.hex(40)}&dn=laion-subset-{k}\nIPFS: bafybei{g.pick('abcdefghijklmnopqrstuvwxyz234567', 52)}\n{ask(g, lang)}"
        )
    pairs = [
        (
            "fr",
            '{"src": "The weather is cold and the river is frozen.", "tgt": "Le temps est froid et la rivière est gelée."}',
        ),
        (
            "it",
            '{"src": "The cat sleeps on the chair near the window.", "tgt": "Il gatto dorme sulla sedia vicino alla finestra."}',
        ),
        (
            "pt",
            '{"src": "We need fresh bread, cheese and honey for the trip.", "tgt": "Precisamos de pão fresco, queijo e mel para a viagem."}',
        ),
        (
            "cs",
            '{"src": "The train leaves the station at seven in the morning.", "tgt": "Vlak odjíždí z nádraží v sedm ráno."}',
        ),
        (
            "es",
            '{"src": "The island has a small port, a market and an old castle.", "tgt": "La isla tiene un pequeño puerto, un mercado y un castillo antiguo."}',
        ),
        ("ko", '{"src": "I drink coffee every morning.", "tgt": "나는 매일 아침 커피를 마신다."}'),
    ]
    for k, (lang, line) in enumerate(pairs):
        hello = LANG4[k % 4]
        out.append(
            f"{_hi(g, hello)}first lines of our {lang} translation dataset (train.jsonl); the fine-tune of the MT model diverges:\n{line}\n{ask(g, hello)}"
        )
    for k in range(4):
        lang = LANG4[k % 4]
        out.append(
            f"{_hi(g, lang)}$ nvcc --version\nnvcc: NVIDIA (R) Cuda compiler driver\nCuda compilation tools, release 12.4, V12.4.131\nBuild cuda_12.4.r12.4/compiler.{g.n(30000000, 39999999)}_0\n$ python -c 'import torch; print(torch.__version__, torch.version.git_version)'\n2.4.1+cu124 {g.hex(40)}\n{ask(g, lang)}"
        )
    return out

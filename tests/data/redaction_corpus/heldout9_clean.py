# ruff: noqa: E501  (one realistic sample per line reads better than wrapped ones)
"""Held-out 9, clean look-alikes (1 of 4): hashes, digests, commit ids, revisions, ids and GPU logs.

Nothing here is a secret: every long hex or base64 value is a digest, an id or a revision that the tools print
for everyone, so a redactor must leave these texts exactly as they are.
"""

from __future__ import annotations

from .heldout9_gen import ALNUM, DIGITS, LOWER, UPPER, URLSAFE, Gen
from .heldout9_pairs import _hi

ASK = {
    "en": [
        "Any idea what is wrong?",
        "Is this a problem on your side?",
        "Can you have a look?",
        "Thanks in advance.",
        "It worked yesterday.",
    ],
    "es": [
        "¿Alguna idea?",
        "¿Es un problema de vuestra parte?",
        "Gracias de antemano.",
        "Ayer funcionaba.",
        "¿Me podéis ayudar?",
    ],
    "vi": [
        "Anh chị xem giúp em với ạ.",
        "Lỗi này do đâu vậy ạ?",
        "Cảm ơn nhiều.",
        "Hôm qua vẫn chạy bình thường.",
        "Có cách nào khắc phục không?",
    ],
    "tr": [
        "Sorun nedir acaba?",
        "Sizin tarafta bir sorun mu var?",
        "Şimdiden teşekkürler.",
        "Dün çalışıyordu.",
        "Yardımcı olabilir misiniz?",
    ],
}
LANG4 = ("en", "es", "vi", "tr")


def ask(g: Gen, lang: str) -> str:
    return g.choice(ASK[lang])


def hashes_and_logs(g: Gen) -> list[str]:
    out: list[str] = []
    pkgs = [
        ("torch", "2.4.1"),
        ("numpy", "1.26.4"),
        ("transformers", "4.44.2"),
        ("triton", "3.0.0"),
        ("safetensors", "0.4.5"),
        ("xformers", "0.0.28"),
    ]
    for k in range(6):
        lang = LANG4[k % 4]
        lines = "\n".join(
            f"{p}=={v} \\\n    --hash=sha256:{g.sha256()} \\\n    --hash=sha256:{g.sha256()}"
            for p, v in g.rng.sample(pkgs, 3)
        )
        out.append(
            f"{_hi(g, lang)}requirements.lock (pip-compile --generate-hashes):\n{lines}\n\nERROR: THESE PACKAGES DO NOT MATCH THE HASHES FROM THE REQUIREMENTS FILE.\n{ask(g, lang)}"
        )
    for k in range(4):
        lang = LANG4[(k + 1) % 4]
        rows = "\n".join(
            f"https://conda.anaconda.org/conda-forge/linux-64/{n}#{g.hex(32)}"
            for n in (
                "cudatoolkit-11.8.0-h4ba93d1_13.conda",
                "libcublas-12.4.5.8-0.tar.bz2",
                "python-3.11.9-hb806964_0_cpython.conda",
                "nccl-2.21.5.1-h6103f9b_0.conda",
            )
        )
        out.append(
            f"{_hi(g, lang)}conda list --explicit --md5\n# platform: linux-64\n@EXPLICIT\n{rows}\n\nThe env solves on my laptop but not on the rental. {ask(g, lang)}"
        )
    for k in range(6):
        lang = LANG4[k % 4]
        layers = "\n".join(f"{g.hex(12)}: Pull complete" for _ in range(g.n(3, 5)))
        image = g.choice(
            [
                "nvcr.io/nvidia/pytorch:24.07-py3",
                "vllm/vllm-openai:v0.6.1",
                "pytorch/pytorch:2.4.0-cuda12.1-cudnn9-devel",
                "ghcr.io/huggingface/text-generation-inference:2.2",
            ]
        )
        out.append(
            f"{_hi(g, lang)}$ docker pull {image}\n{layers}\nDigest: sha256:{g.sha256()}\nStatus: Downloaded newer image for {image}\n$ docker images --digests | head -2\nREPOSITORY   TAG   DIGEST   IMAGE ID\n{image.split(':')[0]}   {image.split(':')[1]}   sha256:{g.sha256()}   {g.hex(12)}\n{ask(g, lang)}"
        )
    for k in range(6):
        lang = LANG4[(k + 2) % 4]
        commits = "\n".join(
            f"commit {g.hex(40)}\nAuthor: {g.choice(['Ana Ruiz', 'Minh Tran', 'Elif Kaya', 'Sam Lee'])} <dev@lab.example>\nDate:   Tue Mar 9 1{k}:0{k}:11 2027 +0100\n\n    {g.choice(['fix fp16 overflow in attention', 'bump flash-attn', 'add lora dropout', 'shard dataset by host'])}\n"
            for _ in range(2)
        )
        out.append(
            f"{_hi(g, lang)}git log -2 on the instance:\n\n{commits}\nThe second commit introduced the NaN loss. {ask(g, lang)}"
        )
    for k in range(6):
        lang = LANG4[(k + 3) % 4]
        rev = g.hex(40)
        model = g.choice(
            [
                "meta-llama/Llama-3.1-8B-Instruct",
                "mistralai/Mistral-7B-v0.3",
                "Qwen/Qwen2.5-32B-Instruct",
                "stabilityai/stable-diffusion-xl-base-1.0",
                "openai/whisper-large-v3",
            ]
        )
        out.append(
            f"{_hi(g, lang)}huggingface-cli download {model} --revision {rev} --local-dir /workspace/model\nFetching 17 files: 100%|██████████| 17/17\n/root/.cache/huggingface/hub/models--{model.replace('/', '--')}/snapshots/{rev}/config.json\nblobs/{g.sha256()}\n{ask(g, lang)}"
        )
    for k in range(6):
        lang = LANG4[k % 4]
        gpus = "\n".join(f"GPU {i}: NVIDIA H100 80GB HBM3 (UUID: GPU-{g.uuid()})" for i in range(g.n(2, 4)))
        out.append(
            f"{_hi(g, lang)}nvidia-smi -L\n{gpus}\nnvidia-smi -q | grep -i serial\n    Serial Number                         : 1{g.pick(DIGITS, 12)}\n{ask(g, lang)}"
        )
    for k in range(6):
        lang = LANG4[(k + 1) % 4]
        comm, uniq = g.hex(16), g.hex(12)
        out.append(
            f"{_hi(g, lang)}NCCL log with NCCL_DEBUG=INFO:\nnode-{k}:2211:2211 [0] NCCL INFO Bootstrap : Using eth0:{g.ip()}<0>\nnode-{k}:2211:2211 [0] NCCL INFO cudaDriverVersion 12040\nnode-{k}:2211:2290 [0] NCCL INFO comm 0x{g.hex(12)} rank 0 nranks 8 cudaDev 0 nvmlDev 0 busId 18000 commId 0x{comm} - Init START\nnode-{k}:2211:2290 [0] NCCL INFO Channel 00/24 :    0   1   2   3   4   5   6   7\nnode-{k}:2211:2290 [0] NCCL INFO comm 0x{g.hex(12)} rank 0 nranks 8 cudaDev 0 busId 18000 commId 0x{comm} localSize 8 uniqueId {uniq} - Init COMPLETE\nnode-{k}:2211:2295 [0] NCCL WARN NET/Socket : peer {g.ip()}<{g.n(30000, 60000)}> shutdown\n{ask(g, lang)}"
        )
    for k in range(6):
        lang = LANG4[(k + 2) % 4]
        out.append(
            f'{_hi(g, lang)}Traceback (most recent call last):\n  File "/workspace/train.py", line {g.n(40, 400)}, in <module>\n    loss.backward()\n  File "/usr/local/lib/python3.11/site-packages/torch/_tensor.py", line 521, in backward\n    torch.autograd.backward(\nRuntimeError: CUDA error: an illegal memory access was encountered\nCompile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n[rank{k}]:[E{g.pick(DIGITS, 4)} {g.time()}.{g.pick(DIGITS, 6)} {g.n(1000, 9999)} ProcessGroupNCCL.cpp:1515] [PG 0 Rank {k}] Process group watchdog thread terminated with exception: CUDA error: an illegal memory access was encountered\nException raised from c10_cuda_check_implementation at ../c10/cuda/CUDAException.cpp:43 (most recent call first):\nframe #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x96 (0x7f{g.hex(10)} in /usr/local/lib/python3.11/site-packages/torch/lib/libc10.so)\n{ask(g, lang)}'
        )
    for k in range(6):
        lang = LANG4[(k + 3) % 4]
        files = "\n".join(f"{g.sha256()}  model-0000{i}-of-00004.safetensors" for i in range(1, 5))
        out.append(
            f"{_hi(g, lang)}sha256sum -c SHA256SUMS\n{files}\nmodel-00003-of-00004.safetensors: FAILED\nsha256sum: WARNING: 1 computed checksum did NOT match\nThe download from your mirror looks corrupted. {ask(g, lang)}"
        )
    for k in range(8):
        lang = LANG4[k % 4]
        kind = k % 4
        if kind == 0:
            body = f"HTTP/1.1 503 Service Unavailable\nx-request-id: {g.uuid()}\ntraceparent: 00-{g.hex(32)}-{g.hex(16)}-01\ncf-ray: {g.hex(16)}-FRA"
        elif kind == 1:
            body = f"An error occurred (SlowDown) when calling the PutObject operation (reached max retries: 4): Please reduce your request rate.\nx-amz-request-id: {g.pick(UPPER + DIGITS, 16)}\nx-amz-id-2: {g.b64(57)}"
        elif kind == 2:
            body = f"Events:\n  Type     Reason     Age   From     Message\n  Warning  Failed     12s   kubelet  Failed to pull image: rpc error: code = Unknown desc = failed to resolve reference\npod uid: {g.uuid()}\ncontainerID: containerd://{g.sha256()}"
        else:
            body = f'{{"error": {{"message": "The server had an error while processing your request.", "type": "server_error"}}, "request_id": "req_{g.hex(32)}"}}\nx-trace-id: {g.hex(32)}'
        out.append(f"{_hi(g, lang)}{body}\n{ask(g, lang)}")
    for k in range(5):
        lang = LANG4[(k + 1) % 4]
        run = g.pick(LOWER + DIGITS, 8)
        out.append(
            f'{_hi(g, lang)}wandb: Currently logged in as: {g.choice(["minh-tran", "ana-ruiz", "elifk"])} (acme-ml). Use `wandb login --relogin` to force relogin\nwandb: Tracking run with wandb version 0.18.1\nwandb: Run data is saved locally in /workspace/wandb/run-2027031{k}_101522-{run}\nwandb: 🚀 View run at https://wandb.ai/acme-ml/llm-ft/runs/{run}\nwandb-metadata.json: "git": {{"remote": "https://github.com/acme-ml/llm-ft.git", "commit": "{g.hex(40)}"}}\n{ask(g, lang)}'
        )
    for k in range(4):
        lang = LANG4[(k + 2) % 4]
        out.append(
            f"{_hi(g, lang)}mlflow runs list --experiment-id {g.n(1, 40)}\nDate                     Name          ID\n{g.date()} {g.time()}  bold-owl-{k}  {g.hex(32)}\n{g.date()} {g.time()}  calm-fox-{k}  {g.hex(32)}\nmlflow artifacts download -r {g.hex(32)} -d out/ -> 404\n{ask(g, lang)}"
        )
    for k in range(6):
        lang = LANG4[k % 4]
        digest = g.sha256()
        cell = g.choice(
            [
                f"In [7]: hashlib.sha256(open('ckpt.pt','rb').read()).hexdigest()\nOut[7]: '{digest}'",
                f"In [3]: torch.cuda.get_device_properties(0)\nOut[3]: _CudaDeviceProperties(name='NVIDIA A100-SXM4-80GB', major=8, minor=0, total_memory=81050MB, multi_processor_count=108, uuid={g.uuid()}, L2_cache_size=40MB)",
                f"In [12]: tokenizer.init_kwargs['name_or_path'], model.config._commit_hash\nOut[12]: ('google/gemma-2-9b', '{g.hex(40)}')",
                f"In [5]: uuid.uuid4().hex, os.getpid()\nOut[5]: ('{g.hex(32)}', {g.n(1000, 99999)})",
            ]
        )
        out.append(f"{_hi(g, lang)}{cell}\n{ask(g, lang)}")
    for k in range(4):
        lang = LANG4[(k + 3) % 4]
        out.append(
            f"{_hi(g, lang)}git lfs pointer instead of the weights:\n$ cat model.safetensors\nversion https://git-lfs.github.com/spec/v1\noid sha256:{g.sha256()}\nsize {g.n(1_000_000_000, 9_999_999_999)}\n{ask(g, lang)}"
        )
    for k in range(6):
        lang = LANG4[k % 4]
        kind = k % 3
        if kind == 0:
            body = f'package-lock.json:\n"node_modules/onnxruntime-web": {{\n  "version": "1.19.2",\n  "resolved": "https://registry.npmjs.org/onnxruntime-web/-/onnxruntime-web-1.19.2.tgz",\n  "integrity": "sha512-{g.b64(64)}"\n}}'
        elif kind == 1:
            body = f"go.sum:\ngithub.com/NVIDIA/go-nvml v0.12.4-0 h1:{g.b64(32)}\ngithub.com/NVIDIA/go-nvml v0.12.4-0/go.mod h1:{g.b64(32)}"
        else:
            body = f'.terraform.lock.hcl:\nprovider "registry.terraform.io/hashicorp/aws" {{\n  version = "5.66.0"\n  hashes = [\n    "h1:{g.b64(32)}",\n    "zh:{g.sha256()}",\n    "zh:{g.sha256()}",\n  ]\n}}'
        out.append(f"{_hi(g, lang)}{body}\n{ask(g, lang)}")
    for k in range(4):
        lang = LANG4[(k + 1) % 4]
        out.append(
            f'{_hi(g, lang)}$ ssh-keygen -t ed25519 -C "laptop"\nYour identification has been saved in /home/u/.ssh/id_ed25519\nYour public key has been saved in /home/u/.ssh/id_ed25519.pub\nThe key fingerprint is:\nSHA256:{g.b64(32).rstrip("=")} laptop\nThe key\'s randomart image is:\n+--[ED25519 256]--+\n|    .o+=*B=.     |\n|     oo*=+o      |\n+----[SHA256]-----+\n{ask(g, lang)}'
        )
    for k in range(5):
        lang = LANG4[(k + 2) % 4]
        out.append(
            f'{_hi(g, lang)}The API answered but with a weird finish_reason:\n{{"id": "chatcmpl-{g.pick(ALNUM, 29)}", "object": "chat.completion", "created": 1{g.pick(DIGITS, 9)}, "model": "Qwen2.5-14B-Instruct", "system_fingerprint": "fp_{g.hex(10)}", "choices": [{{"index": 0, "finish_reason": "length"}}]}}\n{ask(g, lang)}'
        )
    for k in range(3):
        lang = LANG4[k % 4]
        name = g.choice(["resnet50", "vit_b_16", "convnext_tiny"])
        out.append(
            f'{_hi(g, lang)}Downloading: "https://download.pytorch.org/models/{name}-{g.hex(8)}.pth" to /root/.cache/torch/hub/checkpoints/{name}-{g.hex(8)}.pth\nRuntimeError: invalid hash value (expected "{g.hex(8)}", got "{g.sha256()}")\n{ask(g, lang)}'
        )
    for k in range(4):
        lang = LANG4[(k + 3) % 4]
        out.append(
            f'{_hi(g, lang)}aws s3api head-object --bucket public-datasets --key laion/part-{k:05d}.parquet\n{{\n    "AcceptRanges": "bytes",\n    "ContentLength": {g.n(10**8, 10**9)},\n    "ETag": "\\"{g.hex(32)}-{g.n(10, 90)}\\"",\n    "VersionId": "{g.pick(URLSAFE + ".", 32)}",\n    "ChecksumSHA256": "{g.b64(32)}"\n}}\n{ask(g, lang)}'
        )
    return out


def ids_and_accounts(g: Gen) -> list[str]:
    out: list[str] = []
    for k in range(3):
        lang = LANG4[k % 4]
        out.append(
            f'{_hi(g, lang)}$ aws sts get-caller-identity\n{{\n    "UserId": "AIDA{g.pick(UPPER + "234567", 17)}",\n    "Account": "{g.pick(DIGITS, 12)}",\n    "Arn": "arn:aws:iam::{g.pick(DIGITS, 12)}:user/trainer"\n}}\n{ask(g, lang)}'
        )
    for k in range(4):
        lang = LANG4[(k + 1) % 4]
        out.append(
            f"{_hi(g, lang)}Invoice {g.pick(UPPER, 3)}-{g.pick(DIGITS, 6)}, order {g.uuid()}, payment intent pi_{g.pick(ALNUM, 24)} — charged twice. {ask(g, lang)}"
        )
    for k in range(4):
        lang = LANG4[(k + 2) % 4]
        out.append(
            f"{_hi(g, lang)}Instance id {g.hex(24)} (rental #{g.n(10000, 99999)}), volume vol-{g.hex(17)}, snapshot snap-{g.hex(17)}. The volume is not attached after restart. {ask(g, lang)}"
        )
    for k in range(3):
        lang = LANG4[(k + 3) % 4]
        out.append(
            f"{_hi(g, lang)}Slurm: sacct -j {g.n(100000, 999999)} --format=JobID,State,ExitCode\n{g.n(100000, 999999)}.batch FAILED 1:0\ncheckpoint dir /scratch/{g.hex(16)}/step-{g.n(100, 9999)}\n{ask(g, lang)}"
        )
    return out

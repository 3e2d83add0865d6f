# ruff: noqa: E501  (one realistic sample per line reads better than wrapped ones)
"""Held-out 10, clean look-alikes (0396): hashes, digests, commit ids, model revisions, UUIDs, request ids, and
the CUDA/NCCL logs, tracebacks, pip and Jupyter output customers paste. None of them holds a secret."""

from __future__ import annotations

import base64

from .heldout10_gen import Gen
from .heldout10_text import date, host, wrap

MODELS = [
    "meta-llama/Llama-3.1-8B-Instruct",
    "mistralai/Mistral-7B-v0.3",
    "Qwen/Qwen2.5-14B-Instruct",
    "openai/whisper-large-v3",
    "stabilityai/stable-diffusion-xl-base-1.0",
    "google/gemma-2-9b-it",
    "black-forest-labs/FLUX.1-schnell",
]
PKGS = [
    "torch==2.5.1",
    "transformers==4.46.3",
    "accelerate==1.1.1",
    "flash-attn==2.7.0.post2",
    "bitsandbytes==0.44.1",
    "peft==0.13.2",
    "deepspeed==0.15.4",
    "xformers==0.0.28.post3",
    "vllm==0.6.4",
]


def hashes_and_ids(g: Gen) -> list[str]:
    out: list[str] = []
    for _ in range(4):
        lines = "\n".join(f"{p} \\\n    --hash=sha256:{g.hex(64)}" for p in g.rng.sample(PKGS, 3))
        out.append(wrap(g, f"# requirements.lock\n{lines}"))
    for _ in range(3):
        pkg = g.choice(PKGS).split("==")[0]
        out.append(
            wrap(
                g,
                f"ERROR: THESE PACKAGES DO NOT MATCH THE HASHES FROM THE REQUIREMENTS FILE.\n    {pkg} from https://files.pythonhosted.org/packages/{g.hex(2)}/{g.hex(2)}/{g.hex(60)}/{pkg}-1.0-py3-none-any.whl:\n        Expected sha256 {g.hex(64)}\n             Got        {g.hex(64)}",
            )
        )
    for _ in range(4):
        image = g.choice(
            [
                "nvcr.io/nvidia/pytorch:24.10-py3",
                "vllm/vllm-openai:v0.6.4",
                "pytorch/pytorch:2.5.1-cuda12.4-cudnn9-devel",
                "ghcr.io/huggingface/text-generation-inference:2.4",
            ]
        )
        out.append(
            wrap(
                g,
                f"$ docker pull {image}\n{image.split(':')[1]}: Pulling from {image.split(':')[0]}\n{g.hex(12)}: Already exists\n{g.hex(12)}: Pull complete\nDigest: sha256:{g.hex(64)}\nStatus: Downloaded newer image for {image}",
            )
        )
    out.append(
        wrap(
            g,
            "REPOSITORY                 TAG        DIGEST                                                                    IMAGE ID       SIZE\n"
            + "\n".join(
                f"{r:<26} {t:<10} sha256:{g.hex(64)}   {g.hex(12)}   {g.num(5, 22)}.{g.num(1, 9)}GB"
                for r, t in (("vllm/vllm-openai", "latest"), ("nvcr.io/nvidia/pytorch", "24.10-py3"))
            ),
            "en",
        )
    )
    for _ in range(4):
        log = "\n".join(
            f"{g.hex(7)} {msg}"
            for msg in g.rng.sample(
                [
                    "fix lr warmup for bf16",
                    "add lora targets for qwen",
                    "bump transformers",
                    "eval: log per-language wer",
                    "data: drop empty transcripts",
                    "revert flash-attn 2.7",
                    "save optimizer state every 500 steps",
                ],
                4,
            )
        )
        out.append(wrap(g, f"$ git log --oneline -4\n{log}\n$ git rev-parse HEAD\n{g.hex(40)}"))
    out.append(
        f"pip install git+https://github.com/huggingface/transformers.git@{g.hex(40)} fixed the rope scaling error, thanks for the hint!"
    )
    out.append(
        wrap(g, f'pip install "flash-attn @ git+https://github.com/Dao-AILab/flash-attention@{g.hex(40)}"', "tr")
    )
    for _ in range(5):
        model = g.choice(MODELS)
        rev = g.hex(40)
        out.append(
            wrap(
                g,
                f"/root/.cache/huggingface/hub/models--{model.replace('/', '--')}/snapshots/{rev}/config.json\n/root/.cache/huggingface/hub/models--{model.replace('/', '--')}/blobs/{g.hex(64)}\nrefs/main -> {rev}",
            )
        )
    for _ in range(3):
        out.append(
            wrap(
                g,
                f'model = AutoModelForCausalLM.from_pretrained("{g.choice(MODELS)}", revision="{g.hex(40)}", device_map="auto")',
            )
        )
    for _ in range(5):
        gpus = "\n".join(f"GPU {i}: NVIDIA H100 80GB HBM3 (UUID: GPU-{g.uuid()})" for i in range(g.num(1, 4)))
        out.append(wrap(g, f"$ nvidia-smi -L\n{gpus}"))
    out.append(
        wrap(
            g,
            f"$ nvidia-smi -L\nGPU 0: NVIDIA A100-SXM4-80GB (UUID: GPU-{g.uuid()})\n  MIG 3g.40gb     Device  0: (UUID: MIG-{g.uuid()})\n  MIG 3g.40gb     Device  1: (UUID: MIG-{g.uuid()})",
            "es",
        )
    )
    for _ in range(3):
        out.append(
            wrap(
                g,
                f"openai.APIStatusError: Error code: 500 - {{'error': {{'message': 'The server had an error while processing your request. Sorry about that!', 'type': 'server_error'}}}}\nrequest id: req_{g.hex(32)}",
            )
        )
    for _ in range(3):
        out.append(
            wrap(
                g,
                f"botocore.exceptions.ClientError: An error occurred (SlowDown) when calling the PutObject operation\nx-amz-request-id: {g.pick('ABCDEF0123456789', 16)}\nx-amz-id-2: {base64.b64encode(g.raw(56)).decode()}",
            )
        )
    out.append(
        wrap(
            g,
            f"anthropic.InternalServerError: Error code: 529 - {{'type': 'error', 'error': {{'type': 'overloaded_error', 'message': 'Overloaded'}}, 'request_id': 'req_011C{g.pick('ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz123456789', 20)}'}}",
            "vi",
        )
    )
    out.append(wrap(g, f"HTTP/2 502\ncf-ray: {g.hex(16)}-FRA\nserver: cloudflare", "tr"))
    for _ in range(3):
        run = g.pick("abcdefghijklmnopqrstuvwxyz0123456789", 8)
        out.append(
            wrap(
                g,
                f"wandb: Tracking run with wandb version 0.18.7\nwandb: Run data is saved locally in /workspace/wandb/run-20270311_101522-{run}\nwandb: Syncing run earthy-sun-{g.num(10, 400)}\nwandb: 🚀 View run at https://wandb.ai/lab/sdxl-lora/runs/{run}",
            )
        )
    out.append(wrap(g, f"mlflow.start_run() -> Run(run_id='{g.hex(32)}', experiment_id='{g.num(1, 40)}')", "es"))
    for _ in range(3):
        lines = "\n".join(
            f"{g.hex(64)}  {name}"
            for name in ("model-00001-of-00004.safetensors", "model-00002-of-00004.safetensors", "tokenizer.json")
        )
        out.append(wrap(g, f"$ sha256sum /data/ckpt/*\n{lines}"))
    out.append(wrap(g, f"$ md5sum coco2017.zip\n{g.hex(32)}  coco2017.zip", "vi"))
    out.append(wrap(g, f"container id {g.hex(64)} exited with code 137 (OOMKilled)", "en"))
    out.append(wrap(g, f"$ cat /etc/machine-id\n{g.hex(32)}", "tr"))
    out.append(
        wrap(
            g,
            f'provider "registry.terraform.io/hashicorp/aws" {{\n  version = "5.82.0"\n  hashes = [\n    "h1:{base64.b64encode(g.raw(32)).decode()}",\n    "zh:{g.hex(64)}",\n  ]\n}}',
            "en",
        )
    )
    out.append(wrap(g, f"magnet:?xt=urn:btih:{g.hex(40)}&dn=the-pile-subset", "es"))
    out.append(f"Session id for the ticket: {g.uuid()} — order {g.num(1200, 98000)}, started {date(g)}")
    out.append(wrap(g, f"trace_id={g.hex(32)} span_id={g.hex(16)} traceparent: 00-{g.hex(32)}-{g.hex(16)}-01", "en"))
    out.append(
        wrap(
            g,
            f"chatcmpl-{g.pick('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789', 29)} finish_reason=length usage={{'prompt_tokens': 812, 'completion_tokens': 4096}}",
            "vi",
        )
    )
    return out


def logs(g: Gen) -> list[str]:
    out: list[str] = []
    for _ in range(6):
        node = f"gpu-{g.num(1, 90)}"
        pid = g.num(1000, 9000)
        lines = [
            f"{node}:{pid}:{pid} [0] NCCL INFO Bootstrap : Using eth0:{host(g)}<0>",
            f"{node}:{pid}:{pid} [0] NCCL INFO NET/Plugin: No plugin found (libnccl-net.so)",
            f"{node}:{pid}:{pid} [0] NCCL INFO cudaDriverVersion 12040",
            "NCCL version 2.21.5+cuda12.4",
            f"{node}:{pid}:{pid + 7} [0] NCCL INFO comm 0x{g.hex(12)} rank 0 nranks {g.choice(['2', '4', '8'])} cudaDev 0 nvmlDev 0 busId {g.num(1, 9)}0000 commId 0x{g.hex(16)} - Init START",
            f"{node}:{pid}:{pid + 7} [0] NCCL INFO Channel 00/24 :    0   1   2   3",
            f"{node}:{pid}:{pid + 7} [0] NCCL INFO Connected all rings",
        ]
        if g.rng.random() < 0.5:
            lines.append(
                f"{node}:{pid}:{pid + 9} [0] NCCL WARN NET/Socket : peer {host(g)}<{g.num(30000, 60000)}> message truncated : receiving 1048576 bytes instead of 65536"
            )
        out.append(wrap(g, "\n".join(lines)))
    for _ in range(5):
        size = g.choice(["2.00 GiB", "1.56 GiB", "512.00 MiB", "20.00 MiB"])
        out.append(
            wrap(
                g,
                f'Traceback (most recent call last):\n  File "/workspace/train.py", line {g.num(80, 400)}, in <module>\n    loss.backward()\n  File "/usr/local/lib/python3.11/dist-packages/torch/_tensor.py", line 581, in backward\n    torch.autograd.backward(\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate {size}. GPU 0 has a total capacity of 79.10 GiB of which {g.num(10, 900)}.{g.num(10, 99)} MiB is free. Process {g.num(1000, 90000)} has 78.{g.num(10, 99)} GiB memory in use. Of the allocated memory 75.{g.num(10, 99)} GiB is allocated by PyTorch, and 1.{g.num(10, 99)} GiB is reserved by PyTorch but unallocated.',
            )
        )
    for _ in range(3):
        out.append(
            wrap(
                g,
                f"RuntimeError: CUDA error: an illegal memory access was encountered\nCUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.\nFor debugging consider passing CUDA_LAUNCH_BLOCKING=1\nCompile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n[rank{g.num(0, 7)}]:[E{g.num(1000, 1300)} {g.num(10, 23)}:{g.num(10, 59)}:{g.num(10, 59)}.{g.num(100000, 999999)} {g.num(100, 999)} ProcessGroupNCCL.cpp:1834] [PG ID 0 PG GUID 0(default_pg) Rank 3] Process group watchdog thread terminated with exception",
            )
        )
    for _ in range(4):
        out.append(
            wrap(
                g,
                f"+-----------------------------------------------------------------------------------------+\n| NVIDIA-SMI 550.{g.num(54, 127)}.{g.num(1, 9):02d}             Driver Version: 550.{g.num(54, 127)}.{g.num(1, 9):02d}     CUDA Version: 12.4     |\n|-----------------------------------------+------------------------+----------------------+\n|   0  NVIDIA H100 80GB HBM3          On  |   00000000:{g.pick('0123456789ABCDEF', 2)}:00.0 Off |                    0 |\n| N/A   {g.num(30, 80)}C    P0            {g.num(70, 700)}W /  700W |   {g.num(1, 80000)}MiB /  81559MiB |     {g.num(0, 100)}%      Default |",
            )
        )
    for _ in range(5):
        pkg = g.choice(PKGS)
        name = pkg.split("==")[0]
        out.append(
            wrap(
                g,
                f"$ pip install {pkg}\nCollecting {pkg}\n  Downloading {name}-{pkg.split('==')[1]}-cp311-cp311-manylinux_2_28_x86_64.whl ({g.num(10, 900)}.{g.num(1, 9)} MB)\n     ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━ {g.num(10, 900)}.{g.num(1, 9)}/{g.num(10, 900)}.{g.num(1, 9)} MB {g.num(20, 300)}.{g.num(1, 9)} MB/s eta 0:00:00\nRequirement already satisfied: filelock in /usr/local/lib/python3.11/dist-packages (from {name}) (3.16.1)\nInstalling collected packages: {name}\nSuccessfully installed {pkg.replace('==', '-')}",
            )
        )
    out.append(
        wrap(
            g,
            "ERROR: pip's dependency resolver does not currently take into account all the packages that are installed. This behaviour is the source of the following dependency conflicts.\nvllm 0.6.4 requires torch==2.5.1, but you have torch 2.4.0 which is incompatible.",
            "vi",
        )
    )
    out.append(
        wrap(
            g,
            "Looking in indexes: https://pypi.org/simple, https://download.pytorch.org/whl/cu124\nERROR: Could not find a version that satisfies the requirement torch==2.3.0+cu124 (from versions: 2.4.0+cu124, 2.4.1+cu124, 2.5.0+cu124, 2.5.1+cu124)",
            "tr",
        )
    )
    for _ in range(4):
        port = g.choice(["8888", "8889", "8890"])
        out.append(
            wrap(
                g,
                f"[I {date(g)} 10:{g.num(10, 59)}:{g.num(10, 59)}.{g.num(100, 999)} ServerApp] jupyterlab | extension was successfully loaded.\n[I ServerApp] Serving notebooks from local directory: /workspace\n[I ServerApp] Jupyter Server 2.14.2 is running at:\n[I ServerApp] http://localhost:{port}/lab\n[W ServerApp] No web browser found: Error('could not locate runnable browser').\n[I ServerApp] Kernel started: {g.uuid()}",
            )
        )
    out.append(
        wrap(
            g,
            f"In [3]: torch.cuda.get_device_name(0), torch.version.cuda\nOut[3]: ('NVIDIA H100 80GB HBM3', '12.4')\n\nIn [4]: torch.cuda.mem_get_info()\nOut[4]: ({g.num(10**10, 8 * 10**10)}, 84974239744)",
            "es",
        )
    )
    out.append(
        wrap(
            g,
            f'{{\n "cells": [{{"cell_type": "code", "execution_count": 7, "id": "{g.hex(8)}", "metadata": {{}}, "outputs": [{{"name": "stdout", "output_type": "stream", "text": ["step 500 loss 1.842\\n"]}}]}}],\n "metadata": {{"kernelspec": {{"name": "python3"}}}}\n}}',
            "en",
        )
    )
    out.append(
        wrap(
            g,
            f"{{'train_runtime': {g.num(1000, 90000)}.{g.num(1000, 9999)}, 'train_samples_per_second': {g.num(1, 90)}.{g.num(100, 999)}, 'train_steps_per_second': 0.{g.num(100, 999)}, 'train_loss': 1.{g.num(1000, 9999)}, 'epoch': 3.0}}\n100%|██████████| 1875/1875 [{g.num(1, 9)}:{g.num(10, 59)}:{g.num(10, 59)}<00:00,  {g.num(1, 3)}.{g.num(10, 99)}it/s]",
            "vi",
        )
    )
    out.append(
        wrap(
            g,
            f"INFO:     Started server process [{g.num(100, 9999)}]\nINFO 03-11 10:22:31 model_runner.py:1072] Loading model weights took 14.9888 GB\nINFO 03-11 10:22:40 gpu_executor.py:122] # GPU blocks: {g.num(1000, 30000)}, # CPU blocks: 2048\nINFO:     Uvicorn running on http://0.0.0.0:8000 (Press CTRL+C to quit)",
            "tr",
        )
    )
    out.append(
        wrap(
            g,
            "2027-03-04 12:00:01 | ERROR | stderr | torch.distributed.elastic.multiprocessing.errors.ChildFailedError:\ntrain.py FAILED\nFailures:\n  <NO_OTHER_FAILURES>\nRoot Cause (first observed failure):\n[0]:\n  time      : 2027-03-04_12:00:01\n  host      : gpu-12\n  rank      : 3 (local_rank: 3)\n  exitcode  : -9 (pid: 5512)\n  error_file: <N/A>\n  traceback : Signal 9 (SIGKILL) received by PID 5512",
            "en",
        )
    )
    out.append(
        wrap(
            g,
            "nvcc fatal   : Unsupported gpu architecture 'compute_90a'\nerror: command '/usr/local/cuda/bin/nvcc' failed with exit code 1\nNote: This error originates from a subprocess, and is likely not a problem with pip.",
            "es",
        )
    )
    out.append(
        wrap(
            g,
            f"$ dmesg | tail -3\n[{g.num(1000, 99999)}.{g.num(100000, 999999)}] NVRM: Xid (PCI:0000:{g.pick('0123456789abcdef', 2)}:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.\n[{g.num(1000, 99999)}.{g.num(100000, 999999)}] NVRM: GPU 0000:{g.pick('0123456789abcdef', 2)}:00.0: GPU has fallen off the bus.",
            "vi",
        )
    )
    out.append(
        wrap(
            g,
            "Downloading shards: 100%|██████████| 4/4 [01:12<00:00, 18.05s/it]\nLoading checkpoint shards: 100%|██████████| 4/4 [00:05<00:00,  1.31s/it]\ngeneration_config.json: 100%|██████████| 184/184 [00:00<00:00, 1.36MB/s]",
            "tr",
        )
    )
    return out

# ruff: noqa: E501  (one realistic sample per line reads better than wrapped ones)
"""Held-out 10, texts with secrets (0396): credentials of GPU users' tools — model hubs, trackers, LLM APIs,
registries, code hosts and package indexes, GPU clouds, tunnels and notebook servers."""

from __future__ import annotations

import base64
import json

from .heldout10_gen import Gen
from .heldout10_text import wrap

Sample = tuple[str, list[str]]


def hubs_and_trackers(g: Gen) -> list[Sample]:
    out: list[Sample] = []
    hf = [
        lambda t: wrap(
            g,
            f"$ huggingface-cli login --token {t}\nToken is valid (permission: read).\nYour token has been saved to /root/.cache/huggingface/token\nLogin successful",
            "en",
        ),
        lambda t: wrap(g, f"HF_TOKEN={t}\nHF_HOME=/workspace/.hf\nMODEL_ID=meta-llama/Llama-3.1-8B-Instruct", "es"),
        lambda t: wrap(
            g,
            f'from huggingface_hub import login\nlogin(token="{t}")\n\nmodel = AutoModelForCausalLM.from_pretrained("mistralai/Mistral-7B-v0.3", torch_dtype=torch.bfloat16)\n---------------------------------------------------------------------------\nGatedRepoError: 403 Client Error.',
            "vi",
        ),
        lambda t: wrap(
            g,
            f"git remote -v\norigin  https://lucia:{t}@huggingface.co/lucia/whisper-es-finetune (fetch)\norigin  https://lucia:{t}@huggingface.co/lucia/whisper-es-finetune (push)",
            "es",
        ),
        lambda t: wrap(
            g, f"root@gpu:~# cat ~/.cache/huggingface/token\n{t}root@gpu:~# hf auth whoami\nInvalid user token.", "tr"
        ),
        lambda t: (
            f"Hi, downloads of gated models fail on my rental. I set the token in the env like this: export HF_TOKEN={t} and it still says 401. Works locally."
        ),
        lambda t: wrap(
            g,
            f"docker run --gpus all -e HUGGING_FACE_HUB_TOKEN={t} -p 8000:8000 vllm/vllm-openai:latest --model meta-llama/Llama-3.1-8B-Instruct",
            "en",
        ),
        lambda t: f"Token de Hugging Face: {t}\nMuchas gracias por revisarlo.",
        lambda t: wrap(
            g, f'snapshot_download(repo_id="black-forest-labs/FLUX.1-dev", local_dir="/data/flux", token="{t}")', "tr"
        ),
    ]
    for make in hf:
        token = g.hf()
        out.append((make(token), [token]))

    wb = [
        lambda k: wrap(
            g,
            f"$ wandb login {k}\nwandb: Appending key for api.wandb.ai to your netrc file: /root/.netrc\nwandb: W&B API key is configured.",
            "en",
        ),
        lambda k: wrap(g, f"machine api.wandb.ai\n  login user\n  password {k}", "vi"),
        lambda k: wrap(g, f"WANDB_API_KEY={k}\nWANDB_PROJECT=sdxl-lora\nWANDB_ENTITY=lucia-lab", "es"),
        lambda k: wrap(
            g, f'import wandb\nwandb.login(key="{k}")\nrun = wandb.init(project="asr-vi", config=cfg)', "vi"
        ),
        lambda k: (
            f'Merhaba, wandb anahtarım {k} — eğitim başlarken "wandb: ERROR api_key not configured" diyor, neden?'
        ),
        lambda k: wrap(g, f"environment:\n  - WANDB_API_KEY={k}\n  - NVIDIA_VISIBLE_DEVICES=all", "en"),
    ]
    for make in wb:
        key = g.wandb()
        out.append((make(key), [key]))

    comet = g.pick("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", 25)
    out.append((wrap(g, f"[comet]\napi_key = {comet}\nworkspace = mehmet-ml\nproject_name = yolo-tr", "tr"), [comet]))
    payload = json.dumps(
        {"api_address": "https://app.neptune.ai", "api_url": "https://app.neptune.ai", "api_key": g.uuid()},
        separators=(",", ":"),
    )
    neptune = base64.b64encode(payload.encode()).decode().rstrip("=")
    out.append((wrap(g, f'export NEPTUNE_API_TOKEN="{neptune}"\nexport NEPTUNE_PROJECT="team/detr"', "en"), [neptune]))
    pw = g.password()
    out.append(
        (
            wrap(
                g,
                f"MLFLOW_TRACKING_URI=https://mlflow.lab.example\nMLFLOW_TRACKING_USERNAME=lan\nMLFLOW_TRACKING_PASSWORD={pw}",
                "vi",
            ),
            [pw],
        )
    )
    kaggle = g.hex(32)
    out.append(
        (
            wrap(
                g,
                f'cat ~/.kaggle/kaggle.json\n{{"username":"mehmetyilmaz","key":"{kaggle}"}}\nkaggle competitions download -c llm-detect',
                "tr",
            ),
            [kaggle],
        )
    )
    return out


def llm_apis(g: Gen) -> list[Sample]:
    out: list[Sample] = []
    openai = [
        lambda k: wrap(g, f"OPENAI_API_KEY={k}\nOPENAI_BASE_URL=https://api.openai.com/v1", "en"),
        lambda k: wrap(
            g,
            f'from openai import OpenAI\nclient = OpenAI(api_key="{k}")\nresp = client.chat.completions.create(model="gpt-4o-mini", messages=msgs)\nopenai.RateLimitError: Error code: 429',
            "es",
        ),
        lambda k: (
            f'curl https://api.openai.com/v1/models -H "Authorization: Bearer {k}"\n-> works on my laptop, times out from the rental. Firewall?'
        ),
        lambda k: wrap(g, f'os.environ["OPENAI_API_KEY"] = "{k}"\nfrom langchain_openai import ChatOpenAI', "vi"),
        lambda k: f"Selam, judge modeli için OpenAI anahtarı: {k} — değerlendirme betiği 401 veriyor.",
        lambda k: wrap(g, f"eval:\n  judge: gpt-4o\n  openai_api_key: {k}\n  batch_size: 16", "en"),
    ]
    for make in openai:
        key = g.openai()
        out.append((make(key), [key]))
    for make in (
        lambda k: wrap(g, f"export ANTHROPIC_API_KEY={k}\npython label_with_claude.py --shard 3", "en"),
        lambda k: wrap(g, f'client = anthropic.Anthropic(api_key="{k}")', "tr"),
        lambda k: (
            f"Hola, la clave de Anthropic que uso para etiquetar es {k}, ¿puede ser que la IP de la máquina esté bloqueada?"
        ),
        lambda k: wrap(
            g,
            f'curl https://api.anthropic.com/v1/messages \\\n  -H "x-api-key: {k}" \\\n  -H "anthropic-version: 2023-06-01" \\\n  -H "content-type: application/json" -d @req.json',
            "vi",
        ),
    ):
        key = g.anthropic()
        out.append((make(key), [key]))
    groq, orr = g.groq(), g.openrouter()
    out.append((wrap(g, f"GROQ_API_KEY={groq}", "es"), [groq]))
    out.append((wrap(g, f'client = OpenAI(base_url="https://openrouter.ai/api/v1", api_key="{orr}")', "en"), [orr]))
    orr = g.openrouter()
    out.append((f"Nhật ký: dùng OpenRouter để sinh dữ liệu, key {orr}, hết 12$ cho 40k mẫu.", [orr]))
    for make in (
        lambda k: wrap(g, f'import google.generativeai as genai\ngenai.configure(api_key="{k}")', "en"),
        lambda k: wrap(g, f"GEMINI_API_KEY={k}\nGOOGLE_CLOUD_PROJECT=vision-tr", "tr"),
        lambda k: (
            f'curl "https://generativelanguage.googleapis.com/v1beta/models?key={k}" returns 403 from the box, fine from home'
        ),
    ):
        key = g.google_key()
        out.append((make(key), [key]))
    rep = g.replicate()
    out.append(
        (wrap(g, f'export REPLICATE_API_TOKEN={rep}\nreplicate.run("stability-ai/sdxl", input={{...}})', "en"), [rep])
    )
    rep = g.replicate()
    out.append((f"Mi token de Replicate ({rep}) dejó de funcionar desde la instancia.", [rep]))
    together = g.hex(64)
    out.append((wrap(g, f"TOGETHER_API_KEY={together}", "vi"), [together]))
    mistral = g.pick("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", 32)
    out.append((wrap(g, f'client = Mistral(api_key="{mistral}")', "es"), [mistral]))
    cohere = g.pick("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", 40)
    out.append(
        (
            wrap(g, f'co = cohere.Client("{cohere}")\nco.rerank(model="rerank-v3.5", query=q, documents=docs)', "en"),
            [cohere],
        )
    )
    pc = g.pinecone()
    out.append((wrap(g, f'pc = Pinecone(api_key="{pc}")\nindex = pc.Index("docs-tr")', "tr"), [pc]))
    vllm = "sk-" + g.pick("abcdefghijklmnopqrstuvwxyz0123456789", 24)
    out.append(
        (
            wrap(
                g,
                f"python -m vllm.entrypoints.openai.api_server --model Qwen/Qwen2.5-7B-Instruct --api-key {vllm} --port 8000",
                "en",
            ),
            [vllm],
        )
    )
    return out


def registries_and_code(g: Gen) -> list[Sample]:
    out: list[Sample] = []
    pat = g.dockerhub()
    out.append(
        (
            wrap(
                g,
                f"docker login -u lanvu -p {pat}\nWARNING! Using --password via the CLI is insecure. Use --password-stdin.\nLogin Succeeded",
                "vi",
            ),
            [pat],
        )
    )
    token = g.dockerhub()
    auth = base64.b64encode(f"mehmety:{token}".encode()).decode()
    out.append(
        (wrap(g, json.dumps({"auths": {"https://index.docker.io/v1/": {"auth": auth}}}, indent=2), "tr"), [auth])
    )
    ngc = g.ngc()
    out.append(
        (
            wrap(
                g,
                f"docker login nvcr.io -u '$oauthtoken' -p {ngc}\nError response from daemon: Get \"https://nvcr.io/v2/\": unauthorized",
                "en",
            ),
            [ngc],
        )
    )
    ngc = g.ngc()
    out.append(
        (
            wrap(
                g,
                f"$ ngc config set\nEnter API key [no-apikey]. Choices: [<VALID_APIKEY>, 'no-apikey']: {ngc}\nEnter CLI output format type [ascii]. Choices: ['ascii', 'csv', 'json']: ascii\nEnter org [no-org]. Choices: ['0512345678901234']: ",
                "es",
            ),
            [ngc],
        )
    )
    ghp = g.ghp()
    out.append(
        (
            wrap(
                g,
                f"echo {ghp} | docker login ghcr.io -u lucia-m --password-stdin\ndocker push ghcr.io/lucia-m/trainer:cu124",
                "es",
            ),
            [ghp],
        )
    )
    reg = g.password()
    out.append(
        (
            wrap(
                g,
                f"kubectl create secret docker-registry regcred --docker-server=registry.lab.example --docker-username=ci --docker-password='{reg}'",
                "en",
            ),
            [reg],
        )
    )
    ghp = g.ghp()
    out.append(
        (
            wrap(
                g,
                f"git clone https://{ghp}@github.com/lan-ai/private-datasets.git\nCloning into 'private-datasets'...\nremote: Repository not found.",
                "vi",
            ),
            [ghp],
        )
    )
    fine = g.github_pat()
    out.append(
        (
            f"Hi, pip install from our private repo fails on the rental:\npip install git+https://oauth2:{fine}@github.com/acme-ml/tokenizers-tr.git@main\nit works on my machine",
            [fine],
        )
    )
    gl = g.glpat()
    out.append(
        (
            wrap(
                g,
                f"pip install mylib --index-url https://__token__:{gl}@gitlab.com/api/v4/projects/4521/packages/pypi/simple",
                "tr",
            ),
            [gl],
        )
    )
    gl = g.glpat()
    out.append((f"Hola, mi token de GitLab es {gl} y el runner de la GPU no puede clonar el submódulo.", [gl]))
    pypi = g.pypi()
    out.append(
        (wrap(g, f"[distutils]\nindex-servers = pypi\n\n[pypi]\nusername = __token__\npassword = {pypi}", "en"), [pypi])
    )
    npm = g.npm()
    out.append((wrap(g, f"//registry.npmjs.org/:_authToken={npm}", "vi"), [npm]))
    return out


def gpu_clouds_and_tunnels(g: Gen) -> list[Sample]:
    out: list[Sample] = []
    rp = g.runpod()
    out.append(
        (
            wrap(g, f"runpodctl config --apiKey {rp}\nsaved apiKey into config file: /root/.runpod/config.toml", "en"),
            [rp],
        )
    )
    rp = g.runpod()
    out.append(
        (f"Estoy migrando desde RunPod, este es el script viejo: RUNPOD_API_KEY={rp} python launch.py --gpu A100", [rp])
    )
    lam = g.lambda_key("lanvu")
    out.append((wrap(g, f"curl -u {lam}: https://cloud.lambdalabs.com/api/v1/instances", "vi"), [lam]))
    lam = g.lambda_key("mehmet")
    out.append((wrap(g, f"LAMBDA_API_KEY={lam}", "tr"), [lam]))
    vast = g.hex(64)
    out.append(
        (wrap(g, f"vastai set api-key {vast}\nYour api key has been saved in /root/.vast_api_key", "en"), [vast])
    )
    ps = g.hex(32)
    out.append((wrap(g, f"export PAPERSPACE_API_KEY={ps}\ngradient notebooks list", "es"), [ps]))
    modal_secret = "as-" + g.pick("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", 22)
    modal_id = "ak-" + g.pick("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", 22)
    out.append((wrap(g, f"modal token set --token-id {modal_id} --token-secret {modal_secret}", "en"), [modal_secret]))
    ng = g.ngrok()
    out.append(
        (
            wrap(
                g,
                f"ngrok config add-authtoken {ng}\nAuthtoken saved to configuration file: /root/.config/ngrok/ngrok.yml\nngrok http 7860",
                "vi",
            ),
            [ng],
        )
    )
    ng = g.ngrok()
    out.append(
        (wrap(g, f'version: "2"\nauthtoken: {ng}\ntunnels:\n  comfy:\n    proto: http\n    addr: 8188', "es"), [ng])
    )
    payload = json.dumps(
        {"a": g.hex(32), "t": g.uuid(), "s": base64.b64encode(g.raw(32)).decode()}, separators=(",", ":")
    )
    cf = base64.b64encode(payload.encode()).decode()
    out.append(
        (
            wrap(
                g,
                f"cloudflared tunnel run --token {cf}\n2027-03-04T10:11:12Z INF Starting tunnel tunnelID={g.uuid()}",
                "tr",
            ),
            [cf],
        )
    )
    ts = g.tailscale()
    out.append(
        (
            wrap(
                g,
                f"curl -fsSL https://tailscale.com/install.sh | sh\ntailscale up --authkey={ts} --hostname=gpu-rental-1",
                "en",
            ),
            [ts],
        )
    )
    for make in (
        lambda t: (
            f"Hi, I can't open Jupyter from outside. The server printed:\n\n    To access the server, open this file in a browser:\n        file:///root/.local/share/jupyter/runtime/jpserver-412-open.html\n    Or copy and paste one of these URLs:\n        http://gpu-7:8888/lab?token={t}\n        http://127.0.0.1:8888/lab?token={t}"
        ),
        lambda t: wrap(
            g, f"nohup jupyter lab --ip 0.0.0.0 --port 8888 --no-browser --allow-root --ServerApp.token={t} &", "vi"
        ),
        lambda t: wrap(
            g,
            f"# ~/.jupyter/jupyter_server_config.py\nc.ServerApp.ip = '0.0.0.0'\nc.ServerApp.token = '{t}'\nc.ServerApp.open_browser = False",
            "es",
        ),
        lambda t: (
            f"Jupyter açılıyor ama token istiyor, şu linki kullandım: http://{g.num(40, 220)}.{g.num(1, 255)}.{g.num(1, 255)}.{g.num(2, 254)}:8888/tree?token={t}"
        ),
    ):
        tok = g.hex(48)
        out.append((make(tok), [tok]))
    return out

# ruff: noqa: E501  (one realistic sample per line reads better than wrapped ones)
"""Held-out 8, texts with secrets (1/2 of the config families): model hubs, experiment trackers, LLM APIs, GPU
clouds and notebook servers, as their CLIs print them and their files hold them.

Each secret is introduced the way the tool itself does it (a field, a flag, a login command, a file the tool
writes, the provider's published prefix) so that a careful reader of that one text would call it a secret. Where a
credential has a public half (a key id, a token id, a user name), only the secret half is listed.
"""

from __future__ import annotations

from .heldout8_shapes import (
    ALNUM,
    LETTERS,
    UPPER,
    URLSAFE,
    Gen,
    anthropic_key,
    b64,
    hf_token,
    jwt,
    neptune_token,
    openai_key,
    wrap,
)

Positive = tuple[str, str, list[str]]


def config_positives(g: Gen) -> list[Positive]:
    out: list[Positive] = []

    def add(family: str, body: str, *secrets: str, lang: str | None = None) -> None:
        out.append((family, wrap(g, body, lang), list(secrets)))

    # --- Hugging Face ---------------------------------------------------------------------------------------------
    for _ in range(2):
        t = hf_token(g)
        add(
            "model-hub",
            f"$ cat ~/.cache/huggingface/token\n{t}\n$ huggingface-cli whoami\nInvalid user token. The token from HF_TOKEN environment variable is invalid.",
            t,
        )
    for _ in range(2):
        t = hf_token(g)
        add(
            "model-hub",
            f"(venv) root@gpu-{g.num(1, 64)}:/workspace# huggingface-cli login --token {t} --add-to-git-credential\nToken is valid (permission: read).\nCannot authenticate through git-credential as no helper is defined on your machine.",
            t,
        )
    t = hf_token(g)
    add(
        "model-hub",
        f"docker run --gpus all -e HUGGING_FACE_HUB_TOKEN={t} -p 8080:80 -v $PWD/data:/data ghcr.io/huggingface/text-generation-inference:2.4 --model-id meta-llama/Llama-3.1-8B-Instruct",
        t,
    )
    t = hf_token(g)
    add(
        "model-hub",
        f"HF_TOKEN={t} python -m vllm.entrypoints.openai.api_server --model mistralai/Mistral-7B-Instruct-v0.3 --tensor-parallel-size 2",
        t,
    )
    t = hf_token(g)
    add(
        "model-hub",
        f"$ git clone https://{g.user()}:{t}@huggingface.co/meta-llama/Llama-3.2-3B\nCloning into 'Llama-3.2-3B'...\nfatal: unable to access: The requested URL returned error: 403",
        t,
    )
    t = hf_token(g)
    add(
        "model-hub",
        f'In [3]: from huggingface_hub import login\n   ...: login("{t}")\n\nIn [4]: model = AutoModelForCausalLM.from_pretrained("google/gemma-2-9b", device_map="auto")\nOSError: You are trying to access a gated repo.',
        t,
    )
    t = "api_org_" + g.pick(LETTERS, 34)
    add("model-hub", f"our org token for the private datasets: {t} (it is on the team wiki too)", t, lang="en")

    # --- experiment trackers --------------------------------------------------------------------------------------
    for _ in range(2):
        k = g.hex(40)
        add(
            "tracker",
            f"$ cat ~/.netrc\nmachine api.wandb.ai\n  login user\n  password {k}\n$ wandb status\nwandb: ERROR api_key not configured (no-tty). call wandb.login(key=[your_api_key])",
            k,
        )
    for _ in range(2):
        k = g.hex(40)
        add(
            "tracker",
            f"  {(n := g.num(100, 990))}  nvidia-smi\n  {n + 1}  pip install -U wandb\n  {n + 2}  wandb login {k}\n  {n + 3}  python train.py --report_to wandb",
            k,
        )
    k = "local-" + g.hex(40)
    add(
        "tracker",
        f"export WANDB_BASE_URL=https://wandb.acme-research.example\nexport WANDB_API_KEY={k}\nwandb: Network error (ConnectionError), entering retry loop.",
        k,
    )
    k = g.hex(40)
    add("tracker", f'import wandb\nwandb.login(key="{k}")\nrun = wandb.init(project="sdxl-lora", config=cfg)', k)
    for _ in range(2):
        k = g.hex(32)
        add(
            "tracker",
            f'$ cat ~/.kaggle/kaggle.json\n{{"username":"{g.user()}{g.num(1, 99)}","key":"{k}"}}\n$ kaggle competitions download -c llm-detect-ai\n401 - Unauthorized',
            k,
        )
    k = g.pick(ALNUM, 25)
    add("tracker", f"~/.comet.config\n[comet]\napi_key={k}\nworkspace=lucia-ml\nproject_name=whisper-es", k)
    for _ in range(2):
        k = neptune_token(g)
        add(
            "tracker",
            f'export NEPTUNE_PROJECT="deniz/turkish-bert"\nexport NEPTUNE_API_TOKEN="{k}"\npython run.py\n[neptune] [error] NeptuneInvalidApiTokenException',
            k,
        )
    p = g.password()
    add(
        "tracker",
        f"MLFLOW_TRACKING_URI=https://mlflow.lab.example\nMLFLOW_TRACKING_USERNAME=admin\nMLFLOW_TRACKING_PASSWORD={p}\nmlflow.exceptions.MlflowException: API request failed with error code 401",
        p,
    )
    for _ in range(2):
        k = "dapi" + g.hex(32) + g.choice(["", "-2"])
        add(
            "tracker",
            f"$ cat ~/.databrickscfg\n[DEFAULT]\nhost  = https://adb-{g.num(10**15, 10**16 - 1)}.{g.num(1, 19)}.azuredatabricks.net\ntoken = {k}",
            k,
        )
    a, s = g.pick(UPPER, 24), g.pick(ALNUM, 52)
    add(
        "tracker",
        f'clearml.conf:\napi {{\n  web_server: https://app.clear.ml\n  api_server: https://api.clear.ml\n  credentials {{\n    "access_key" = "{a}"\n    "secret_key" = "{s}"\n  }}\n}}',
        s,
    )
    a, s = g.pick(UPPER, 20), g.pick(ALNUM, 56)
    add(
        "tracker",
        f"$ clearml-agent daemon --queue a100 --docker\nCLEARML_API_ACCESS_KEY={a}\nCLEARML_API_SECRET_KEY={s}\nclearml_agent: ERROR: Could not login to server",
        s,
    )
    k = g.pick(ALNUM, 20)
    add(
        "tracker",
        f'from roboflow import Roboflow\nrf = Roboflow(api_key="{k}")\nproject = rf.workspace("minh-vision").project("helmet-detect")\ndataset = project.version(4).download("yolov8")',
        k,
    )
    k = g.hex(40)
    add(
        "tracker",
        f'curl -X GET http://{g.ip()}:8080/api/projects/ -H "Authorization: Token {k}"\n(label studio on the rental, port forwarded)',
        k,
    )
    k = g.hex(32)
    add(
        "tracker",
        f'wget "https://civitai.com/api/download/models/{g.num(100_000, 999_999)}?type=Model&format=SafeTensor&token={k}" -O /workspace/ComfyUI/models/checkpoints/juggernaut.safetensors',
        k,
    )

    # --- LLM APIs ---------------------------------------------------------------------------------------------------
    for _ in range(2):
        k = openai_key(g)
        add(
            "llm-api",
            f"# .env used by the eval harness\nOPENAI_API_KEY={k}\nJUDGE_MODEL=gpt-4o-mini\nMAX_CONCURRENCY=8",
            k,
        )
    k = openai_key(g)
    add(
        "llm-api",
        f'client = OpenAI(api_key="{k}")\nresp = client.chat.completions.create(model="gpt-4o", messages=msgs)\nopenai.RateLimitError: Error code: 429',
        k,
    )
    k = anthropic_key(g)
    add("llm-api", f"export ANTHROPIC_API_KEY={k}\npython generate_synthetic.py --n 20000 --out /data/synth.jsonl", k)
    k = "gsk_" + g.pick(ALNUM, 52)
    add("llm-api", f'from groq import Groq\nclient = Groq(api_key="{k}")', k)
    k = "sk-or-v1-" + g.hex(64)
    add(
        "llm-api",
        f'curl https://openrouter.ai/api/v1/chat/completions -H "Authorization: Bearer {k}" -H "Content-Type: application/json" -d @req.json',
        k,
    )
    k = "tgp_v1_" + g.pick(URLSAFE, 43)
    add("llm-api", f"TOGETHER_API_KEY={k} python distill.py --teacher meta-llama/Llama-3.3-70B-Instruct-Turbo", k)
    k = g.pick(ALNUM, 32)
    add("llm-api", f"MISTRAL_API_KEY={k}\nMISTRAL_MODEL=mistral-large-latest", k)
    k = "xai-" + g.pick(ALNUM, 80)
    add("llm-api", f"llm:\n  provider: xai\n  api_key: {k}\n  model: grok-2", k)
    k = "sk-" + g.hex(32)
    add("llm-api", f'deepseek = OpenAI(api_key="{k}", base_url="https://api.deepseek.com")', k)
    k = "fw_" + g.pick(ALNUM, 24)
    add(
        "llm-api",
        f"export FIREWORKS_API_KEY={k}\nfirectl create deployment accounts/fireworks/models/qwen2p5-72b-instruct",
        k,
    )
    k = "pplx-" + g.pick(ALNUM, 48)
    add("llm-api", f'PERPLEXITY_API_KEY="{k}"', k)
    k = g.pick(ALNUM, 40)
    add(
        "llm-api",
        f'import cohere\nco = cohere.ClientV2(api_key="{k}")\nco.rerank(model="rerank-v3.5", query=q, documents=docs)',
        k,
    )
    k = "AIza" + g.pick(URLSAFE, 35)
    add("llm-api", f"GOOGLE_API_KEY={k}\nGEMINI_MODEL=gemini-1.5-pro", k)
    k = f"pcsk_{g.pick(ALNUM, 6)}_{g.pick(ALNUM, 63)}"
    add("llm-api", f'pc = Pinecone(api_key="{k}")\nindex = pc.Index("rag-docs-es")', k)
    k = f"lsv2_pt_{g.hex(32)}_{g.hex(10)}"
    add("llm-api", f"LANGSMITH_TRACING=true\nLANGSMITH_API_KEY={k}\nLANGSMITH_PROJECT=rag-eval", k)
    k = "r8_" + g.pick(ALNUM, 37)
    add("llm-api", f"export REPLICATE_API_TOKEN={k}\ncog push r8.im/{g.user()}/flux-lora", k)

    # --- GPU clouds and registries of models ------------------------------------------------------------------------
    for _ in range(2):
        k = "nvapi-" + g.pick(URLSAFE, 64)
        add(
            "gpu-cloud",
            f"$ ngc config set\nEnter API key [no-apikey]. Choices: [<VALID_APIKEY>, 'no-apikey']: {k}\nEnter CLI output format type [ascii]. Choices: ['ascii', 'csv', 'json']: ascii\nEnter org [no-org]. Choices: ['0591234567890123']:",
            k,
        )
    k = "nvapi-" + g.pick(URLSAFE, 64)
    add(
        "gpu-cloud",
        f"$ docker login nvcr.io -u '$oauthtoken' -p {k}\nWARNING! Using --password via the CLI is insecure. Use --password-stdin.\nError response from daemon: Get \"https://nvcr.io/v2/\": unauthorized",
        k,
    )
    k = b64(g.raw(63))
    add("gpu-cloud", f"NGC_API_KEY={k}\n(the old style key from ngc.nvidia.com, I know there is a new nvapi one)", k)
    k = f"secret_{g.choice(['training', 'lucia-laptop', 'ci'])}_{g.hex(32)}.{g.pick(ALNUM, 32)}"
    add("gpu-cloud", f"LAMBDA_API_KEY={k}\ncurl -u $LAMBDA_API_KEY: https://cloud.lambdalabs.com/api/v1/instances", k)
    k = g.hex(64)
    add("gpu-cloud", f"$ vastai set api-key {k}\nYour api key has been saved in /root/.config/vastai/vast_api_key", k)
    k = "rpa_" + g.pick(UPPER, 44)
    add("gpu-cloud", f"RUNPOD_API_KEY={k}\nrunpodctl config --apiKey $RUNPOD_API_KEY", k)
    i, s = "ak-" + g.pick(ALNUM, 22), "as-" + g.pick(ALNUM, 22)
    add("gpu-cloud", f'$ cat ~/.modal.toml\n[{g.user()}]\ntoken_id = "{i}"\ntoken_secret = "{s}"\nactive = true', s)

    # --- notebooks and servers on the rental -------------------------------------------------------------------------
    for _ in range(2):
        t = g.hex(48)
        host = g.choice(["127.0.0.1", "localhost", g.ip()])
        add(
            "notebook",
            f"[I 2027-01-11 09:{g.num(10, 59)}:{g.num(10, 59)}.312 ServerApp] Jupyter Server 2.14.2 is running at:\n[I ServerApp] http://{host}:8888/lab?token={t}\n[I ServerApp]     http://127.0.0.1:8888/lab?token={t}\nbut the link does not open through the ssh tunnel",
            t,
        )
    t = g.pick(URLSAFE, 32)
    add(
        "notebook",
        f"# ~/.jupyter/jupyter_server_config.py\nc.ServerApp.ip = '0.0.0.0'\nc.ServerApp.token = '{t}'\nc.ServerApp.open_browser = False",
        t,
    )
    p = g.symbol_password()
    add("notebook", f'demo.launch(server_name="0.0.0.0", server_port=7860, auth=("admin", "{p}"), share=False)', p)
    p = g.pick(ALNUM, 24)
    add(
        "notebook",
        f"$ cat ~/.config/code-server/config.yaml\nbind-addr: 0.0.0.0:8443\nauth: password\npassword: {p}\ncert: false",
        p,
    )
    k = g.pick(URLSAFE, 40)
    add(
        "notebook",
        f"vllm serve Qwen/Qwen2.5-32B-Instruct --tensor-parallel-size 4 --api-key {k} --port 8000\n(the client side gets 401 even with the same key)",
        k,
    )
    k = "sk-" + g.pick(ALNUM, 32)
    add("notebook", f'client = OpenAI(base_url="http://{g.ip()}:8000/v1", api_key="{k}")  # my vLLM on the rental', k)
    k = g.pick(ALNUM, 32)
    add(
        "notebook",
        f'qdrant = QdrantClient(url="https://{g.pick("abcdef0123456789", 8)}.eu-central.aws.cloud.qdrant.io:6333", api_key="{k}")',
        k,
    )
    token = jwt(g, {"sub": "lucia", "scope": "ray-dashboard", "exp": 1_800_000_000 + g.num(0, 10**6)})
    add("notebook", f'curl -H "Authorization: Bearer {token}" https://ray.lab.example/api/jobs/', token)
    return out

# ruff: noqa: E501  (one realistic sample per line reads better than wrapped ones)
"""Held-out 9, texts with secrets (2 of 3): ML platforms, model hubs, experiment trackers, LLM APIs, notebooks.

Each secret is introduced so that a careful reader would call it one: a login command, a field or variable
name, a provider's published prefix, or words saying what it is.
"""

from __future__ import annotations

import base64
import json

from .heldout9_gen import ALNUM, DIGITS, UPPER, URLSAFE, Gen
from .heldout9_pairs import _hi

Sample = tuple[str, list[str]]


def hubs_and_trackers(g: Gen) -> list[Sample]:
    out: list[Sample] = []

    def add(text: str, *secrets: str) -> None:
        out.append((text, list(secrets)))

    t = g.hf()
    add(
        f"{_hi(g, 'en')}$ huggingface-cli login --token {t} --add-to-git-credential\nToken is valid (permission: write).\nYour token has been saved to /root/.cache/huggingface/token\nbut git push to the Hub still asks for a password",
        t,
    )
    t = g.hf()
    add(
        f'{_hi(g, "es")}El modelo Llama es privado, así que en el notebook puse:\n\nfrom huggingface_hub import login\nlogin("{t}")\n\ny aún así recibo 401 al descargar.',
        t,
    )
    t = g.hf()
    add(
        f"cat ~/.cache/huggingface/token\n{t}\n\n{_hi(g, 'vi')}file token vẫn còn nhưng hf download báo lỗi 403 với repo gated.",
        t,
    )
    t = g.hf()
    add(
        f"{_hi(g, 'tr')}docker run --gpus all -e HF_TOKEN={t} -p 8000:8000 vllm/vllm-openai --model meta-llama/Llama-3.1-8B-Instruct\ncontainer açılıyor ama model inmiyor.",
        t,
    )
    t = g.hf()
    add(
        f'tokenizer = AutoTokenizer.from_pretrained("org/private-7b", token="{t}", revision="main")\nOSError: We couldn\'t connect to \'https://huggingface.co\' to load this file',
        t,
    )
    t = g.hf()
    add(
        f"{_hi(g, 'en')}git remote -v\norigin  https://user:{t}@huggingface.co/spaces/acme/demo (fetch)\norigin  https://user:{t}@huggingface.co/spaces/acme/demo (push)\nthe push of the 5 GB LFS file times out",
        t,
    )
    w = g.hex(40)
    add(
        f"{_hi(g, 'en')}wandb login {w}\nwandb: Appending key for api.wandb.ai to your netrc file: /root/.netrc\nand then the run still shows as offline",
        w,
    )
    w = g.hex(40)
    add(
        f"{_hi(g, 'es')}Mi ~/.netrc en la instancia:\n\nmachine api.wandb.ai\n  login user\n  password {w}\n\n¿Se borra al reiniciar?",
        w,
    )
    w = g.hex(40)
    add(
        f'{_hi(g, "vi")}Trong notebook em có dòng os.environ["WANDB_API_KEY"] = "{w}" mà wandb.init() vẫn hỏi đăng nhập.',
        w,
    )
    w = g.hex(40)
    add(
        f"{_hi(g, 'tr')}sweep agent'ı şöyle başlatıyorum:\nWANDB_API_KEY={w} WANDB_PROJECT=llm-ft wandb agent team/llm-ft/3kq9x2ab\nama GPU kullanımı %0.",
        w,
    )
    k = g.pick(ALNUM, 25)
    add(
        f"{_hi(g, 'en')}~/.comet.config\n[comet]\napi_key = {k}\nworkspace = vision-lab\n\nExperiment upload stalls at 99%.",
        k,
    )
    payload = {"api_address": "https://app.neptune.ai", "api_url": "https://app.neptune.ai", "api_key": g.uuid()}
    n = base64.b64encode(json.dumps(payload, separators=(",", ":")).encode()).decode().rstrip("=")
    add(
        f'{_hi(g, "es")}export NEPTUNE_API_TOKEN="{n}"\nexport NEPTUNE_PROJECT=lab/difusion\nY al ejecutar el entrenamiento: NeptuneConnectionLostException',
        n,
    )
    user, key = g.choice(["ngocanh", "ayseyilmaz", "jlopez", "mk_ml"]), g.hex(32)
    add(
        f'{_hi(g, "vi")}cat ~/.kaggle/kaggle.json\n{{"username":"{user}","key":"{key}"}}\nkaggle competitions download báo 401 Unauthorized.',
        key,
    )
    access, secret = g.pick(UPPER + DIGITS, 30), g.pick(ALNUM, 50)
    add(
        f'clearml.conf:\napi {{\n    web_server: https://app.clear.ml\n    api_server: https://api.clear.ml\n    credentials {{\n        "access_key" = "{access}"\n        "secret_key"  = "{secret}"\n    }}\n}}\n{_hi(g, "en")}the agent on the rented node never picks up tasks.',
        secret,
    )
    pw = g.password()
    add(
        f"{_hi(g, 'tr')}MLflow sunucumuz basic auth kullanıyor:\nexport MLFLOW_TRACKING_URI=https://mlflow.ekip.example\nexport MLFLOW_TRACKING_USERNAME=egitim\nexport MLFLOW_TRACKING_PASSWORD={pw}\nmlflow.log_artifact çok yavaş.",
        pw,
    )
    tid, tsec = "ak-" + g.pick(ALNUM, 22), "as-" + g.pick(ALNUM, 22)
    add(
        f"{_hi(g, 'en')}modal token set --token-id {tid} --token-secret {tsec}\nworks locally; on your instance it prints 'Token verified' and then hangs.",
        tsec,
    )
    r = "r8_" + g.pick(ALNUM, 37)
    add(
        f"{_hi(g, 'es')}Comparando con Replicate: REPLICATE_API_TOKEN={r} tarda 4 s por imagen, vuestra A100 tarda 9. ¿Qué hago mal?",
        r,
    )
    lk = "lsv2_pt_" + g.hex(32) + "_" + g.hex(10)
    add(
        f"{_hi(g, 'vi')}.env của app RAG:\nLANGCHAIN_TRACING_V2=true\nLANGCHAIN_API_KEY={lk}\nLANGCHAIN_PROJECT=rag-demo",
        lk,
    )
    dk = "dckr_pat_" + g.pick(URLSAFE, 27)
    add(
        f'$ docker login -u mlteam -p {dk}\nWARNING! Using --password via the CLI is insecure. Use --password-stdin.\nError response from daemon: Get "https://registry-1.docker.io/v2/": net/http: TLS handshake timeout',
        dk,
    )
    ngc = "nvapi-" + g.pick(URLSAFE, 64)
    add(
        f"{_hi(g, 'en')}docker login nvcr.io --username '$oauthtoken' --password {ngc}\nLogin Succeeded\nbut pulling nvcr.io/nvidia/pytorch:24.05-py3 fails with 'unauthorized: authentication required'",
        ngc,
    )
    ngc = "nvapi-" + g.pick(URLSAFE, 64)
    add(
        f"{_hi(g, 'tr')}ngc config set sorunca API key olarak şunu girdim: {ngc}\nsonra 'ngc registry model download-version' hata veriyor.",
        ngc,
    )
    auth = base64.b64encode(f"mlteam:{g.password()}".encode()).decode()
    add(
        f'{_hi(g, "es")}Contenido de ~/.docker/config.json:\n{{\n  "auths": {{\n    "https://index.docker.io/v1/": {{\n      "auth": "{auth}"\n    }}\n  }}\n}}\nEl pull funciona pero el push da denied.',
        auth,
    )
    gh = "ghp_" + g.pick(ALNUM, 36)
    auth = base64.b64encode(f"octo-ml:{gh}".encode()).decode()
    add(
        f'{_hi(g, "en")}/root/.docker/config.json:\n{{"auths":{{"ghcr.io":{{"auth":"{auth}"}}}},"credsStore":""}}\nghcr pull is denied on the rental but fine at home.',
        auth,
    )
    gh = "ghp_" + g.pick(ALNUM, 36)
    add(
        f"{_hi(g, 'vi')}echo {gh} | docker login ghcr.io -u vuthanh --password-stdin\nError: Cannot perform an interactive login from a non TTY device",
        gh,
    )
    gl = "glpat-" + g.pick(URLSAFE, 20)
    add(
        f"{_hi(g, 'tr')}GitLab registry'ye giriş:\ndocker login registry.gitlab.com -u deploy -p {gl}\n'denied: access forbidden' alıyorum.",
        gl,
    )
    gp = "github_pat_11" + g.pick(UPPER + DIGITS, 20) + "_" + g.pick(ALNUM, 59)
    add(
        f"git clone https://{gp}@github.com/acme-ml/trainer.git\nCloning into 'trainer'...\nfatal: unable to access: Could not resolve host: github.com\n{_hi(g, 'en')}DNS on the instance seems broken.",
        gp,
    )
    return out


def llm_keys(g: Gen) -> list[Sample]:
    out: list[Sample] = []

    def add(text: str, *secrets: str) -> None:
        out.append((text, list(secrets)))

    k = g.openai()
    add(
        f"{_hi(g, 'en')}OPENAI_API_KEY={k}\nOPENAI_BASE_URL=http://localhost:8000/v1\nI'm trying to point the OpenAI client at my vLLM server on the rental, it still calls api.openai.com",
        k,
    )
    k = g.openai()
    add(
        f'{_hi(g, "es")}client = OpenAI(api_key="{k}")\nresp = client.chat.completions.create(model="gpt-4o-mini", messages=msgs)\nLa respuesta tarda 30 segundos desde vuestra red.',
        k,
    )
    k = g.anthropic()
    add(
        f"{_hi(g, 'vi')}export ANTHROPIC_API_KEY='{k}'\npython eval.py --judge claude\nBị lỗi SSL: CERTIFICATE_VERIFY_FAILED trên máy thuê.",
        k,
    )
    k = g.anthropic()
    add(
        f"{_hi(g, 'tr')}config.yaml:\njudge:\n  provider: anthropic\n  api_key: {k}\n  model: claude-3-5-sonnet\nbununla değerlendirme çalıştırınca timeout oluyor.",
        k,
    )
    k = "gsk_" + g.pick(ALNUM, 52)
    add(
        f"{_hi(g, 'en')}Groq key for the comparison benchmark: {k}\nour own Llama on your H100 should beat it, but we get 40 tok/s only",
        k,
    )
    k = "sk-or-v1-" + g.hex(64)
    add(
        f"{_hi(g, 'es')}curl https://openrouter.ai/api/v1/chat/completions -H \"Authorization: Bearer {k}\" -d @req.json\nDesde la instancia responde 'Connection reset by peer'.",
        k,
    )
    k = "AIza" + g.pick(URLSAFE, 35)
    add(
        f'{_hi(g, "vi")}genai.configure(api_key="{k}")\nmodel = genai.GenerativeModel("gemini-1.5-flash")\nchạy trong Jupyter trên máy GPU bị treo ở bước generate_content.',
        k,
    )
    k = g.pick(ALNUM, 32)
    add(
        f"{_hi(g, 'tr')}MISTRAL_API_KEY={k}\nmistral client ile embedding alıyorum, sonra FAISS indeksini GPU'da kuruyorum. İndeks kurulumu çöküyor.",
        k,
    )
    k = g.pick(ALNUM, 40)
    add(
        f"{_hi(g, 'en')}co = cohere.Client(\"{k}\")  # cohere production key\nrerank calls fail with 'unauthorized' only from your IP range",
        k,
    )
    k = "tgp_v1_" + g.pick(URLSAFE, 43)
    add(f"{_hi(g, 'es')}TOGETHER_API_KEY={k} python bench.py --provider together\nQuiero comparar con vuestra L40S.", k)
    k = "pplx-" + g.pick(ALNUM, 48)
    add(f"{_hi(g, 'vi')}Perplexity key: {k}\nem dùng nó để test agent, có bị chặn outbound không ạ?", k)
    k = "xai-" + g.pick(ALNUM, 80)
    add(f'XAI_API_KEY="{k}"\n{_hi(g, "en")}is outbound 443 to api.x.ai blocked on the spot instances?', k)
    k = "sk-" + g.hex(32)
    add(
        f"{_hi(g, 'tr')}DeepSeek API anahtarım sk ile başlıyor: {k}\nbunu vLLM yerine kullanmayı deniyorum, fiyat karşılaştırması için.",
        k,
    )
    k = g.pick(ALNUM + "-_", 40)
    add(
        f"{_hi(g, 'en')}Started vLLM with an API key so only our team can use it:\npython -m vllm.entrypoints.openai.api_server --model Qwen/Qwen2.5-14B-Instruct --api-key {k} --port 8000\nthe public port is open but every request gets 401",
        k,
    )
    k = g.pick(ALNUM, 32)
    add(
        f"{_hi(g, 'es')}Arranco text-generation-webui con --api --api-key {k} --listen, pero no me deja entrar desde mi PC.",
        k,
    )
    k = g.pick(ALNUM, 24)
    add(
        f'{_hi(g, "vi")}ollama đặt sau nginx, file cấu hình:\n\nlocation / {{\n  if ($http_authorization != "Bearer {k}") {{ return 401; }}\n  proxy_pass http://127.0.0.1:11434;\n}}\nbị lỗi 502.',
        k,
    )
    return out


def notebooks_and_tunnels(g: Gen) -> list[Sample]:
    out: list[Sample] = []

    def add(text: str, *secrets: str) -> None:
        out.append((text, list(secrets)))

    for lang in ("en", "es", "tr"):
        t = g.hex(48)
        port = g.choice(["8888", "8889", "8080"])
        intro = {
            "en": "Jupyter starts but I can't reach it:",
            "es": "Jupyter arranca pero no puedo entrar:",
            "tr": "Jupyter açılıyor ama bağlanamıyorum:",
        }[lang]
        add(
            f"{_hi(g, lang)}{intro}\n[I 2027-02-11 10:22:31.118 ServerApp] Jupyter Server 2.14.2 is running at:\n[I 2027-02-11 10:22:31.118 ServerApp] http://a6f1c2d9e0b4:{port}/lab?token={t}\n[I 2027-02-11 10:22:31.118 ServerApp]     http://127.0.0.1:{port}/lab?token={t}",
            t,
        )
    t = g.hex(48)
    add(
        f"{_hi(g, 'vi')}$ jupyter server list\nCurrently running servers:\nhttp://localhost:8888/?token={t} :: /workspace\nem mở link này trên máy mình thì không vào được.",
        t,
    )
    pw = g.password()
    add(
        f"~/.jupyter/jupyter_server_config.py\nc.ServerApp.ip = '0.0.0.0'\nc.ServerApp.token = '{pw}'\nc.ServerApp.open_browser = False\n\n{_hi(g, 'en')}is port 8888 exposed by default?",
        pw,
    )
    pw = g.password()
    add(
        f"{_hi(g, 'es')}~/.config/code-server/config.yaml:\nbind-addr: 0.0.0.0:8080\nauth: password\npassword: {pw}\ncert: false\nNo carga la extensión de Python.",
        pw,
    )
    ng = "2" + g.pick(ALNUM, 26) + "_" + g.pick(ALNUM, 21)
    add(
        f"{_hi(g, 'en')}$ ngrok config add-authtoken {ng}\nAuthtoken saved to configuration file: /root/.config/ngrok/ngrok.yml\n$ ngrok http 7860\nERR_NGROK_108 your account is limited to 1 simultaneous session",
        ng,
    )
    ng = "2" + g.pick(ALNUM, 26) + "_" + g.pick(ALNUM, 21)
    add(
        f'{_hi(g, "tr")}ngrok.yml:\nversion: "2"\nauthtoken: {ng}\ntunnels:\n  comfy:\n    proto: http\n    addr: 8188\nComfyUI tünel üzerinden çok yavaş.',
        ng,
    )
    token = base64.b64encode(
        json.dumps({"a": g.hex(32), "t": g.uuid(), "s": g.b64(32)}, separators=(",", ":")).encode()
    ).decode()
    add(
        f"{_hi(g, 'es')}sudo cloudflared service install {token}\nError: service already installed\n¿Cómo lo reinstalo en la instancia?",
        token,
    )
    ts = "tskey-auth-k" + g.pick(ALNUM, 10) + "CNTRL-" + g.pick(ALNUM, 33)
    add(
        f"{_hi(g, 'vi')}tailscale up --authkey={ts} --hostname=gpu-thue-01\nlệnh treo ở 'Starting...' vì không có /dev/net/tun.",
        ts,
    )
    tk = g.pick(ALNUM, 24)
    add(
        f'frpc.toml\nserverAddr = "{g.ip()}"\nserverPort = 7000\nauth.method = "token"\nauth.token = "{tk}"\n\n[[proxies]]\nname = "sd-webui"\ntype = "tcp"\nlocalPort = 7860\n{_hi(g, "en")}frpc can\'t connect from your network.',
        tk,
    )
    sk = g.pick(ALNUM + "!@#$%^&*(-_=+)", 50)
    add(
        f"{_hi(g, 'tr')}settings.py'de SECRET_KEY = '{sk}' satırı var, Gunicorn'u GPU makinesinde başlatınca static dosyalar gelmiyor.",
        sk,
    )
    pw = g.password()
    add(
        f'{_hi(g, "en")}gradio app launched with demo.launch(share=True, auth=("admin", "{pw}")) and the share link says \'This share link has expired\'',
        pw,
    )
    pw = g.password()
    add(
        f"{_hi(g, 'es')}python launch.py --listen --gradio-auth maria:{pw} --xformers\nA1111 se queda en 'Loading weights'.",
        pw,
    )
    return out

# ruff: noqa: E501  (one realistic sample per line reads better than wrapped ones)
"""Held-out 8, clean texts (3/3): the ids GPU platforms and tools print (instances, pods, jobs, files, messages,
share links, tunnels), ssh and git settings without credentials, look-alikes of "an id, a separator, 40 characters",
and word lists and sentences in the languages seed phrases come in.
"""

from __future__ import annotations

from .heldout8_shapes import ALNUM, B64, LOWER, Gen, wrap

# four common words, as a quick Cloudflare tunnel names itself
_WORDS = [
    "sunset",
    "grammar",
    "modem",
    "partly",
    "rider",
    "canal",
    "metro",
    "olive",
    "violet",
    "harbor",
    "pixel",
    "ranch",
    "tiger",
    "maple",
    "quartz",
    "delta",
]


def negatives3(g: Gen) -> list[str]:
    out: list[str] = []

    def add(body: str, lang: str | None = None) -> None:
        out.append(wrap(g, body, lang))

    # --- "an id, a separator, 40 characters" that is not a key pair ----------------------------------------------------
    for _ in range(2):
        add(f"Compare the two runs: base {g.hex(40)} / head {g.hex(40)}\nthe loss diverges only on head.")
    add(f"https://github.com/acme/llm-train/compare/{g.hex(40)}...{g.hex(40)}")
    add(
        f"AWS arn:aws:iam::{g.num(10**11, 10**12 - 1)}:role/gpurent-train / eu-west-1 is the role the job assumes, no keys in the box."
    )
    add(f"KMS key: arn:aws:kms:eu-west-1:{g.num(10**11, 10**12 - 1)}:key/{g.uuid()}\nCloudTrail event id {g.uuid()}")
    add(
        "$ aws s3 ls s3://ckpt-llama/step-12000/\n2027-01-11 10:12:13 4976698672 model-00001-of-00002.safetensors\n2027-01-11 10:12:40 1168138808 model-00002-of-00002.safetensors\n2027-01-11 10:12:41      23950 model.safetensors.index.json"
    )
    add(
        "Pulling from nvidia/pytorch\n"
        + "\n".join(f"{g.hex(12)}: Pull complete" for _ in range(5))
        + f"\nDigest: sha256:{g.hex(64)}\nStatus: Downloaded newer image for nvcr.io/nvidia/pytorch:24.12-py3"
    )
    add(
        f"Sec-WebSocket-Key: {g.pick(B64, 22)}==\nSec-WebSocket-Accept: {g.pick(B64, 27)}=\n(the jupyter websocket closes right after this)"
    )
    add(f'metadata:\n  name: trainer\n  uid: {g.uuid()}\n  resourceVersion: "{g.num(10**6, 10**8)}"\n  generation: 3')

    # --- ids of GPU clouds, APIs and jobs -----------------------------------------------------------------------------
    add(
        f'{{"data": [{{"id": "{g.hex(32)}", "name": "train-1", "ip": "{g.ip()}", "status": "active", "instance_type": {{"name": "gpu_8x_h100_sxm5"}}, "region": {{"name": "us-east-3"}}}}]}}'
    )
    add(
        f"$ vastai show instances\nID        Machine  Status   Num  Model     Util. %  vCPUs  RAM   Storage  SSH Addr       SSH Port\n{g.num(10**7, 10**8)}  {g.num(1000, 99999)}    running  1x   RTX_4090  97.0     16.0   64.0  100      ssh{g.num(1, 9)}.vast.ai   {g.num(10000, 60000)}"
    )
    add(
        f"runpodctl get pod\nID              NAME        STATUS   GPU\n{g.pick(LOWER, 14)}  comfy-sdxl  RUNNING  1 RTX A6000"
    )
    add(
        f"✓ Created objects.\n├── 🔨 Created mount /root/train.py\n└── 🔨 Created function train.\n✓ App deployed! 🎉\nView Deployment: https://modal.com/apps/{g.user()}/main/ap-{g.pick(ALNUM, 22)}"
    )
    add(
        f'prediction = replicate.predictions.create(...)\nprint(prediction.id)  # "{g.pick(LOWER, 26)}"\nstatus: failed, logs say CUDA error'
    )
    add(
        f'client.files.create(file=open("train.jsonl", "rb"), purpose="fine-tune") -> file-{(file_id := g.pick(ALNUM, 22))}\nclient.fine_tuning.jobs.create(training_file="file-{file_id}", model="gpt-4o-mini-2024-07-18") -> ftjob-{g.pick(ALNUM, 24)}'
    )
    add(
        f'batch = client.batches.retrieve("batch_{g.hex(32)}")\nprint(batch.status)  # "failed"\nmodel: ft:gpt-4o-mini-2024-07-18:acme::{g.pick(ALNUM, 8)}'
    )
    add(
        f"Message(id='msg_01{g.pick(ALNUM, 22)}', model='claude-3-5-sonnet-20241022', stop_reason='max_tokens', usage=Usage(input_tokens={g.num(1000, 90000)}, output_tokens=4096))"
    )
    add(
        f"wandb: Creating sweep with ID: {(sweep := g.pick(LOWER, 8))}\nwandb: View sweep at: https://wandb.ai/lucia-team/sdxl-lora/sweeps/{sweep}\nwandb: Run sweep agent with: wandb agent lucia-team/sdxl-lora/{sweep}"
    )
    add(
        f"torchrun --nnodes 2 --nproc_per_node 8 --rdzv_id {g.uuid()} --rdzv_backend c10d --rdzv_endpoint {g.ip()}:29400 train.py"
    )
    add(
        f"INFO {g.num(1, 12):02d}-{g.num(1, 28):02d} 10:11:12 api_server.py:712] args: Namespace(host=None, port=8000, api_key=None, served_model_name=None, model='meta-llama/Llama-3.1-70B-Instruct', tensor_parallel_size=8, seed=0)"
    )
    add(
        f"Session Status                online\nAccount                       {g.user()} (Plan: Free)\nForwarding                    https://{g.hex(4)}-{g.ip().replace('.', '-')}.ngrok-free.app -> http://localhost:7860"
    )
    add(
        f"Your quick Tunnel has been created! Visit it at (it may take some time to be reachable):\nhttps://{'-'.join(g.choice(_WORDS) for _ in range(4))}.trycloudflare.com"
    )
    add(
        f"Running on local URL:  http://0.0.0.0:7860\nRunning on public URL: https://{g.hex(18)}.gradio.live\nThis share link expires in 72 hours."
    )
    add(
        f"$ tailscale status\n100.{g.num(64, 127)}.{g.num(0, 255)}.{g.num(1, 254)}  gpu-rental-{g.num(1, 40)}  {g.user()}@  linux   -\n100.{g.num(64, 127)}.{g.num(0, 255)}.{g.num(1, 254)}  macbook      {g.user()}@  macOS   active; direct {g.ip()}:41641"
    )
    add(
        f"$ kaggle datasets list -s imagenet\nref                                      title                         size  lastUpdated\n{g.user()}/imagenet-{g.pick(LOWER, 6)}  ImageNet subset 100 classes   {g.num(1, 90)}GB  2026-0{g.num(1, 9)}-1{g.num(0, 9)}"
    )
    add(
        f"Fetching 12 files: 100%|██████████| 12/12\n/root/.cache/huggingface/hub/models--mistralai--Mistral-7B-Instruct-v0.3/snapshots/{g.hex(40)}"
    )
    add(
        f'$ cat .git/config\n[remote "origin"]\n\turl = https://github.com/{g.user()}/whisper-vi.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n[branch "main"]\n\tremote = origin'
    )
    for _ in range(2):
        add(
            f"Host rental\n    HostName {g.ip()}\n    Port {g.num(20000, 40000)}\n    User root\n    IdentityFile ~/.ssh/rental_ed25519\n    LocalForward 8888 localhost:8888"
        )
    add(
        "$ rclone listremotes\nr2:\nnas:\ngdrive:\n$ rclone lsd r2:\n          -1 2027-01-10 09:00:00        -1 checkpoints"
    )
    add(
        "secrets:\n  db_password:\n    file: ./db_password.txt\nservices:\n  db:\n    environment:\n      POSTGRES_PASSWORD_FILE: /run/secrets/db_password"
    )
    add(
        "$ sha256sum -c SHA256SUMS\n"
        + "\n".join(f"train-{n:05d}.parquet: OK" for n in range(g.num(3, 6)))
        + f"\ntrain-0000{g.num(6, 9)}.parquet: FAILED"
    )
    add(
        f"nvcc: NVIDIA (R) Cuda compiler driver\nCuda compilation tools, release 12.4, V12.4.{g.num(100, 199)}\nBuild cuda_12.4.r12.4/compiler.{g.num(30000000, 39999999)}_0"
    )
    add(
        f"\tGPU0\tGPU1\tGPU2\tGPU3\tNIC0\tCPU Affinity\tNUMA Affinity\nGPU0\t X \tNV18\tNV18\tNV18\tPXB\t0-{g.num(31, 63)}\t0\nGPU1\tNV18\t X \tNV18\tNV18\tPXB\t0-{g.num(31, 63)}\t0"
    )
    add(
        '{"train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 8, "zero_optimization": {"stage": 3, "offload_optimizer": {"device": "cpu"}}, "bf16": {"enabled": true}}'
    )
    add(
        f"compute_environment: LOCAL_MACHINE\ndistributed_type: FSDP\nmachine_rank: 0\nmain_process_ip: {g.ip()}\nmain_process_port: {g.num(20000, 30000)}\nnum_machines: 2\nnum_processes: 16\nmixed_precision: bf16"
    )
    add(
        "tokenizer.ggml.tokens: ['<unk>', '<s>', '</s>', '<0x00>', '<0x01>', ...]\ntokenizer.ggml.model: llama\ngeneral.file_type: Q4_K_M"
    )

    # --- the same tools, without the credential (placeholder, prompt, mask, reference) --------------------------------
    add('version: "3"\nagent:\n  authtoken: ${NGROK_AUTHTOKEN}\ntunnels:\n  comfy:\n    proto: http\n    addr: 8188')
    add(
        "$ cloudflared tunnel login\nYou have successfully logged in.\nIf you wish to copy your credentials to a server, they have been saved to:\n/root/.cloudflared/cert.pem"
    )
    add('auth.method = "token"\nauth.token = "{{ .Envs.FRP_AUTH_TOKEN }}"\n(frpc reads it from the environment)')
    add("vastai set api-key $(cat ~/vast_key.txt)\nvastai search offers 'gpu_name=H100_SXM num_gpus=8'")
    add(
        f"$ ngc config current\n+-------------+----------------------------------------------------------------------------------+---------------+\n| key         | value                                                                            | source        |\n+-------------+----------------------------------------------------------------------------------+---------------+\n| apikey      | ********************************************************************{g.pick(ALNUM, 4)} | user settings |\n| format_type | ascii                                                                            | user settings |"
    )
    add(
        'api {\n  credentials {\n    "access_key" = ${CLEARML_API_ACCESS_KEY}\n    "secret_key" = ${CLEARML_API_SECRET_KEY}\n  }\n}'
    )
    add(
        "OSError: Could not find kaggle.json. Make sure it's located in /root/.config/kaggle. Or use the environment method."
    )
    add(
        "wandb: Logging into wandb.ai. (Learn how to deploy a W&B server locally: https://wandb.me/wandb-server)\nwandb: You can find your API key in your browser here: https://wandb.ai/authorize\nwandb: Paste an API key from your profile and hit enter, or press ctrl+c to quit:"
    )
    add(
        "Enter your token (input will not be visible):\nAdd token as git credential? (Y/n) n\n(it hangs after this on the rental)"
    )
    add("[pypi]\n  username = __token__\n  password = <the token from pypi.org/manage/account/token>")
    add(
        "The .pgpass format is hostname:port:database:username:password, one line per server, and the file must be chmod 600 or psql ignores it."
    )
    add("MONGO_URI=mongodb+srv://<username>:<password>@cluster0.example.mongodb.net/?retryWrites=true")
    add(
        f"CELERY_BROKER_URL=redis://localhost:6379/0\nCELERY_RESULT_BACKEND=redis://{g.ip()}:6379/1  (no auth, it's on the private network)"
    )
    add(
        'requests.post(f"https://api.telegram.org/bot{TOKEN}/sendMessage", data={"chat_id": CHAT_ID, "text": msg})  # TOKEN from env'
    )
    add("webhook_url: https://discord.com/api/webhooks/<id>/<token>  # fill in after creating the webhook")
    add(
        "SLACK_WEBHOOK_URL=https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX  # the example from Slack's docs"
    )
    add(
        f"$ gh auth status\ngithub.com\n  ✓ Logged in to github.com account {g.user()} (keyring)\n  - Active account: true\n  - Git operations protocol: https\n  - Token: gho_************************************\n  - Token scopes: 'gist', 'read:org', 'repo', 'workflow'"
    )
    add(
        f"$ gcloud config list\n[core]\naccount = trainer@train-{g.pick('abcdefgh', 6)}.iam.gserviceaccount.com\nproject = train-{g.pick('abcdefgh', 6)}\n[compute]\nregion = europe-west4"
    )
    add(
        f"$ docker info | grep -i -E 'username|registry'\n Username: {g.user()}\n Registry: https://index.docker.io/v1/"
    )
    add(f"sshpass -f ~/.rental_pass ssh -p {g.num(20000, 40000)} root@{g.ip()} nvidia-smi")
    add(f"mysql -h {g.ip()} -u annotator -p labels\nEnter password:\nERROR 2003 (HY000): Can't connect to MySQL server")
    add(f'PGPASSWORD="$PGPASSWORD" psql "host={g.host()} port=5432 dbname=features user=trainer sslmode=require"')
    add(
        f"Xác nhận đơn thuê {g.num(10_000, 99_999)}: truy cập máy bằng lệnh ssh root@{g.ip()} -p {g.num(20000, 40000)} với khóa SSH bạn đã tải lên.",
        "vi",
    )
    add(
        "Jupyter'e girerken token soruyor; token'ı terminal çıktısından kopyalamam gerektiğini okudum ama çıktı kayboldu, nasıl yeniden görebilirim?",
        "tr",
    )
    add(
        "¿Dónde está el token de la API de la tienda? En mi perfil solo veo «Crear clave» y la lista de claves con los últimos cuatro caracteres.",
        "es",
    )

    # --- words in the languages of seed phrases -----------------------------------------------------------------------
    add(
        "$ head -12 bip39/english.txt   (the word list file, for my wallet-recovery tool's tests)\nabandon\nability\nable\nabout\nabove\nabsent\nabsorb\nabstract\nabsurd\nabuse\naccess\naccident"
    )
    add(
        "Palabras clave para el buscador: alquiler, tarjeta gráfica, factura, reembolso, memoria, disco, red, precio, semana, mes, contrato, soporte, ayuda.",
        "es",
    )
    add(
        "Poema que usamos como prompt: «Caminante, son tus huellas el camino y nada más; caminante, no hay camino, se hace camino al andar.»",
        "es",
    )
    add(
        "Frases de prueba del modelo de voz: buenos días, buenas tardes, muchas gracias, hasta luego, por favor, de nada, lo siento, no pasa nada, hasta mañana, bienvenido, enhorabuena, salud.",
        "es",
    )
    add(
        "Exemplo de legenda gerada pelo modelo: um cachorro correndo na praia ao pôr do sol, com ondas pequenas e céu laranja ao fundo."
    )
    add(
        "Réponse du modèle : « Le train part à huit heures, prends ton billet, ton sac, ta veste et n'oublie pas le chargeur du portable. »"
    )
    add(
        "Risposta del modello: «Domani mattina porto la bicicletta dal meccanico, poi vado al mercato a comprare pane, frutta, formaggio e vino.»"
    )
    add("Výstup modelu: Zítra ráno pojedu vlakem do Brna, koupím si kávu, přečtu noviny a odpoledne se vrátím domů.")
    add(
        "Prompt tiếng Việt để thử mô hình: hãy viết một đoạn văn ngắn về mùa thu Hà Nội, có lá vàng, gió nhẹ và mùi hoa sữa.",
        "vi",
    )
    add(
        "Türkçe test istemi: sonbaharda İstanbul'u anlatan, vapurları, martıları ve simitçileri içeren kısa bir paragraf yaz.",
        "tr",
    )
    add("图片标签：猫 狗 马 牛 羊 鸟 鱼 汽车 船 飞机 房子 树 花 山 水 行人\n模型把 猫 和 狗 搞混了")
    add("画像のキャプション例：海辺 を 走る 犬 と 夕焼け の 空 、 小さな 波 が 見える")
    add("한국어 캡션 예시: 해질녘 바닷가 를 달리는 강아지 와 주황색 하늘")
    add(
        "tags: vision, language, audio, robot, medical, legal, finance, code, math, music, video, game\n(categories of our eval set)"
    )
    add(
        "Lista de clases en español para el clasificador: avión, coche, pájaro, gato, ciervo, perro, rana, caballo, barco, camión.",
        "es",
    )
    add(
        "Nội dung câu hỏi: máy thuê có hỗ trợ ổ đĩa mạng không, tốc độ đọc ghi khoảng bao nhiêu, và có thể gia hạn thêm một tuần không?",
        "vi",
    )
    add(
        "Fiyatlar hakkında bir sorum var: haftalık kiralama ile aylık kiralama arasında indirim farkı ne kadar, ve fatura şirket adına kesilebilir mi?",
        "tr",
    )
    return out

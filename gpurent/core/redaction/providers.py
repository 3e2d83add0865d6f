"""Provider token formats detect-secrets lacks, in the shapes the published gitleaks rules give them.

Each is a distinctive prefix with a fixed alphabet and length, so it is safe without any context: a string that
starts `pplx-` and carries 48 random characters is a Perplexity key wherever it appears. The rule each one
follows is named (gitleaks `config/gitleaks.toml` ids); formats gitleaks only matches next to a provider's name
(a bare 32-character hex string, say) are left to the context patterns, which need a name such as `api_key`.
"""

from __future__ import annotations

import re

from .kinds import Kind

__all__ = ["PROVIDER_PATTERNS", "WRAPPED_HEAD", "starts_a_token"]

# No letter, digit, `_` or `-` may stand directly before a match (`xhf_…` is not a Hugging Face token): the caller
# checks it with `starts_a_token` instead of a look-behind, so that each pattern starts with its literal prefix,
# which `re` scans for quickly.

# After a short, word-like prefix (`as-`, `pa-`): a digit, a capital and a small letter among the next characters,
# so that "as-is" or a hyphenated word is not a token. `{0}` is the token's length less one.
_RANDOM = "(?=[A-Za-z0-9_-]{{0,{0}}}[0-9])(?=[A-Za-z0-9_-]{{0,{0}}}[A-Z])(?=[A-Za-z0-9_-]{{0,{0}}}[a-z])"

PROVIDER_PATTERNS: tuple[tuple[re.Pattern[str], Kind], ...] = (
    (re.compile(r"hf_[A-Za-z0-9]{30,}"), Kind.HUGGING_FACE_TOKEN),  # huggingface-access-token
    (re.compile(r"api_org_[A-Za-z0-9]{30,}"), Kind.HUGGING_FACE_TOKEN),  # huggingface-organization-api-token
    (re.compile(r"sk-ant-[a-z0-9]+-[A-Za-z0-9_-]{32,}"), Kind.ANTHROPIC_KEY),  # anthropic-api-key
    (re.compile(r"sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}"), Kind.OPENAI_KEY),  # openai-api-key
    (re.compile(r"sk-[A-Za-z0-9]{40,}"), Kind.OPENAI_KEY),
    (re.compile(r"sk-[a-f0-9]{32}\b"), Kind.SECRET),  # DeepSeek and other OpenAI-compatible APIs
    (re.compile(r"(?:sk|rk)_(?:live|test|prod)_[0-9A-Za-z]{10,}"), Kind.STRIPE_KEY),  # stripe-access-token
    (re.compile(r"whsec_[A-Za-z0-9+/=]{24,}"), Kind.STRIPE_KEY),
    (re.compile(r"github_pat_[A-Za-z0-9_]{50,}"), Kind.GITHUB_TOKEN),  # github-fine-grained-pat
    (re.compile(r"AIza[0-9A-Za-z_-]{35}"), Kind.GOOGLE_API_KEY),  # gcp-api-key
    (re.compile(r"ya29\.[0-9A-Za-z_-]{20,}"), Kind.GOOGLE_OAUTH_TOKEN),
    (re.compile(r"do[opr]_v1_[a-f0-9]{64}"), Kind.DIGITALOCEAN_TOKEN),  # digitalocean-*
    (re.compile(r"r8_[A-Za-z0-9]{37}"), Kind.REPLICATE_TOKEN),
    (re.compile(r"[xyzt]prv[1-9A-HJ-NP-Za-km-z]{100,112}"), Kind.WALLET_PRIVATE_KEY),
    # Further gitleaks rules with a distinctive prefix (the kind is the generic "API key or secret").
    (re.compile(r"gsk_[A-Za-z0-9]{48,}"), Kind.SECRET),  # Groq
    (re.compile(r"pplx-[A-Za-z0-9]{48}"), Kind.SECRET),  # perplexity-api-key
    (re.compile(r"shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}"), Kind.SECRET),  # shopify-*
    (re.compile(r"lin_api_[A-Za-z0-9]{40}"), Kind.SECRET),  # linear-api-key
    (re.compile(r"dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,44}"), Kind.SECRET),  # doppler-api-token
    (re.compile(r"hv[sb]\.[A-Za-z0-9_-]{90,300}"), Kind.SECRET),  # vault-service-token, vault-batch-token
    (re.compile(r"AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}"), Kind.PRIVATE_KEY),  # age-secret-key
    (re.compile(r"pul-[a-f0-9]{40}"), Kind.SECRET),  # pulumi-api-token
    (re.compile(r"ntn_[0-9]{11}[A-Za-z0-9]{35}"), Kind.SECRET),  # notion-api-token
    (re.compile(r"nf[pc]_[A-Za-z0-9]{36}"), Kind.SECRET),  # Netlify personal access token
    (re.compile(r"pscale_(?:tkn|oauth|pw)_[A-Za-z0-9_=.-]{32,64}"), Kind.SECRET),  # planetscale-*
    (re.compile(r"rubygems_[a-f0-9]{48}"), Kind.SECRET),  # rubygems-api-token
    (re.compile(r"\bLTAI[A-Za-z0-9]{20}\b"), Kind.SECRET),  # alibaba-access-key-id
    (re.compile(r"sha256~[A-Za-z0-9_-]{43}"), Kind.SECRET),  # openshift-user-token
    (re.compile(r"pnu_[A-Za-z0-9]{36}"), Kind.SECRET),  # prefect-api-token
    (re.compile(r"\b[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,70}"), Kind.SECRET),  # hashicorp-tf-api-token
    (re.compile(r"\bdt0c01\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{64}"), Kind.SECRET),  # dynatrace-api-token
    (re.compile(r"xkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}"), Kind.SECRET),  # sendinblue-api-token
    (re.compile(r"xsmtpsib-[a-f0-9]{64}-[A-Za-z0-9]{16}"), Kind.SECRET),
    (re.compile(r"ops_eyJ[A-Za-z0-9+/]{250,}={0,3}"), Kind.SECRET),  # 1password-service-account-token
    (re.compile(r"\bA3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})(?:-[A-Z0-9]{5}){3}\b"), Kind.SECRET),
    (re.compile(r"HRKU-AA[A-Za-z0-9_-]{58}"), Kind.SECRET),  # heroku-api-key-v2
    (re.compile(r"\bv1\.0-[a-f0-9]{24}-[a-f0-9]{146}"), Kind.SECRET),  # cloudflare-origin-ca-key
    (re.compile(r"dapi[a-f0-9]{32}(?:-\d)?"), Kind.SECRET),  # databricks-api-token
    (re.compile(r"sntry[us]_[A-Za-z0-9+/=_]{64,}"), Kind.SECRET),  # sentry-user-token, sentry-org-token
    (re.compile(r"PMAK-[a-fA-F0-9]{24}-[a-fA-F0-9]{34}"), Kind.SECRET),  # postman-api-token
    (re.compile(r"gl(?:sa|c)_[A-Za-z0-9+/_]{32,400}={0,3}"), Kind.SECRET),  # grafana-*
    (re.compile(r"(?:fo1_[A-Za-z0-9_-]{43}|fm[12][ar]?_[A-Za-z0-9+/]{100,}={0,3})"), Kind.SECRET),  # flyio
    (re.compile(r"sbp_[a-f0-9]{40}"), Kind.SECRET),  # Supabase
    # Lambda Cloud: `secret_<key name>_<32 hex>.<32 letters and digits>`, both parts (round 10, 0397)
    (re.compile(r"secret_[A-Za-z0-9_-]{1,64}_[0-9a-f]{32}\.[A-Za-z0-9]{32}"), Kind.SECRET),
    (re.compile(r"glpat-[A-Za-z0-9_-]{20,}"), Kind.GITLAB_TOKEN),  # gitlab-pat (also routable ones)
    (re.compile(r"glffct-[A-Za-z0-9_-]{20}"), Kind.GITLAB_TOKEN),  # gitlab-feature-flag-client-token
    (
        re.compile(r"(?<![A-Za-z0-9_~.])[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}"),
        Kind.SECRET,
    ),  # azure-ad-client-secret
    (re.compile(r"(?:EZAK|EZTK)[A-Za-z0-9]{54}"), Kind.SECRET),  # easypost
    (re.compile(r"rdme_[a-z0-9]{70}"), Kind.SECRET),  # readme-api-token
    (re.compile(r"shippo_(?:live|test)_[a-fA-F0-9]{40}"), Kind.SECRET),
    (re.compile(r"CLOJARS_[A-Za-z0-9]{60}"), Kind.SECRET),
    (re.compile(r"dckr_pat_[A-Za-z0-9_-]{27,}"), Kind.SECRET),  # Docker Hub personal access token
    (re.compile(r"nvapi-[A-Za-z0-9_-]{60,}"), Kind.SECRET),  # NVIDIA API catalog key
    (re.compile(r"key-[a-f0-9]{32}\b"), Kind.SECRET),  # mailgun-private-api-token
    (re.compile(r"SK[0-9a-fA-F]{32}\b"), Kind.TWILIO_KEY),  # twilio-api-key (upper-case hex too)
    # round 4 (issue 15): more published shapes (gitleaks and trufflehog rule ids where they have one)
    (re.compile(r"secret_[a-z0-9]{4,20}_[a-f0-9]{32}\b"), Kind.SECRET),  # Lambda Cloud API key
    (re.compile(r"GOCSPX-[A-Za-z0-9_-]{28}"), Kind.SECRET),  # gcp-oauth-client-secret
    (re.compile(r"sk-or-v1-[a-f0-9]{64}"), Kind.SECRET),  # openrouter-api-key
    (re.compile(r"xai-[A-Za-z0-9]{70,90}"), Kind.SECRET),  # xAI
    (re.compile(r"tgp_v1_[A-Za-z0-9_-]{40,}"), Kind.SECRET),  # Together AI
    (re.compile(r"tvly-(?:dev-|prod-)?[A-Za-z0-9]{32}"), Kind.SECRET),  # Tavily
    (re.compile(r"pcsk_[A-Za-z0-9]{4,8}_[A-Za-z0-9]{50,}"), Kind.SECRET),  # Pinecone
    (re.compile(r"csk-[a-z0-9]{40,}"), Kind.SECRET),  # Cerebras
    (re.compile(r"fw_[A-Za-z0-9]{20,}"), Kind.SECRET),  # Fireworks AI
    (re.compile(r"rpa_[A-Z0-9]{40,}"), Kind.SECRET),  # RunPod
    (re.compile(r"local-[a-f0-9]{40}\b"), Kind.SECRET),  # W&B server API key
    (re.compile(r"1//0[A-Za-z0-9_-]{40,}"), Kind.GOOGLE_OAUTH_TOKEN),  # Google OAuth refresh token (gcloud, firebase)
    (re.compile(r"(?:EAAA|sq0atp-)[A-Za-z0-9_-]{22,60}"), Kind.SQUARE_SECRET),  # square-access-token
    (re.compile(r"AAAA[A-Za-z0-9_-]{7}:APA91b[A-Za-z0-9_-]{100,}"), Kind.SECRET),  # firebase cloud messaging
    (re.compile(r"sk\.eyJ[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{16,}"), Kind.SECRET),  # mapbox-api-token (`pk.` is public)
    (re.compile(r"ATATT3[A-Za-z0-9_=-]{150,}"), Kind.SECRET),  # atlassian-api-token
    (re.compile(r"ATBB[A-Za-z0-9_=.-]{28,}"), Kind.SECRET),  # bitbucket app password
    (re.compile(r"xapp-\d-[A-Z0-9]+-\d+-[a-z0-9]+"), Kind.SLACK_TOKEN),  # slack-app-token
    (re.compile(r"xox[ec]-\d-[A-Za-z0-9-]{20,}"), Kind.SLACK_TOKEN),  # slack-config-access/refresh-token
    (re.compile(r"gl(?:dt|rt|ptt|soat|cbt|oas|imt|agent|ft|wt)-[A-Za-z0-9_-]{20,}"), Kind.GITLAB_TOKEN),  # gitlab-*
    (re.compile(r"GR1348941[A-Za-z0-9_-]{20}"), Kind.GITLAB_TOKEN),  # gitlab-runner-registration-token
    (re.compile(r"tskey-(?:auth|api|client|scim|webhook)-[A-Za-z0-9]{6,}-[A-Za-z0-9]{20,}"), Kind.SECRET),  # tailscale
    (re.compile(r"(?:IQoJb3JpZ2luX2Vj|FwoGZXIvYXdz)[A-Za-z0-9+/]{80,}={0,2}"), Kind.SECRET),  # AWS STS session token
    (re.compile(r"lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}"), Kind.SECRET),  # LangSmith (trufflehog's langsmith)
    (re.compile(r"NR(?:AK|II|JS)-[A-Za-z0-9-]{19,32}"), Kind.SECRET),  # new-relic-user-api-key, insert, browser
    # round 8 (issue 32, 0391): GPU and AI tools' tokens (gitleaks and trufflehog rules, else the provider's own form)
    (re.compile(r"KGAT_[A-Za-z0-9]{32}"), Kind.SECRET),  # Kaggle API token (`KAGGLE_API_TOKEN`, ~/.kaggle/access_token)
    (re.compile(r"wandb_v1_[A-Za-z0-9_]{60,}"), Kind.SECRET),  # Weights & Biases API key, v1 form
    (re.compile(r"dckr_oat_[A-Za-z0-9_-]{32}"), Kind.SECRET),  # Docker Hub organization access token (trufflehog)
    (re.compile(r"sb_secret_[A-Za-z0-9_-]{20,}"), Kind.SECRET),  # Supabase secret key (`sb_publishable_` is public)
    (re.compile(rf"as-{_RANDOM.format(21)}[A-Za-z0-9]{{22}}(?![A-Za-z0-9_-])"), Kind.SECRET),  # Modal token secret
    (re.compile(rf"pa-{_RANDOM.format(47)}[A-Za-z0-9_-]{{40,48}}(?![A-Za-z0-9_-])"), Kind.SECRET),  # Voyage AI
    (re.compile(r"sk_[a-f0-9]{48}(?![A-Za-z0-9_-])"), Kind.SECRET),  # ElevenLabs (trufflehog's elevenlabs)
    (re.compile(r"sk-lf-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"), Kind.SECRET),  # Langfuse
    (re.compile(r"sgp_(?:[a-fA-F0-9]{16}_|local_)?[a-fA-F0-9]{40}"), Kind.SECRET),  # sourcegraph-access-token
    (re.compile(r"ico-[A-Za-z0-9]{32}(?![A-Za-z0-9_-])"), Kind.SECRET),  # infracost-api-token
    (re.compile(r"cf(?:ut|at|k)_[A-Za-z0-9]{40}[a-f0-9]{8}"), Kind.SECRET),  # Cloudflare API token, global API key
    (re.compile(r"fc-[a-f0-9]{32}(?![A-Za-z0-9_-])"), Kind.SECRET),  # Firecrawl
    (re.compile(r"llx-[A-Za-z0-9]{48}"), Kind.SECRET),  # LlamaCloud
    (re.compile(r"jina_[A-Za-z0-9]{56,80}"), Kind.SECRET),  # Jina AI
)

# The head of a provider token that a terminal or a chat wrapped at the end of a line: too short on its own for
# the pattern above, so it counts only where the next line carries on with the rest (see `detectors._wrapped`).
WRAPPED_HEAD = re.compile(
    r"(?m)(?:hf_|sk-(?:proj-|svcacct-|admin-|ant-[a-z0-9]+-)?|gh[pousr]_|github_pat_|glpat-|xox[abposer]-|r8_|gsk_"
    r"|AIza|npm_|pypi-|dckr_pat_|nvapi-|SG\.)[A-Za-z0-9_.-]{8,}(?=[\"']?[ \t]*\\?\r?$)"
)


def starts_a_token(text: str, start: int) -> bool:
    """Whether a provider match at `start` is not the tail of a longer word."""
    return start == 0 or not (text[start - 1].isalnum() or text[start - 1] in "_-")

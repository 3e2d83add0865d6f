"""Idempotency: a POST that creates or moves something takes effect at most once per key (DESIGN §5). The keys
(claim, store, replay; no HTTP) are keys.py; a request's key, owner and fingerprint and the helpers views call
(`api_idempotent`, `api_idempotent_known`, `form_action`) are request.py."""

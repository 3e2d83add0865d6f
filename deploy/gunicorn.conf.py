"""gunicorn on a web node: `gunicorn -c deploy/gunicorn.conf.py config.wsgi` (deploy/README.md, gpurent-web.service).

The numbers come from the environment file, so every node of the shop runs the same file:

- `WEB_BIND` (default `127.0.0.1:8000`): the node's private address that nginx's upstream names. Never a public
  interface: the shop believes `X-Forwarded-Proto` from whoever reaches it, and `X-Real-IP` from `TRUSTED_PROXIES`.
- `WEB_CONCURRENCY` (default 4; also read by the settings): worker processes. More than one needs a shared
  `CACHE_URL` (Redis): gunicorn refuses to start otherwise, as `check --deploy` does (decision 0405).
- `WEB_THREADS` (default 4): threads per worker. Each thread keeps one PostgreSQL connection for
  `DATABASE_CONN_MAX_AGE` seconds, so a node holds up to workers × threads connections (decision 0386).
"""

import os

bind = [os.environ.get("WEB_BIND", "127.0.0.1:8000")]
workers = int(os.environ.get("WEB_CONCURRENCY", "4"))
threads = int(os.environ.get("WEB_THREADS", "4"))
worker_class = "gthread"
proc_name = "gpurent-web"
# A worker silent for this long is killed and replaced; nginx's proxy_read_timeout (60 s) is longer, so nginx
# sees the failure instead of giving up first.
timeout = 30
# On SIGTERM (systemctl stop, a deploy) requests in progress get this long to finish; nginx sends new ones to the
# other nodes as soon as this one stops accepting (deploy/README.md, "Upgrades").
graceful_timeout = 25
# nginx talks to the nodes without keep-alive connections (deploy/nginx/gpurent.conf says why).
keepalive = 2


def on_starting(server: object) -> None:
    """Refuse to start several workers on a cache of each process (gpurent/core/checks.py, decision 0405).

    The rule of `manage.py check --deploy`, with the number of workers gunicorn will really run (the command line
    may override `WEB_CONCURRENCY`). Runs in the master before any worker or socket exists; reads the settings
    only, without setting Django up.
    """
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")
    from gpurent.core.checks import shared_cache_errors

    errors = shared_cache_errors(int(server.cfg.workers))  # type: ignore[attr-defined]
    if errors:
        raise RuntimeError("\n".join(f"{error.id}: {error.msg}\nHINT: {error.hint}" for error in errors))

"""System checks of the production layout: several web processes share one cache (decision 0405).

The default cache is where the registration throttle counts attempts (`gpurent.accounts.throttling`), where
whole public pages and rendered fragments are kept (`gpurent.core.caching.pages`,
`gpurent.core.caching.fragments`), and, in production with Redis, where sessions are read first (decision 0406).
A cache in each process's memory
(`CACHE_URL=locmem://`, the default) or on each machine's disk (`file://`) is one count per process: with four
workers on two machines a limit of 10 registrations an hour is really 80. `dummy://` counts nothing at all.

How many web processes serve the shop is read from `WEB_CONCURRENCY`, gunicorn's own variable for its number of
workers, which `deploy/gunicorn.conf.py` reads too (default 4 in both). The check cannot see other machines:
several web machines are several web processes whatever each one's `WEB_CONCURRENCY`, so `deploy/README.md`
sets `CACHE_URL=redis://…` on all of them; `WEB_CONCURRENCY=1` says that this process is the shop's only one.
"""

from __future__ import annotations

from django.conf import settings
from django.core import checks

__all__ = ["SHARED_CACHE_BACKENDS", "check_shared_cache", "shared_cache_errors"]

# Django's backends whose entries, counters included, every process of every machine reads and moves.
SHARED_CACHE_BACKENDS = frozenset(
    {"django.core.cache.backends.redis.RedisCache", "django.core.cache.backends.db.DatabaseCache"}
)
_NO_CACHE = "django.core.cache.backends.dummy.DummyCache"
_HINT = (
    "Set CACHE_URL=redis://host:6379/0 (or db://table after createcachetable) on every web machine "
    "(deploy/README.md); WEB_CONCURRENCY=1 only where one gunicorn worker on one machine is the shop's only "
    "web process."
)


def shared_cache_errors(web_processes: int) -> list[checks.CheckMessage]:
    """What is wrong with the default cache when `web_processes` web processes serve the shop.

    Returns:
        `core.E001` for a cache of each process or machine with more than one web process, `core.E002` for
        `dummy://` (throttles would count nothing), else nothing.
    """
    backend = settings.CACHES["default"]["BACKEND"]
    if backend in SHARED_CACHE_BACKENDS:
        return []
    if backend == _NO_CACHE:
        return [
            checks.Error(
                "CACHE_URL is dummy://: the registration throttle counts nothing and no page is cached.",
                hint=_HINT,
                id="core.E002",
            )
        ]
    if web_processes > 1:
        return [
            checks.Error(
                f"CACHE_URL names a cache of each process or machine ({backend.rsplit('.', 1)[-1]}) but "
                f"{web_processes} web processes serve the shop (WEB_CONCURRENCY, gunicorn's workers): each would "
                "count the registration throttle and keep cached pages on its own.",
                hint=_HINT,
                id="core.E001",
            )
        ]
    return []


def check_shared_cache(app_configs: object = None, **kwargs: object) -> list[checks.CheckMessage]:
    """`manage.py check --deploy`: the default cache is shared when several web processes are configured.

    Registered with the deployment checks only: tests and `make run` run one process on purpose.
    `deploy/gunicorn.conf.py` runs the same rule when gunicorn starts, with its real number of workers.
    """
    return shared_cache_errors(int(settings.WEB_CONCURRENCY))

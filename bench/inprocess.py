"""What the in-process benchmarks share: a scratch PostgreSQL database, production settings, the demo catalog.

`bench/request_profile.py` (statements and wall time) and `bench/request_cpu.py` (CPU time) both run Django's test
client against a database they create for the run and drop after. A database that already exists is refused
unless `--replace` is given: pointed at a real database by mistake, a benchmark must not drop it.
"""

from __future__ import annotations

import argparse
import os
import secrets
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

# The estimate both benchmarks send: a 70B model served with vLLM, 16 sequences of 8k tokens.
ESTIMATE = {
    "model": "llama-3.1-70b",
    "workload": "inference",
    "seq_len": 8192,
    "concurrent_sequences": 16,
    "precision": {"weights": "bf16", "compute": "bf16", "kv_cache": "bf16"},
    "runtime": {"engine": "vllm"},
}


def add_database_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--database-url", required=True, help="postgres://.../NAME: NAME is created and dropped")
    parser.add_argument("--replace", action="store_true", help="drop NAME first if it exists (it is refused else)")


@contextmanager
def scratch_database(parser: argparse.ArgumentParser, args: argparse.Namespace) -> Iterator[None]:
    """Create the PostgreSQL database of `args.database_url` (refused if it exists, unless `--replace`) and drop
    it when done, after closing Django's connections."""
    server, _, name = args.database_url.rpartition("/")
    if not name.isidentifier():
        parser.error("the database name must be a plain identifier")
    with psycopg.connect(f"{server}/postgres", autocommit=True) as admin:
        exists = admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        if exists and not args.replace:
            parser.error(f"database {name} exists: name a new one, or pass --replace to drop it")
        admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        admin.execute(f"CREATE DATABASE {name}")
    try:
        yield
    finally:
        if "django" in sys.modules:
            from django.db import connections

            connections.close_all()
        with psycopg.connect(f"{server}/postgres", autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@contextmanager
def scratch_django(parser: argparse.ArgumentParser, args: argparse.Namespace, **settings: str) -> Iterator[None]:
    """Create the database of `args.database_url`, set up Django on it with production settings (and `settings`
    as environment), migrate it and load the demo catalog; drop the database when done."""
    with scratch_database(parser, args):
        os.environ.update(
            DJANGO_SETTINGS_MODULE="config.settings.production",
            SECRET_KEY=secrets.token_urlsafe(64),
            ALLOWED_HOSTS="testserver",
            DATABASE_URL=args.database_url,
            SECURE_SSL_REDIRECT="0",
            **settings,
        )
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        call_command("load_demo", verbosity=0)
        yield


def first_gpu_in_stock() -> str:
    """The slug of the catalog's first GPU, its stock raised so that a benchmark never runs out."""
    from gpurent.catalog.models import GpuModel

    gpu = GpuModel.objects.order_by("position", "name").first()
    assert gpu is not None
    GpuModel.objects.filter(pk=gpu.pk).update(stock_lots=10**8)
    return gpu.slug

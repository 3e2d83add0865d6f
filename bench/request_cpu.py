"""CPU per request, in process: what one API request costs this process, without network or server.

    .venv/bin/python bench/request_cpu.py --database-url postgres://postgres@127.0.0.1:5432/gpurent_cpu
        [--requests 300] [--profile order] [--sort tottime] [--top 40] [healthz catalog built estimate order ...]

Creates (and drops after) the database of the URL, migrates it and loads the demo catalog, then sends each
named request through Django's test client with production settings, one customer and one API token, after 20
warm-up requests, and prints the median `time.process_time()` (CPU of this process: Python and the database
driver, not PostgreSQL's own) and wall time per request. `healthz` is the baseline to divide by; `built` is the
token catalog call built by ninja (an htmx request is never served from the cache); `order` places an order
for the first GPU (its stock raised first, the unpaid-order limit lifted). `estimate-floor` and `order-floor` are
the same requests to `/bench-floor/...` (bench/floor/: the endpoint's statements replayed without its Python, as
`http_bench.py` parts 2 and 3 measure them over HTTP), so the difference to `estimate` and `order` is the CPU of
the endpoint's own Python (issue 30). `--profile NAME` adds a cProfile of that request. CPU time is less
sensitive than throughput to other work on the machine, but still moves with it: compare before and after in
alternating runs.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import statistics
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from inprocess import ESTIMATE, add_database_arguments, first_gpu_in_stock, scratch_django

NAMES = ("healthz", "catalog", "built", "estimate", "order", "estimate-floor", "order-floor")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_database_arguments(parser)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--profile", choices=NAMES)
    parser.add_argument("--sort", default="cumulative", help="pstats order: cumulative, tottime, ...")
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("names", nargs="*", help=f"requests to time, of {', '.join(NAMES)} (default: all)")
    args = parser.parse_args()
    args.names = args.names or list(NAMES)
    if unknown := sorted(set(args.names) - set(NAMES)):
        parser.error(f"unknown request {', '.join(unknown)}: choose among {', '.join(NAMES)}")
    with scratch_django(parser, args, ORDERS_MAX_UNPAID_PER_ACCOUNT="1000000000"):
        run(args)


def run(args: argparse.Namespace) -> None:
    from django.contrib.auth import get_user_model
    from django.test import Client, override_settings

    from gpurent.accounts.services import api_token_create

    gpu_slug = first_gpu_in_stock()
    user = get_user_model().objects.create_user("cpu@example.com", "bench passphrase", first_name="C", last_name="P")
    bearer = {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=user, name='bench')[1]}"}
    client = Client()
    order = json.dumps({"gpu": gpu_slug, "term_days": 7, "lots": 1, "environment": "pytorch"})
    estimate = json.dumps(ESTIMATE)

    def post(path: str, body: str) -> Any:
        key = uuid.uuid4().hex
        return client.post(path, body, content_type="application/json", HTTP_IDEMPOTENCY_KEY=key, **bearer)

    requests: dict[str, Callable[[], Any]] = {
        "healthz": lambda: client.get("/healthz"),
        "catalog": lambda: client.get("/api/v1/catalog", **bearer),
        "built": lambda: client.get("/api/v1/catalog", HTTP_HX_REQUEST="true", **bearer),
        "estimate": lambda: post("/api/v1/estimates", estimate),
        "order": lambda: post("/api/v1/orders", order),
        "estimate-floor": lambda: post("/bench-floor/api/v1/estimates", estimate),
        "order-floor": lambda: post("/bench-floor/api/v1/orders", order),
    }
    # The floor routes (bench/floor/urls.py: the shop's routes, then the floor's), for every request alike.
    override_settings(ROOT_URLCONF="floor.urls").enable()
    for name in args.names:
        send = requests[name]
        for _ in range(20):
            response = send()
            assert response.status_code < 300, response.content[:300]
        profile = cProfile.Profile() if args.profile == name else None
        cpu, wall = [], []
        if profile:
            profile.enable()
        for _ in range(args.requests):
            cpu_start, wall_start = time.process_time(), time.perf_counter()
            send()
            cpu.append(time.process_time() - cpu_start)
            wall.append(time.perf_counter() - wall_start)
        if profile:
            profile.disable()
            pstats.Stats(profile).sort_stats(args.sort).print_stats(args.top)
        print(
            f"{name:10} CPU {1000 * statistics.median(cpu):6.2f} ms   wall {1000 * statistics.median(wall):6.2f} ms"
            "   (medians per request)",
            flush=True,
        )


if __name__ == "__main__":
    main()

"""Where one API write spends its time: statements, SQL time and Python time of an estimate and an order.

    .venv/bin/python bench/request_profile.py --database-url postgres://postgres@127.0.0.1:5432/gpurent_prof
        [--requests 200] [--profile estimate|order] [--top 25]

In process, through Django's test client (no server, no network), on an empty database it creates (and drops
after) on the PostgreSQL server of the URL; production-like settings (`config.settings.production`, DEBUG off).
For `POST /api/v1/estimates`, `POST /api/v1/orders` and the baseline `GET /api/v1/catalog`, all with one
bearer token, it reports the median time per request, the SQL statements each runs (Django's
`CaptureQueriesContext`, BEGIN/COMMIT not included on PostgreSQL) and the share of the time spent waiting for
them. `--profile` adds a cProfile of that request, sorted by cumulative time. Each order is placed by a
customer of its own (as many customers as requests), so none is refused for its unpaid orders.
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
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from inprocess import ESTIMATE, add_database_arguments, first_gpu_in_stock, scratch_django


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_database_arguments(parser)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--profile", choices=["estimate", "order", "catalog"])
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--sort", default="cumulative", help="pstats order: cumulative, tottime, ...")
    args = parser.parse_args()
    with scratch_django(parser, args):
        run(args)


def run(args: argparse.Namespace) -> None:
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from gpurent.accounts.services import api_token_create

    gpu_slug = first_gpu_in_stock()
    users = get_user_model().objects
    tokens = []
    for index in range(args.requests + 20):
        user = users.create_user(f"p{index}@example.com", "profile passphrase", first_name="P", last_name="Q")
        tokens.append(api_token_create(user=user, name="profile")[1])
    client = Client()
    order_body = json.dumps({"gpu": gpu_slug, "term_days": 7, "lots": 1, "environment": "pytorch"})
    estimate_body = json.dumps(ESTIMATE)

    def catalog(index: int):  # type: ignore[no-untyped-def]
        return client.get("/api/v1/catalog", HTTP_AUTHORIZATION=f"Bearer {tokens[0]}")

    def estimate(index: int):  # type: ignore[no-untyped-def]
        return client.post(
            "/api/v1/estimates", estimate_body, content_type="application/json",
            HTTP_AUTHORIZATION=f"Bearer {tokens[0]}", HTTP_IDEMPOTENCY_KEY=uuid.uuid4().hex,
        )  # fmt: skip

    def order(index: int):  # type: ignore[no-untyped-def]
        return client.post(
            "/api/v1/orders", order_body, content_type="application/json",
            HTTP_AUTHORIZATION=f"Bearer {tokens[index]}", HTTP_IDEMPOTENCY_KEY=uuid.uuid4().hex,
        )  # fmt: skip

    requests = {"catalog": (catalog, 200), "estimate": (estimate, 201), "order": (order, 201)}
    print(f"{'request':10} {'median ms':>10} {'SQL ms':>8} {'SQL %':>6} {'statements':>11} {'body KB':>8}")
    for label, (send, status) in requests.items():
        for index in range(10):  # warm-up: connection, caches, the tokens' last-used write
            assert send(args.requests + 10 + index).status_code == status
        times, sql_times, counts = [], [], []
        last: list[str] = []
        per_position: dict[int, list[float]] = {}
        size = 0
        for index in range(args.requests):
            with CaptureQueriesContext(connection) as captured:
                start = time.perf_counter()
                response = send(index)
                times.append(time.perf_counter() - start)
            assert response.status_code == status, response.content[:300]
            size = len(response.content)
            sql_times.append(sum(float(query["time"]) for query in captured.captured_queries))
            counts.append(len(captured.captured_queries))
            last = [query["sql"] for query in captured.captured_queries]
            for position, query in enumerate(captured.captured_queries):
                per_position.setdefault(position, []).append(float(query["time"]) * 1000)
        median, sql = statistics.median(times) * 1000, statistics.median(sql_times) * 1000
        print(
            f"{label:10} {median:10.2f} {sql:8.2f} {100 * sql / median:5.0f}% {statistics.median(counts):11.0f}"
            f" {size / 1024:8.1f}"
        )
        for position, sql_text in enumerate(last):
            print(f"    {statistics.median(per_position[position]):6.2f} ms  {sql_text[:120]}")
    if args.profile:
        send, _ = requests[args.profile]
        profiler = cProfile.Profile(time.process_time)
        profiler.enable()
        for index in range(args.requests):
            send(index)
        profiler.disable()
        pstats.Stats(profiler).sort_stats(args.sort).print_stats(args.top)


if __name__ == "__main__":
    main()

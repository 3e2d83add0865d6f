"""Issue 30's page targets for bench/http_bench.py: signed-in pages, the catalog under orders, and the signed-in
guide index at 7 and 700 GPU models. Run by `http_bench.py` (parts 7, 8 and 9, before part 5), which passes
itself as `bench` (its `Target`, `load`, `alternate`, `warm`, `report`, ...), so every target lands in its one
table.

- Part 7: a signed-in customer's `/`, a GPU page and `/balance/` (1,000 ledger lines: the page shows 50, each
  with two amounts) against `/healthz`, 4 clients each, every client a customer of its own with a session and
  a CSRF cookie, as a browser sends them.
- Part 8: anonymous catalog pages (two clients on `/`, two on a GPU page) while four more clients (customers of
  their own) place one order per 20 page views between them (`POST /api/v1/orders`, each order moving the stock
  the pages show); the baseline is `/healthz` under the same mix (one order per 20 of its requests), so the
  ratio is the pages' own cost, cache misses included, and not the orders' CPU. Printed beside it: the pages
  without orders, and the pages with orders against `/healthz` without them.
- Part 9: the signed-in `/guides/` against `/healthz` with the catalog at its demo size (7 models), then with
  693 more (copies of the last one, as part 5 makes them), then the copies removed again: the cost at 700 over
  the cost at 7.
"""

from __future__ import annotations

import http.client
import statistics
import threading
import time
from collections.abc import Callable
from types import ModuleType
from typing import Any

GUIDE_COPIES = "-p9-"  # in the slugs of part 9's copies, removed after it


def browser_cookies(bench: ModuleType, port: int, session: dict[str, str]) -> dict[str, str]:
    """`session`'s cookie header plus the CSRF cookie its first page sets: what a browser sends next."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    connection.request("GET", "/", headers=session)
    response = connection.getresponse()
    response.read()
    connection.close()
    csrf = next(
        (
            part.split(";", 1)[0]
            for part in response.headers.get_all("Set-Cookie") or []
            if part.startswith("csrftoken=")
        ),
        "",
    )
    return {"Cookie": f"{session['Cookie']}; {csrf}" if csrf else session["Cookie"]}


def signed_in_pages(bench: ModuleType, dsn: str, port: int, rounds: int, seconds: float, gpu_slug: str) -> None:
    """Part 7 (see the module docstring)."""
    print("\n7. signed-in pages vs /healthz (4 clients, 4 customers)")
    customers = []
    for index in range(4):
        user_id, _, session = bench._customer(f"page{index}@example.com")
        bench.ledger_history(dsn, user_id, 1000)
        customers.append(browser_cookies(bench, port, session))
    healthz = bench.Target("/healthz", "/healthz")
    pages = {
        "signed-in /": "/",
        "signed-in GPU page": f"/gpus/{gpu_slug}/",
        "signed-in /balance/": "/balance/",
    }
    targets = {
        name: [bench.Target(name, path, headers=cookies) for cookies in customers] for name, path in pages.items()
    }
    bench.warm(port, [healthz, *(group[0] for group in targets.values())])
    measure: dict[str, Callable[[], Any]] = {"/healthz": lambda: bench.load(port, healthz, 4, seconds)}
    for name, group in targets.items():
        measure[name] = lambda group=group: bench.load(port, group, 4, seconds)
    runs = bench.alternate(rounds, measure)
    for name, run in runs.items():
        print(f"  {name:22} {run.per_second:8.0f} req/s  {run.size / 1024:7.1f} KB")
    base = runs["/healthz"].per_second
    for name, floor in (("signed-in /", 0.5), ("signed-in GPU page", 0.5), ("signed-in /balance/", 0.25)):
        ratio = runs[name].per_second / base
        bench.report(f"{name} / healthz throughput", ratio, f">= {floor}", ratio >= floor)


def _with_orders(port: int, readers: list[Any], buyers: list[Any], seconds: float) -> tuple[float, int]:
    """`readers` (one keep-alive connection each) sending back to back for `seconds` while `buyers` (one
    connection each) place orders, one per 20 of the readers' answers so far, however long an order takes (one
    buyer alone falls behind when orders are slow): (the readers' requests per second, orders placed)."""
    counts = [0] * len(readers)
    placed = [0]
    lock = threading.Lock()
    errors: list[str] = []
    barrier = threading.Barrier(len(readers) + len(buyers) + 1)
    stop = [0.0]

    def send(connection: http.client.HTTPConnection, target: Any) -> None:
        body = target.body() if target.body else None
        connection.request(target.method, target.path, body=body, headers=target.headers)
        response = connection.getresponse()
        content = response.read()
        if response.status != target.expect:
            errors.append(f"{target.name}: {response.status} {content[:300]!r}")
            raise RuntimeError(errors[-1])

    def reader(index: int) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        barrier.wait()
        while time.perf_counter() < stop[0] and not errors:
            send(connection, readers[index])
            counts[index] += 1
        connection.close()

    def buy(index: int) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        barrier.wait()
        while time.perf_counter() < stop[0] and not errors:
            with lock:
                due = (placed[0] + 1) * 20 <= sum(counts)
                placed[0] += due
            if not due:
                time.sleep(0.0005)
                continue
            send(connection, buyers[index])
        connection.close()

    threads = [threading.Thread(target=reader, args=(index,)) for index in range(len(readers))]
    threads += [threading.Thread(target=buy, args=(index,)) for index in range(len(buyers))]
    for thread in threads:
        thread.start()
    stop[0] = time.perf_counter() + seconds
    start = time.perf_counter()
    barrier.wait()
    for thread in threads:
        thread.join()
    if errors:
        raise SystemExit(errors[0])
    return sum(counts) / (time.perf_counter() - start), placed[0]


def catalog_under_orders(bench: ModuleType, port: int, rounds: int, seconds: float, gpu_slug: str) -> None:
    """Part 8 (see the module docstring)."""
    print("\n8. anonymous catalog pages while other clients place 1 order per 20 page views (4 readers)")
    buyers = []
    for index in range(4):  # customers of their own: one customer's orders queue on its row (decision 0122)
        headers = bench._Keyed(
            {**bench._customer(f"orders8-{index}@example.com")[1], "Content-Type": "application/json"}
        )
        buyers.append(bench.Target("order", "/api/v1/orders", "POST", headers, bench._order_body(gpu_slug), 201))
    healthz = bench.Target("/healthz", "/healthz")
    pages = [bench.Target("catalog /", "/"), bench.Target("GPU page", f"/gpus/{gpu_slug}/")] * 2
    bench.warm(port, [healthz, *pages[:2]])
    placed: dict[str, list[int]] = {"/healthz": [], "pages": []}

    def under_orders(name: str, readers: list[Any]) -> Any:
        per_second, orders = _with_orders(port, readers, buyers, seconds)
        placed[name].append(orders)
        return bench.Run(per_second, 0)

    runs = bench.alternate(
        rounds,
        {
            "/healthz, 1 order per 20": lambda: under_orders("/healthz", [healthz] * 4),
            "pages, 1 order per 20": lambda: under_orders("pages", pages),
            "/healthz": lambda: bench.load(port, healthz, 4, seconds),
            "pages, no orders": lambda: bench.load(port, pages, 4, seconds),
        },
    )
    for name, run in runs.items():
        print(f"  {name:26} {run.per_second:8.0f} req/s")
    for name, label in (("pages", "the pages were"), ("/healthz", "/healthz was")):
        median = statistics.median(placed[name][-rounds:]) if placed[name] else 0
        print(f"  orders placed per {seconds:g} s round while {label} read: {median:.0f} (median)")
    ratio = runs["pages, 1 order per 20"].per_second / runs["/healthz, 1 order per 20"].per_second
    bench.report("catalog pages / healthz, 1 order per 20 views", ratio, ">= 0.7", ratio >= 0.7)
    quiet = runs["pages, no orders"].per_second / runs["/healthz"].per_second
    print(f"  the same without orders (no target): {quiet:.2f}×")
    against_quiet = runs["pages, 1 order per 20"].per_second / runs["/healthz"].per_second
    print(f"  pages with orders / healthz without them (no target: the orders' own CPU counted): {against_quiet:.2f}×")


def guides_at_7_and_700(bench: ModuleType, dsn: str, port: int, rounds: int, seconds: float) -> None:
    """Part 9 (see the module docstring)."""
    from gpurent.catalog.models import GpuModel

    print("\n9. signed-in /guides/ at 7 and 700 GPU models (4 clients, 4 customers)")
    customers = [browser_cookies(bench, port, bench._customer(f"guides{index}@example.com")[2]) for index in range(4)]
    healthz = bench.Target("/healthz", "/healthz")
    guides = [bench.Target("signed-in /guides/", "/guides/", headers=cookies) for cookies in customers]
    cost: dict[int, float] = {}
    for size in (GpuModel.objects.filter(on_sale=True).count(), 700):
        wanted = size - GpuModel.objects.filter(on_sale=True).count()
        if wanted > 0:
            template = GpuModel.objects.order_by("-position").first()
            assert template is not None
            names = {"slug": f"t.slug || '{GUIDE_COPIES}' || g", "name": "t.name || ' p9-' || g"}
            bench.copy_rows(dsn, "catalog_gpumodel", template.pk, wanted, {**names, "position": "t.position + g"})
        bench.warm(port, [healthz, guides[0]])
        runs = bench.alternate(
            rounds,
            {
                "/healthz": lambda: bench.load(port, healthz, 4, seconds),
                "guides": lambda: bench.load(port, guides, 4, seconds),
            },
        )
        on_sale = GpuModel.objects.filter(on_sale=True).count()
        cost[on_sale] = runs["/healthz"].per_second / runs["guides"].per_second
        page, base = runs["guides"], runs["/healthz"]
        print(f"  {on_sale:4} models: /guides/ {page.per_second:6.0f} req/s {page.size / 1024:6.1f} KB,"
              f" /healthz {base.per_second:6.0f} req/s")  # fmt: skip
    GpuModel.objects.filter(slug__contains=GUIDE_COPIES).delete()
    small, big = min(cost), max(cost)
    ratio = cost[big] / cost[small]
    bench.report(f"signed-in /guides/ cost at {big} / at {small} (× /healthz)", ratio, "<= 1.3", ratio <= 1.3)

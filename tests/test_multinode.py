"""Several web machines, the standard way (issue 28): the reference deployment of deploy/ on this machine.

Two gunicorn nodes (deploy/gunicorn.conf.py, the production settings) on the PostgreSQL test database share a
private redis-server, behind Debian's nginx running deploy/nginx/gpurent.conf with TLS (tests/multinode.py).
Everything goes through nginx, which sends consecutive requests to the nodes in turn:

- a customer's journey: guest checkout with CSRF, registration, the order, payment instructions, the payment
  report, logout and login, My rentals, each request on the other node than the one before;
- the registration limit counts one visitor's attempts on both nodes together, another visitor apart, whatever
  `X-Real-IP` the visitor sends (nginx replaces it; decision 0407);
- a price changed by an operator in the back office on one node is on the other node's cached catalog page at
  once; static files come from nginx, with a year of cache for hashed names;
- killing a node under load loses only the POST it had received: a GET it was answering is answered by the other
  node, the POST is a 502 and is never sent to the other node, everything else is served (decision 0408).

PostgreSQL only: skipped on SQLite. Skipped where nginx, redis-server or the redis package is missing, except
where MULTINODE_REQUIRED=1 (.ci/run) or CI=true, where that fails.
"""

from __future__ import annotations

import http.client
import re
import threading
import time
from collections.abc import Iterator
from itertools import pairwise

import psycopg
import pytest
from django.conf import settings
from django.contrib.auth.hashers import Argon2PasswordHasher
from django.db import connection
from django.urls import reverse
from django_otp.oath import totp
from django_otp.plugins.otp_totp.models import TOTPDevice

from gpurent.catalog.models import GpuModel
from gpurent.core.money import Usd
from gpurent.orders.models import Order
from gpurent.payments.intents.lifecycle import intent_issue_for_order
from gpurent.payments.models import PaymentIntent
from tests.conftest import _database_url, orders_placed
from tests.multinode import NODE_NAMES, Reply, Topology, Visitor, missing_tools, skip_or_fail, topology

# Rows the nodes read must be committed; the static files' test needs none.
DATABASE = pytest.mark.django_db(transaction=True)

PASSWORD = "long enough passphrase for the nodes"
REPORTED = "Payment reported. Awaiting verification."


@pytest.fixture(scope="module")
def running(django_db_setup) -> Iterator[Topology]:
    """The deployment, started once for this module (about 10 s); the kill test, last, stops one node."""
    if connection.vendor != "postgresql":
        pytest.skip("the multi-node deployment runs on PostgreSQL only (make test-postgres)")
    reason = missing_tools()
    if reason:
        skip_or_fail(reason)
    with topology() as started:
        yield started


@pytest.fixture
def shop(running: Topology) -> Topology:
    """The deployment with an empty Redis: no cached page, throttle count or session of an earlier test."""
    running.redis().flushdb()
    return running


def argon2(user) -> None:
    """Store the user's password with the production settings' hasher (the suite's fast one is not theirs)."""
    hasher = Argon2PasswordHasher()
    type(user).objects.filter(pk=user.pk).update(password=hasher.encode(PASSWORD, hasher.salt()))


def nodes_in_turn(shop: Topology, replies: list[Reply]) -> list[str]:
    """The node that answered each reply; each must be the other node than the one before."""
    served = [shop.node_of(reply.upstreams[-1]) for reply in replies]
    assert all(first != second for first, second in pairwise(served)), served
    assert set(served) == set(NODE_NAMES)
    return served


@DATABASE
def test_a_customer_journey_alternating_between_the_nodes(shop, gpu, usdt_on_tron):
    browser = Visitor(shop)
    replies: list[Reply] = []

    def visit(reply: Reply, status: int) -> Reply:
        assert reply.status == status, (reply.status, reply.headers.get("Location"), reply.text[:2000])
        replies.append(reply)
        return reply

    start = reverse("orders:checkout_start")
    choice = visit(browser.get(f"{start}?gpu={gpu.slug}&term=7&lots=2"), 200)
    visit(browser.submit(choice, start, environment="ubuntu"), 302)
    account = visit(browser.get(reverse("orders:checkout_account")), 200)
    registered = browser.submit(
        account,
        reverse("orders:checkout_account"),
        having={"step_action": "register"},
        first_name="Noor",
        last_name="Node",
        email="noor@example.com",
        password=PASSWORD,
    )
    assert visit(registered, 302).headers["Location"] == reverse("orders:checkout_summary")
    summary = visit(browser.get(reverse("orders:checkout_summary")), 200)
    placed = visit(browser.submit(summary, reverse("orders:checkout_place")), 302)
    order = Order.objects.get(owner__email="noor@example.com")
    assert (order.lots, order.term_days, order.environment) == (2, 7, "ubuntu")
    page = reverse("orders:rental", args=[order.ref])
    assert placed.headers["Location"] == page
    detail = visit(browser.get(page), 200)
    visit(browser.submit(detail, reverse("payments:order_intent", args=[order.ref]), pair="USDT/tron"), 302)
    instructions = visit(browser.get(page), 200)
    intent = PaymentIntent.objects.get(order=order)
    visit(browser.submit(instructions, reverse("payments:intent_report", args=[intent.pk])), 302)
    assert REPORTED in visit(browser.get(page), 200).text
    visit(browser.submit(replies[-1], reverse("accounts:logout")), 302)
    assert visit(browser.get(reverse("orders:rentals")), 302).headers["Location"].startswith(reverse("accounts:login"))
    login = visit(browser.get(reverse("accounts:login")), 200)
    visit(browser.submit(login, reverse("accounts:login"), username="noor@example.com", password=PASSWORD), 302)
    assert order.ref in visit(browser.get(reverse("orders:rentals")), 200).text

    nodes_in_turn(shop, replies)
    intent.refresh_from_db()
    assert intent.reported_at is not None
    assert browser.cookies["sessionid"]  # one session, read by both nodes: in PostgreSQL, through Redis
    assert shop.redis().keys(":1:django.contrib.sessions.cached_db*")


@DATABASE
def test_the_registration_limit_counts_one_visitor_on_both_nodes_together(shop):
    limit = settings.REGISTRATION_RATE_LIMITS[0][1]  # per hour, the production settings' (10)
    if time.time() % 3600 > 3590:  # the hour's window closes in a few seconds: count in the next one
        time.sleep(3601 - time.time() % 3600)
    visitor = Visitor(shop, "127.0.0.5")
    body = {"first_name": "Rita", "last_name": "Rate", "email": "rita@example.com", "password": PASSWORD}
    replies = [
        # Whatever the visitor claims to be, nginx replaces X-Real-IP with the address it sees.
        visitor.post_json("/api/v1/auth/register", body, {"X-Real-IP": f"203.0.113.{i}", "X-Forwarded-For": "1.2.3.4"})
        for i in range(limit + 1)
    ]
    answers = [(reply.status, reply.json().get("error", {}).get("code", "")) for reply in replies]
    assert answers == [(201, "")] + [(409, "email_taken")] * (limit - 1) + [(429, "rate_limited")]
    nodes_in_turn(shop, replies)
    assert shop.redis().keys("*register-attempts*")
    # Another visitor through the same nginx has a count of their own.
    other = Visitor(shop, "127.0.0.6").post_json("/api/v1/auth/register", {**body, "email": "otto@example.com"})
    assert other.status == 201, other.text


@DATABASE
def test_a_price_changed_on_one_node_is_on_the_other_nodes_cached_catalog_at_once(shop, gpu, django_user_model):
    anonymous = Visitor(shop, "127.0.0.7")
    old, new = Usd(gpu.price_7d_cents).display(), Usd(19_937).display()
    before = [anonymous.get("/") for _ in range(2)]
    assert [reply.status for reply in before] == [200, 200]
    assert all(old in reply.text and new not in reply.text for reply in before)
    nodes_in_turn(shop, before)
    assert len(shop.redis().keys("*page-catalog*")) == 1  # one page, rendered by one node, served to both

    operator = django_user_model.objects.create_superuser("ops@example.com", PASSWORD, first_name="Op")
    argon2(operator)
    device = TOTPDevice.objects.create(user=operator, name="phone", confirmed=True)
    staff = Visitor(shop, "127.0.0.8")
    login_path = "/backoffice/login/?next=/backoffice/"
    login = staff.get(login_path)
    code = f"{totp(device.bin_key, step=device.step, t0=device.t0, digits=device.digits):0{device.digits}d}"
    signed_in = staff.submit(
        login, login_path, username=operator.email, password=PASSWORD, otp_device=device.persistent_id, otp_token=code
    )
    assert signed_in.status == 302, re.findall(r"errornote.{0,300}", signed_in.text, re.S)
    change_path = f"/backoffice/catalog/gpumodel/{gpu.pk}/change/"
    form = staff.get(change_path)
    assert form.status == 200, form.text[:2000]
    # Prices are typed in dollars, and one that keeps the terms in order saves at once (QA walk of the back office, 4).
    changed = staff.submit(form, "", having={"slug": gpu.slug}, to=change_path, price_7d="199.37", _save="Save")
    assert changed.status == 302, changed.text[:3000]
    assert GpuModel.objects.get(pk=gpu.pk).price_7d_cents == 19_937

    after = anonymous.get("/")
    assert after.status == 200
    assert shop.node_of(after.upstreams[-1]) != shop.node_of(changed.upstreams[-1])
    assert new in after.text
    assert old not in after.text
    # Nothing was deleted (decision 0182): the new version is a new entry beside the old one.
    assert len(shop.redis().keys("*page-catalog*")) == 2


def test_static_files_come_from_nginx_with_a_year_of_cache_for_hashed_names(shop):
    visitor = Visitor(shop)
    page = visitor.get("/")
    hashed = re.search(r'href="(/static/css/shop\.[0-9a-f]{12}\.css)"', page.text)
    assert hashed, page.text[:2000]
    css = visitor.get(hashed.group(1), headers={"Accept-Encoding": "gzip"})
    assert css.status == 200
    assert css.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert css.headers["Content-Encoding"] == "gzip"  # collectstatic's .gz, as it is
    assert css.upstreams == []  # no node saw it
    plain = visitor.get("/static/css/shop.css")
    assert (plain.status, plain.headers["Cache-Control"]) == (200, "public, max-age=3600")
    assert visitor.get("/metrics").status == 404  # nodes are scraped on the private network only
    insecure = http.client.HTTPConnection("127.0.0.1", shop.http_port, timeout=60)
    insecure.request("GET", "/rentals/")
    redirect = insecure.getresponse()
    assert redirect.status == 301
    assert redirect.headers["Location"] == "https://127.0.0.1/rentals/"


def _waiting(shop: Topology) -> list[str]:
    """The node of each query of the nodes that waits for a lock now (pg_stat_activity, PostgreSQL)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT application_name FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
            " AND application_name = ANY(%s) ORDER BY query_start",
            [list(NODE_NAMES)],
        )
        return [row[0] for row in cursor.fetchall()]


def _connected(name: str) -> bool:
    """Whether a database connection of the node is still open (a dead node's ends once PostgreSQL sees it)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE application_name = %s", [name])
        return bool(cursor.fetchone()[0])


def _until(condition, what: str) -> None:
    for _ in range(600):  # ~60 s: only keeps a broken run from hanging the suite
        if condition():
            return
        time.sleep(0.1)
    raise AssertionError(f"never happened: {what}")


class InFlight(threading.Thread):
    """One request sent in a thread of its own; `reply` once answered."""

    def __init__(self, send) -> None:
        super().__init__(daemon=True)
        self.send = send
        self.reply: Reply | str | None = None

    def run(self) -> None:
        try:
            self.reply = self.send()
        except (http.client.HTTPException, OSError) as error:  # shown by the assertion on `reply`
            self.reply = type(error).__name__

    def answered(self) -> Reply:
        """The reply, once the thread is done; fails with what happened instead when there is none."""
        assert isinstance(self.reply, Reply), self.reply
        return self.reply


@DATABASE
def test_killing_a_node_under_load_loses_only_the_post_it_had_received(shop, django_user_model, gpu, usdt_on_tron):
    """Last in this module: the node it kills stays dead."""
    customer = django_user_model.objects.create_user("kim@example.com", PASSWORD, first_name="Kim", last_name="Kill")
    argon2(customer)
    orders = orders_placed(customer, gpu.slug, 2)
    intents = [intent_issue_for_order(order=order, owner=customer, asset="USDT", network="tron") for order in orders]
    browser = Visitor(shop, "127.0.0.9")
    login = browser.get(reverse("accounts:login"))
    assert browser.submit(login, reverse("accounts:login"), username=customer.email, password=PASSWORD).status == 302
    order_page = browser.get(reverse("orders:rental", args=[orders[0].ref]))
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', order_page.text)
    assert token, "the order page renders a form"
    report_fields = {"csrfmiddlewaretoken": token[1]}

    load: list[tuple[float, Reply | str]] = []  # (when it was sent, the reply or why none came)
    stop = threading.Event()

    def keep_asking(visitor: Visitor) -> None:
        while not stop.is_set():
            for path in ("/", "/healthz", "/glossary/"):
                sent_at = time.monotonic()
                try:
                    load.append((sent_at, visitor.get(path)))
                except (http.client.HTTPException, OSError) as cut:  # an answer the dead node had begun
                    load.append((sent_at, type(cut).__name__))

    workers = [threading.Thread(target=keep_asking, args=(Visitor(shop, f"127.0.1.{n}"),)) for n in range(4)]
    holder = psycopg.connect(_database_url(), autocommit=True)
    try:
        # Every request that reads payment instructions now waits in PostgreSQL, on the node that received it.
        holder.execute("BEGIN")
        holder.execute("LOCK TABLE payments_paymentintent IN ACCESS EXCLUSIVE MODE")
        sent: list[tuple[InFlight, str]] = []
        for kind, index in [("GET", 0), ("GET", 1), ("POST", 0), ("POST", 1)]:
            if kind == "GET":
                request = InFlight(lambda i=index: browser.get(reverse("orders:rental", args=[orders[i].ref])))
            else:
                path = reverse("payments:intent_report", args=[intents[index].pk])
                request = InFlight(lambda path=path: browser.post(path, report_fields))
            count = len(_waiting(shop))
            request.start()
            _until(lambda count=count: len(_waiting(shop)) == count + 1, f"the {kind} waits on a node")
            sent.append((request, _waiting(shop)[-1]))
        (get_a, victim), (get_b, survivor), (post_a, victim_again), (post_b, survivor_again) = sent
        # nginx sends consecutive requests to the nodes in turn: each node has a GET and a POST waiting.
        assert victim != survivor
        assert (victim_again, survivor_again) == (victim, survivor)

        for worker in workers:
            worker.start()
        _until(lambda: len(load) >= 20, "load before the kill")
        killed_at = time.monotonic()
        shop.kill(victim)

        # The POST the dead node had received is answered 502 and never sent to the survivor: while it is
        # answered, the survivor gets one more waiting request (the GET, sent again), never two.
        while post_a.is_alive():
            assert _waiting(shop).count(survivor) <= 3, "nginx sent the POST to the other node"
            post_a.join(0.05)
        _until(lambda: _waiting(shop).count(survivor) == 3, "the GET of the dead node is sent to the other node")
        holder.execute("ROLLBACK")
        for request in (get_a, get_b, post_b):
            request.join(timeout=120)
        _until(lambda: sum(1 for at, _ in load if at > killed_at) >= 20, "load after the kill")
        # POSTs sent now reach no dead node: served (the email is taken, so nothing is created).
        body = {"first_name": "Kim", "last_name": "Kill", "email": customer.email, "password": PASSWORD}
        after_kill = [browser.post_json("/api/v1/auth/register", body) for _ in range(3)]
    finally:
        stop.set()
        for worker in workers:
            if worker.ident is not None:
                worker.join(timeout=120)
        holder.close()

    survivor_address = next(address for address, name in shop.addresses.items() if name == survivor)
    lost, retried, held_get, held_post = (request.answered() for request in (post_a, get_a, get_b, post_b))
    assert (lost.status, [shop.node_of(address) for address in lost.upstreams]) == (502, [victim])
    assert (retried.status, [shop.node_of(address) for address in retried.upstreams]) == (200, [victim, survivor])
    assert (held_get.status, held_post.status) == (200, 302)
    # Under load: everything sent after the kill is answered, by the survivor (after nginx found the dead node
    # refusing, at most); of what was sent before, GETs the dead node had received were sent to the survivor, and
    # only an answer the dead node had begun to send could be cut.
    before_kill, after_kill_load = [r for at, r in load if at <= killed_at], [r for at, r in load if at > killed_at]
    assert [getattr(reply, "status", reply) for reply in after_kill_load] == [200] * len(after_kill_load)
    assert {reply.upstreams[-1] for reply in after_kill_load if isinstance(reply, Reply)} == {survivor_address}
    cut = [reply for reply in before_kill if not isinstance(reply, Reply)]
    assert [reply.status for reply in before_kill if isinstance(reply, Reply)] == [200] * (len(before_kill) - len(cut))
    assert len(cut) <= 4, cut  # at most one per load thread: the one in flight at the kill
    assert [(reply.status, reply.json()["error"]["code"]) for reply in after_kill] == [(409, "email_taken")] * 3
    assert {reply.upstreams[-1] for reply in after_kill} == {survivor_address}
    # The dead node's waiting query never wrote: once it is gone, the first report is still not recorded.
    _until(lambda: not _connected(victim), "the dead node's queries end")
    reported = dict(PaymentIntent.objects.filter(pk__in=[i.pk for i in intents]).values_list("pk", "reported_at"))
    assert reported[intents[0].pk] is None
    assert reported[intents[1].pk] is not None

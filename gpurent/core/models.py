"""Shared model bases and the cross-cutting tables: the audit log, idempotency keys, outgoing email, operator
notices and the background workers' heartbeats."""

from __future__ import annotations

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


def relations_known_empty(instance: models.Model, *, but: tuple[str, ...] = ()) -> None:
    """Tell Django that nothing points at `instance` yet (it was just inserted), except through `but`.

    Reading one of its reverse relations then costs no query: a one-to-one raises `DoesNotExist`, a
    many-to-one is an empty queryset, as a query would have found. Only call it in the transaction that
    created the row, before anything else can point at it.

    The empty querysets are stored already evaluated, as `prefetch_related` stores what it fetched: iterating
    one (`order.intents.all()`) then compiles no SQL either (an unevaluated `.none()` builds its whole SELECT
    before finding it needs none; decision 0300).
    """
    cache: dict[str, models.QuerySet[models.Model]] = instance.__dict__.setdefault("_prefetched_objects_cache", {})
    for relation in instance._meta.related_objects:
        name = relation.get_accessor_name()
        if name is None or name in but or relation.many_to_many:
            continue
        if relation.one_to_one:
            relation.set_cached_value(instance, None)
        elif isinstance(relation.related_model, type):
            empty = relation.related_model._default_manager.none()
            empty._result_cache = []
            cache[name] = empty


class TimeStampedModel(models.Model):
    """Base for every domain model: when a row was created and last changed (timezone-aware, UTC)."""

    created_at = models.DateTimeField(_("created at"), auto_now_add=True, db_index=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        abstract = True


class AuditLogEntry(models.Model):
    """One operator or system action: who did what to which object, with the state before and after.

    Rows are written by `gpurent.core.audit.audit_record` inside the transaction of the change they describe,
    so an action and its audit row commit or roll back together. Rows are never updated or deleted.
    """

    created_at = models.DateTimeField(_("when"), auto_now_add=True, db_index=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Kept as text too, so the entry still says who acted after the account is gone.
    actor_label = models.CharField(_("who"), max_length=254)
    action = models.CharField(_("what"), max_length=100)
    target_type = models.CharField(_("object type"), max_length=100)
    target_id = models.CharField(_("object id"), max_length=100)
    before = models.JSONField(_("before"), null=True, blank=True)
    after = models.JSONField(_("after"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("audit log entry")
        verbose_name_plural = _("audit log")
        indexes = [models.Index(fields=["target_type", "target_id"])]

    def __str__(self) -> str:
        # The moment as the desks write it, with its zone (`core.admin.with_zone`): this is the entry page's title.
        when = f"{timezone.localtime(self.created_at):%d %b %Y, %H:%M %Z}"
        return f"{when} {self.actor_label}: {self.action} {self.target_type}#{self.target_id}"


class IdempotencyState(models.TextChoices):
    """Where a request made with an idempotency key stands.

    - `started`: claimed by a request that is still running (or crashed; the claim lapses after
      `IDEMPOTENCY_LOCK_TIMEOUT_SECONDS`).
    - `finished`: the request completed; its response is stored and is replayed for the same key.
    """

    STARTED = "started", _("started")
    FINISHED = "finished", _("finished")


class IdempotencyKey(models.Model):
    """A client-chosen key that makes one POST take effect at most once (DESIGN §5).

    Keys are scoped to their owner (`user:<id>` or `session:<key>`), remember a fingerprint of the request
    they were first used with, and store the response to replay. See `gpurent.core.idempotency.keys`.
    """

    owner = models.CharField(max_length=100)
    key = models.CharField(max_length=255)
    fingerprint = models.CharField(max_length=64)
    state = models.CharField(max_length=10, choices=IdempotencyState.choices, default=IdempotencyState.STARTED)
    locked_at = models.DateTimeField(null=True, blank=True)
    response_status = models.PositiveSmallIntegerField(null=True, blank=True)
    # DjangoJSONEncoder stores datetimes, decimals and UUIDs of a response as the strings the API shows.
    response_body = models.JSONField(null=True, blank=True, encoder=DjangoJSONEncoder)
    created_at = models.DateTimeField(db_index=True)

    class Meta:
        verbose_name = _("idempotency key")
        verbose_name_plural = _("idempotency keys")
        constraints = [
            models.UniqueConstraint(fields=["owner", "key"], name="idempotency_key_unique_per_owner"),
            models.CheckConstraint(
                condition=Q(state=IdempotencyState.STARTED) | Q(response_status__isnull=False),
                name="idempotency_finished_has_response",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.owner}/{self.key} ({self.state})"


class OutboundEmail(models.Model):
    """An email the shop decided to send, once: `key` names what it is about (`order-paid:R-…`)."""

    key = models.CharField(max_length=200, unique=True)
    to = models.EmailField()
    subject = models.CharField(max_length=200)
    text = models.TextField()
    html = models.TextField()
    # What renders it, stored in the transaction that queues it, so that an email whose process died before it
    # was rendered (after commit) is rendered and sent later (decision 0112): the template's name, its language
    # and its context as JSON (a model instance is stored as {"__model__": "app.model", "pk": …} and read again).
    # The context is emptied once the row is rendered.
    template = models.CharField(max_length=100, blank=True, default="")
    language = models.CharField(max_length=10, blank=True, default="")
    context = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # Set by the task that is sending it (`claimed_by`: its id, so the same task run again after its worker died
    # takes its own claim over at once); another task's claim older than TASKS_RECLAIM_AFTER_SECONDS is a dead
    # worker's too.
    claimed_at = models.DateTimeField(null=True, blank=True)
    claimed_by = models.CharField(max_length=64, blank=True, default="")
    # When the sweep last queued it again because no worker had sent it (its task was lost).
    requeued_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("outbound email")
        verbose_name_plural = _("outbound emails")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.key} → {self.to}"


class OperatorNotice(models.Model):
    """A failure meant for operators (an outside service's HTTP status, a rate's age), one row per distinct
    detail: when it was first and last seen and how often. Written by `gpurent.core.notices.notify_operators`
    where an `ApplicationError` with a `detail` becomes a response, after the request's transaction has rolled
    back, so a failed action still leaves its reason for the back office (decision 0104)."""

    code = models.CharField(_("code"), max_length=100)
    detail = models.CharField(_("detail"), max_length=500)
    first_seen = models.DateTimeField(_("first seen"))
    last_seen = models.DateTimeField(_("last seen"), db_index=True)
    count = models.PositiveIntegerField(_("times"), default=1)

    class Meta:
        ordering = ["-last_seen", "-id"]
        verbose_name = _("operator notice")
        verbose_name_plural = _("operator notices")
        constraints = [models.UniqueConstraint(fields=["code", "detail"], name="core_operatornotice_unique_detail")]

    def __str__(self) -> str:
        return f"{self.code}: {self.detail}"


class WorkerHeartbeat(models.Model):
    """A background worker's sign of life: `manage.py worker` writes `beat_at` every `TASKS_HEARTBEAT_SECONDS`
    while its process lives, even in the middle of a long task. A task RUNNING under a worker whose beat is
    older than four beats was left by a dead worker and is queued again (`gpurent.core.tasks`, decision 0384)."""

    worker_id = models.CharField(_("worker"), max_length=64, primary_key=True)
    beat_at = models.DateTimeField(_("last beat"), db_index=True)

    class Meta:
        verbose_name = _("worker heartbeat")
        verbose_name_plural = _("worker heartbeats")

    def __str__(self) -> str:
        return f"{self.worker_id} at {self.beat_at:%Y-%m-%d %H:%M:%S}"

"""`/api/v1/support`: list and open requests, read one with its latest messages, page through its thread, add
a message.

Token (`Authorization: Bearer`) or session auth; a request of someone else is a 404. Both POSTs need an
`Idempotency-Key` header. Text is redacted before it is stored; each response lists what was removed
(`redactions`: field, line, kind, label), never the secret.

A request's `messages` are its `MESSAGES_PER_API_PAGE` newest, oldest first, and `messages_next` the cursor of
the earlier ones for `GET /requests/{ref}/messages` (decision 0352): texts are whole in the API.
"""

from datetime import datetime
from typing import Any, cast

from django.http import HttpRequest
from ninja import Field, Query, Router, Schema, Status

from gpurent.accounts.api_auth import api_auth
from gpurent.accounts.models import User
from gpurent.core.api import ErrorOut, PageIn, api_page
from gpurent.core.idempotency.keys import Outcome
from gpurent.core.idempotency.request import IdempotencyKeyHeader, api_idempotent
from gpurent.core.redaction import Finding
from gpurent.core.schemas import InputSchema

from .enums import Author
from .models import SupportMessage, SupportRequest
from .selectors import LIST_ORDER, support_request_get_for, support_request_list_for, thread_page
from .services import SUBJECT_MAX_CHARS, RequestInput, support_message_post, support_request_create

router = Router(tags=["support"], auth=api_auth)

# Pydantic's own cap, well above the service's per-field byte cap (which gives the precise message), so a huge
# body is refused early without changing which error a normal oversized field gets.
_HARD_MAX = 1_000_000
# Messages per page of a thread, and the most a client may ask for: a message may hold 100 kB (whole in the API),
# so a page of 20 is at most ~2 MB and one of 50 ~5 MB, not the 20 MB of the API's general maximum (200).
MESSAGES_PER_API_PAGE = 20
MESSAGES_MAX_API_PAGE = 50
_WRITE_ERRORS: dict[int, type[Schema]] = {
    400: ErrorOut,
    401: ErrorOut,
    403: ErrorOut,
    404: ErrorOut,
    409: ErrorOut,
    422: ErrorOut,
    429: ErrorOut,
}


class RequestIn(InputSchema):
    subject: str = Field(min_length=1, max_length=SUBJECT_MAX_CHARS)
    observed: str = Field(min_length=1, max_length=_HARD_MAX, description="What happened")
    order: str = Field(default="", max_length=20, description="One of your order references, or empty")
    gpu: str = Field(default="", max_length=50, description="A GPU model slug from /api/v1/catalog, or empty")
    library_versions: str = Field(default="", max_length=_HARD_MAX)
    reproduction_steps: str = Field(default="", max_length=_HARD_MAX)
    expected: str = Field(default="", max_length=_HARD_MAX)
    logs: str = Field(default="", max_length=_HARD_MAX, description="Messages and logs, as text")


class MessagePageIn(PageIn):
    """A page of a thread: `limit` defaults to 20 messages and is at most 50 (a message may hold 100 kB)."""

    limit: int = Field(MESSAGES_PER_API_PAGE, ge=1, le=MESSAGES_MAX_API_PAGE, description="Messages per page")


class MessageIn(InputSchema):
    body: str = Field(min_length=1, max_length=_HARD_MAX)


class RedactionOut(Schema):
    field: str
    line: int
    kind: str
    label: str = Field(examples=["AWS access key"])


class MessageOut(Schema):
    id: int
    author: str = Field(examples=["customer", "operator"])
    body: str
    redactions: list[RedactionOut]
    created_at: datetime


class RequestSummaryOut(Schema):
    ref: str
    subject: str
    status: str = Field(examples=["open", "answered", "closed"])
    order: str | None
    gpu: str | None
    created_at: datetime
    last_message_at: datetime


class RequestOut(RequestSummaryOut):
    library_versions: str
    reproduction_steps: str
    expected: str
    observed: str
    logs: str
    redactions: list[RedactionOut]
    messages: list[MessageOut] = Field(
        description="The newest messages of the thread (at most 20), oldest first; the earlier ones are read with "
        "`GET /requests/{ref}/messages?cursor=` and `messages_next`"
    )
    messages_next: str | None = Field(
        description="Cursor of the earlier messages (pass as ?cursor= to `GET /requests/{ref}/messages`), null "
        "when `messages` is the whole thread"
    )


class MessageListOut(Schema):
    items: list[MessageOut] = Field(
        description="One page of the thread: the newest messages before the cursor, oldest first within the page"
    )
    next: str | None = Field(description="Cursor of the earlier messages (pass as ?cursor=), null at the first one")


class RequestListOut(Schema):
    items: list[RequestSummaryOut] = Field(description="One page of requests, most recent activity first")
    next: str | None = Field(description="Cursor of the following page (pass as ?cursor=), null on the last page")


def _redactions(stored: list[dict[str, Any]]) -> list[dict[str, Any]]:
    findings = [Finding.from_json(data) for data in stored]
    return [{**finding.as_json(), "label": str(finding.kind.label)} for finding in findings]


def _message_out(message: SupportMessage) -> dict[str, Any]:
    return {
        "id": message.pk,
        "author": message.author_role,
        "body": message.body,
        "redactions": _redactions(message.redactions),
        "created_at": message.created_at,
    }


def _summary_out(item: SupportRequest) -> dict[str, Any]:
    return {
        "ref": item.ref,
        "subject": item.subject,
        "status": item.status,
        "order": item.order.ref if item.order else None,
        "gpu": item.gpu.slug if item.gpu else None,
        "created_at": item.created_at,
        "last_message_at": item.last_message_at,
    }


def _request_out(item: SupportRequest) -> dict[str, Any]:
    out = {
        **_summary_out(item),
        "library_versions": item.library_versions,
        "reproduction_steps": item.reproduction_steps,
        "expected": item.expected,
        "observed": item.observed,
        "logs": item.logs,
        "redactions": _redactions(item.redactions),
    }
    messages, following = _thread_out(item, None, MESSAGES_PER_API_PAGE)
    return {**out, "messages": messages, "messages_next": following}


def _thread_out(item: SupportRequest, cursor: str | None, limit: int) -> tuple[list[dict[str, Any]], str | None]:
    """One page of the request's thread (the newest before `cursor`, oldest first) and the cursor of the earlier
    messages; a cursor that is not valid is 422 `invalid_request`."""
    page = thread_page(item, cursor, size=limit)
    return [_message_out(message) for message in page.items], page.next


@router.get(
    "/requests",
    response={200: RequestListOut, 401: ErrorOut, 403: ErrorOut, 422: ErrorOut},
    summary="List my support requests",
)
def list_requests(request: HttpRequest, page: Query[PageIn]) -> dict[str, Any]:
    requests = support_request_list_for(cast(User, request.user))
    return api_page(requests, page, _summary_out, key=LIST_ORDER)


@router.post("/requests", response={201: RequestOut, **_WRITE_ERRORS}, summary="Open a support request")
def create_request(request: HttpRequest, payload: RequestIn, idempotency_key: IdempotencyKeyHeader) -> Status:
    """Open a request. Secrets in any text field are replaced by `[REDACTED: …]` before it is stored and
    listed in `redactions`. Requires an `Idempotency-Key` header. Too many requests recently: 429
    `rate_limited`; a field over 100 kB, an order that is not yours or an unknown GPU: 422 `invalid_request`."""
    user = cast(User, request.user)

    def create() -> Outcome:
        data = RequestInput(
            subject=payload.subject,
            observed=payload.observed,
            order_ref=payload.order,
            gpu_slug=payload.gpu,
            library_versions=payload.library_versions,
            reproduction_steps=payload.reproduction_steps,
            expected=payload.expected,
            logs=payload.logs,
        )
        return Outcome(201, _request_out(support_request_create(owner=user, data=data)))

    outcome = api_idempotent(request, idempotency_key, payload.model_dump(), create)
    return Status(outcome.status, outcome.body)


@router.get(
    "/requests/{ref}",
    response={200: RequestOut, 401: ErrorOut, 403: ErrorOut, 404: ErrorOut},
    summary="Read one of my support requests",
)
def get_request(request: HttpRequest, ref: str) -> dict[str, Any]:
    return _request_out(support_request_get_for(cast(User, request.user), ref))


@router.get(
    "/requests/{ref}/messages",
    response={200: MessageListOut, 401: ErrorOut, 403: ErrorOut, 404: ErrorOut, 422: ErrorOut},
    summary="Read a page of a support request's thread",
)
def list_messages(request: HttpRequest, ref: str, page: Query[MessagePageIn]) -> dict[str, Any]:
    """The thread in pages, newest first: without a cursor its `limit` (20, at most 50) newest messages, with
    `cursor` (`messages_next` of the request, or `next` of a page) the ones before it. Messages are listed oldest
    first within a page, as in the request's `messages`; texts are whole. A cursor that is not valid: 422
    `invalid_request`."""
    support_request = support_request_get_for(cast(User, request.user), ref)
    messages, following = _thread_out(support_request, page.cursor, page.limit)
    return {"items": messages, "next": following}


@router.post(
    "/requests/{ref}/messages", response={201: MessageOut, **_WRITE_ERRORS}, summary="Add a message to a request"
)
def create_message(request: HttpRequest, ref: str, payload: MessageIn, idempotency_key: IdempotencyKeyHeader) -> Status:
    """Add a message to the thread (redacted like the request; reopens a closed request). Requires an
    `Idempotency-Key` header."""
    user = cast(User, request.user)
    support_request = support_request_get_for(user, ref)

    def post() -> Outcome:
        message, _findings = support_message_post(
            request=support_request, author=user, role=Author.CUSTOMER, body=payload.body
        )
        return Outcome(201, _message_out(message))

    outcome = api_idempotent(request, idempotency_key, payload.model_dump(), post)
    return Status(outcome.status, outcome.body)

"""The JSON API's shared parts: the error schema and the mapping of every exception to it.

Every error the API returns has the shape `{"error": {"code": ..., "message": ...}}` (DESIGN §11.1).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from typing import Any, TypeVar

from django.core.exceptions import RequestDataTooBig
from django.db.models import Model, QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from ninja import Field, NinjaAPI, Schema
from ninja.errors import AuthenticationError, HttpError, ValidationError
from ninja.renderers import JSONRenderer
from ninja.responses import NinjaJSONEncoder
from pydantic import field_validator
from pydantic_core import PydanticCustomError

from .errors import ApplicationError, error_body
from .idempotency.request import HEADER, KEY_REQUIRED_MESSAGE
from .notices import notify_operators
from .pagination import DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, NEWEST_FIRST, keyset_page

__all__ = ["ErrorOut", "PageIn", "ShopAPI", "ShopJSONEncoder", "api_page", "install_error_handlers"]

M = TypeVar("M", bound=Model)

_CODES_BY_STATUS = {
    400: "invalid_request",
    401: "not_authenticated",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    422: "invalid_request",
    429: "rate_limited",
}


class ErrorDetail(Schema):
    code: str
    message: str


class ErrorOut(Schema):
    """The API's error body."""

    error: ErrorDetail


_DIGITS = re.compile(r"[0-9]{1,9}")


class PageIn(Schema):
    """Query parameters of every paginated list (see `gpurent.core.pagination`)."""

    cursor: str | None = Field(
        None, max_length=512, description="The `next` value of the previous page; omit for the first page"
    )
    limit: int = Field(DEFAULT_PAGE_SIZE, ge=1, le=MAX_PAGE_SIZE, description="Rows per page")

    @field_validator("limit", mode="before")
    @classmethod
    def _plain_digits(cls, value: Any) -> Any:
        # Numbers are parsed strictly, as in bodies (`InputSchema`): a query string is text, and only ASCII
        # digits are a number here, not " 5", "+5", "5_0", "5.0" or another script's digits (pydantic takes them).
        if isinstance(value, str) and not _DIGITS.fullmatch(value):
            raise PydanticCustomError(
                "int_parsing", "Input should be a valid integer, unable to parse string as an integer"
            )
        return value


def api_page(
    queryset: QuerySet[M], page: PageIn, out: Callable[[M], Any], *, key: tuple[str, ...] = NEWEST_FIRST
) -> dict[str, Any]:
    """A list response: `{"items": [...], "next": cursor-or-null}`; a bad cursor is 422 `invalid_request`."""
    found = keyset_page(queryset, page.cursor, size=page.limit, key=key)
    return {"items": [out(row) for row in found.items], "next": found.next}


def _listed(expected: str) -> str:
    """Pydantic's "3, 7 or 30" as "3, 7, 30": its English "or" would stay English in a translated sentence."""
    head, _or, last = expected.rpartition(" or ")
    return f"{head}, {last}" if head else expected


def _count(ctx: dict[str, Any], key: str) -> int:
    value = ctx.get(key)
    return value if isinstance(value, int) else 0


# What is wrong with a field, by pydantic's error type (those whose message needs nothing from its context).
_PROBLEMS: dict[str, Promise] = {
    "missing": gettext_lazy("is required"),
    "extra_forbidden": gettext_lazy("is not a field of this request"),
    **dict.fromkeys(("int_type", "int_parsing", "int_from_float"), gettext_lazy("must be a whole number")),
    **dict.fromkeys(
        ("float_type", "float_parsing", "finite_number", "decimal_type", "decimal_parsing"),
        gettext_lazy("must be a number"),
    ),
    "string_type": gettext_lazy("must be a string"),
    **dict.fromkeys(("bool_type", "bool_parsing"), gettext_lazy("must be true or false")),
    "list_type": gettext_lazy("must be a list"),
    **dict.fromkeys(("dict_type", "model_type", "model_attributes_type"), gettext_lazy("must be an object")),
    **dict.fromkeys(("uuid_type", "uuid_parsing"), gettext_lazy("must be a UUID")),
    "string_pattern_mismatch": gettext_lazy("is not in the expected form"),
    "json_invalid": gettext_lazy("is not valid JSON"),
}
# A bound's error type: the key of the bound in its context, and the problem.
_BOUNDS: dict[str, tuple[str, Promise]] = {
    "greater_than_equal": ("ge", gettext_lazy("must be at least %(limit)s")),
    "greater_than": ("gt", gettext_lazy("must be greater than %(limit)s")),
    "less_than_equal": ("le", gettext_lazy("must be at most %(limit)s")),
    "less_than": ("lt", gettext_lazy("must be less than %(limit)s")),
}


def _problem(error: dict[str, Any]) -> str:
    """What is wrong with one field, in the request's language (QA2 #14). Pydantic writes its messages in English
    only, and a message mixing them with the shop's translated ones read as half-translated. The field's name
    stays the API's identifier (`term_days`), as the client's code and the OpenAPI document call it. A kind of
    error not listed here says "invalid value", or pydantic's own words in English."""
    kind = str(error.get("type", ""))
    ctx = error.get("ctx") or {}
    if kind in _PROBLEMS:
        return str(_PROBLEMS[kind])
    if kind in ("value_error", "assertion_error") and ctx.get("error"):
        return str(ctx["error"])  # raised by the shop's own validators, already in the request's language
    if kind in ("literal_error", "enum") and "expected" in ctx:
        return _("must be one of: %(values)s") % {"values": _listed(str(ctx["expected"]))}
    if kind in _BOUNDS and _BOUNDS[kind][0] in ctx:
        key, text = _BOUNDS[kind]
        return str(text) % {"limit": ctx[key]}
    # ngettext with its texts written out at each call, so that `makemessages` finds them.
    if kind in ("string_too_short", "too_short"):
        n = _count(ctx, "min_length")
        if kind == "too_short":
            return ngettext("must have at least %(count)s item", "must have at least %(count)s items", n) % {"count": n}
        return ngettext("must have at least %(count)s character", "must have at least %(count)s characters", n) % {
            "count": n
        }
    if kind in ("string_too_long", "too_long"):
        n = _count(ctx, "max_length")
        if kind == "too_long":
            return ngettext("must have at most %(count)s item", "must have at most %(count)s items", n) % {"count": n}
        return ngettext("must have at most %(count)s character", "must have at most %(count)s characters", n) % {
            "count": n
        }
    english = (translation.get_language() or "en").startswith("en")
    return str(error["msg"]) if english and error.get("msg") else _("invalid value")


def _describe_validation_errors(errors: list[dict[str, Any]]) -> str:
    parts = []
    for error in errors[:5]:
        loc = tuple(error.get("loc", ()))
        if loc[:1] == ("header",) and loc[-1:] == (HEADER,):
            parts.append(f"{HEADER}: {KEY_REQUIRED_MESSAGE}")
            continue
        location = ".".join(str(item) for item in loc if item not in ("body", "query", "path", "header", "payload"))
        message = _problem(error)
        parts.append(f"{location}: {message}" if location else message)
    return "; ".join(parts) or _("Some fields are missing or invalid.")


def install_error_handlers(api: NinjaAPI) -> None:
    """Make every error of `api` answer in the shop's JSON error format."""

    def respond(request: HttpRequest, status: int, code: str, message: str) -> HttpResponse:
        return api.create_response(request, error_body(code, message), status=status)

    @api.exception_handler(ApplicationError)
    def application_error(request: HttpRequest, exc: ApplicationError) -> HttpResponse:
        notify_operators(exc)
        return respond(request, exc.status, exc.code, exc.message)

    @api.exception_handler(ValidationError)
    def validation_error(request: HttpRequest, exc: ValidationError) -> HttpResponse:
        return respond(request, 422, "invalid_request", _describe_validation_errors(list(exc.errors)))

    @api.exception_handler(AuthenticationError)
    def authentication_error(request: HttpRequest, exc: AuthenticationError) -> HttpResponse:
        return respond(request, 401, "not_authenticated", _("Authentication required."))

    @api.exception_handler(HttpError)
    def http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
        return respond(request, exc.status_code, _CODES_BY_STATUS.get(exc.status_code, "error"), str(exc))

    @api.exception_handler(RequestDataTooBig)
    def payload_too_large(request: HttpRequest, exc: RequestDataTooBig) -> HttpResponse:
        # Django refuses to read a body over DATA_UPLOAD_MAX_MEMORY_SIZE; without this it would be a 400 page.
        return respond(request, 413, "payload_too_large", _("The request body is too large."))

    @api.exception_handler(Http404)
    def not_found(request: HttpRequest, exc: Http404) -> HttpResponse:
        return respond(request, 404, "not_found", _("Not found."))


class ShopJSONEncoder(NinjaJSONEncoder):
    """Every time with its milliseconds, "2026-12-05T23:27:51.000Z" on a whole second too. Django's encoder drops
    the fraction of a whole second, and an idempotent request's replay answers the stored JSON read back (to the
    millisecond): a first answer made under a millisecond past a second ("…51.000Z") was replayed as "…51Z"."""

    def default(self, o: Any) -> Any:
        if isinstance(o, datetime):
            text = o.isoformat(timespec="milliseconds")
            return text.removesuffix("+00:00") + "Z" if text.endswith("+00:00") else text
        return super().default(o)


class _Renderer(JSONRenderer):
    encoder_class = ShopJSONEncoder


class ShopAPI(NinjaAPI):
    """The API root: its answers' times always carry milliseconds (`ShopJSONEncoder`), and its OpenAPI document
    also declares the 413 that any request body over Django's upload limit gets (`payload_too_large`, answered by
    `install_error_handlers`), on every operation that takes a body."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(renderer=_Renderer(), **kwargs)

    def get_openapi_schema(self, *, path_prefix: str | None = None, path_params: dict[str, Any] | None = None) -> Any:
        schema = super().get_openapi_schema(path_prefix=path_prefix, path_params=path_params)
        too_large = {
            "description": "Content Too Large",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorOut"}}},
        }
        for operations in schema.get("paths", {}).values():
            for operation in operations.values():
                if isinstance(operation, dict) and "requestBody" in operation:
                    operation.setdefault("responses", {}).setdefault(413, too_large)
        return schema

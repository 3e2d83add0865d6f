"""A ready export's file as a response: whole, or one byte range of it (a cut download is resumed, RFC 9110).

Every answer says how long the file is and what it hashes to, so a client tells a complete file from a cut one:
`Content-Length` (and `Content-Range` for a range), `Repr-Digest` (RFC 9530: the SHA-256 of the whole file, for a
range too) and the `ETag` (the same digest in hex, for `If-Range`). The parts are read one at a time, so a
response holds one part (`writing.PART_BYTES`) in memory whatever the file's size.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator

from django.http import HttpRequest, HttpResponse, HttpResponseBase, StreamingHttpResponse

from gpurent.core.downloads import repr_digest

from . import writing
from .enums import ExportState
from .errors import ExportNotReady
from .kinds import KINDS
from .models import Export, ExportPart

__all__ = ["export_file_response"]

logger = logging.getLogger(__name__)

# One range, from a byte to a byte or to the end; anything else (several ranges, a suffix) is answered whole.
_RANGE = re.compile(r"bytes=(\d+)-(\d*)")


def export_file_response(request: HttpRequest, export: Export) -> HttpResponseBase:
    """The file (200), the range the request asks for (206), or 416 for a range past its end.

    Raises:
        ExportNotReady: the export is not ready (queued, being written or failed).
    """
    if export.state != ExportState.READY:
        raise ExportNotReady()
    size, etag = export.size_bytes, f'"{export.sha256}"'
    start, end, status = 0, size - 1, 200
    wanted = _RANGE.fullmatch(request.headers.get("Range", "").strip())
    if wanted and wanted[2] and int(wanted[2]) < int(wanted[1]):
        wanted = None  # not a range (its last byte before its first): ignored, as RFC 9110 says
    # A range of another version of the file (If-Range names another ETag) is not served: the whole file is.
    if wanted and request.headers.get("If-Range", etag) == etag:
        start, end, status = int(wanted[1]), min(int(wanted[2] or size - 1), size - 1), 206
        if start > end:
            refused = HttpResponse(status=416)
            refused["Content-Range"] = f"bytes */{size}"
            return refused
    response = StreamingHttpResponse(
        _read(export.pk, start, end), status=status, content_type=f"{KINDS[export.kind].content_type}; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{export.filename}"'
    response["Content-Length"] = str(end - start + 1)
    if status == 206:
        response["Content-Range"] = f"bytes {start}-{end}/{size}"
    response["Accept-Ranges"] = "bytes"
    response["ETag"] = etag
    response["Repr-Digest"] = repr_digest(bytes.fromhex(export.sha256))
    return response


def _read(export_id: int, start: int, end: int) -> Iterator[bytes]:
    """Bytes `start` to `end` (inclusive) of the file, one stored part (one query) at a time."""
    size = writing.PART_BYTES
    first, last = start // size, end // size
    for number in range(first, last + 1):
        data = ExportPart.objects.filter(export_id=export_id, number=number).values_list("data", flat=True).first()
        if data is None:
            # Replaced or deleted while it was being sent: the client gets fewer bytes than Content-Length said.
            logger.warning("export %s: part %s is gone; the download is cut short", export_id, number)
            return
        low = start - number * size if number == first else 0
        high = end - number * size + 1 if number == last else size
        yield bytes(data[low:high])

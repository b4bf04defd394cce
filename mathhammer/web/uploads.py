"""Roster uploads, read only in memory and capped at the roster reader's file limit.

The body of a ``multipart/form-data`` request is read as it arrives and refused as soon as
it passes the cap (a ``Content-Length`` past it is refused before anything is read); the
parts are parsed by python-multipart into memory, never spooled to a temporary file. Files
are kept by the hash of their content for the life of the server, the oldest dropped first,
so a page's URL can name a list (``?list=ID``) without any path.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from dataclasses import dataclass

from mathhammer.errors import RosterError
from mathhammer.wh40k.roster.read import MAX_FILE_BYTES

#: Bytes of a request around the file (boundaries, headers, the other fields).
OVERHEAD = 64 * 1024
#: Bytes of all the lists kept at once.
MAX_KEPT_BYTES = 4 * MAX_FILE_BYTES
MAX_NAME_CHARS = 200
#: Longest boundary read (python-multipart's limit; RFC 2046 allows 70 characters, which
#: every browser keeps to).
MAX_BOUNDARY_CHARS = 256
NOT_A_FORM = "send the roster file as a form upload (multipart/form-data)"


def too_large(size: int) -> str:
    """The one-line refusal of a file of ``size`` bytes (the page's script says the same)."""
    return (f"the file is {size / 2**20:.1f} MiB; a roster file may be at most "
            f"{MAX_FILE_BYTES // 2**20} MiB")


@dataclass(frozen=True)
class Upload:
    name: str
    data: bytes


async def read_body(request: object, limit: int = MAX_FILE_BYTES + OVERHEAD) -> bytes:
    """The request body, refused with :class:`RosterError` past ``limit`` bytes."""
    declared = request.headers.get("content-length")  # type: ignore[attr-defined]
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise RosterError(too_large(int(declared)))
    body = bytearray()
    async for chunk in request.stream():  # type: ignore[attr-defined]
        body += chunk
        if len(body) > limit:
            raise RosterError(too_large(len(body)))
    return bytes(body)


def parse_form(content_type: str, body: bytes) -> tuple[dict[str, str], list[Upload]]:
    """The text fields and files of a ``multipart/form-data`` body, in memory.

    Parameters
    ----------
    content_type
        The request's ``Content-Type`` header, with its ``boundary`` parameter.
    body
        The request's body.

    Raises
    ------
    RosterError
        In one line: not a form upload (another type, no or an empty boundary, a header
        that cannot be read), a boundary the parser refuses (longer than
        :data:`MAX_BOUNDARY_CHARS`), or a body that is not a well-formed form.
    """
    from python_multipart.multipart import MultipartParser

    boundary = form_boundary(content_type)
    parts: list[dict] = []
    header: dict[str, bytes] = {}

    def on_part_begin() -> None:
        parts.append({"headers": {}, "data": bytearray()})

    def on_header_field(data: bytes, start: int, end: int) -> None:
        header["field"] = header.get("field", b"") + data[start:end]

    def on_header_value(data: bytes, start: int, end: int) -> None:
        header["value"] = header.get("value", b"") + data[start:end]

    def on_header_end() -> None:
        parts[-1]["headers"][header.get("field", b"").lower()] = header.get("value", b"")
        header.clear()

    def on_part_data(data: bytes, start: int, end: int) -> None:
        parts[-1]["data"] += data[start:end]

    try:  # the constructor may refuse a boundary too (python-multipart limits its length)
        parser = MultipartParser(boundary, {
            "on_part_begin": on_part_begin, "on_header_field": on_header_field,
            "on_header_value": on_header_value, "on_header_end": on_header_end,
            "on_part_data": on_part_data})
        parser.write(body)
        parser.finalize()
    except Exception as exc:  # python-multipart's own errors: a malformed body
        raise RosterError(f"the upload is not a well-formed form ({exc})") from None
    return _fields_and_files(parts)


def form_boundary(content_type: str) -> bytes:
    """The ``boundary`` of a ``multipart/form-data`` Content-Type, as bytes.

    Raises
    ------
    RosterError
        In one line, for another type, a header that cannot be read (a character past
        Latin-1: HTTP headers are bytes), a missing or empty boundary, or one longer than
        :data:`MAX_BOUNDARY_CHARS`.
    """
    from python_multipart.multipart import parse_options_header

    try:
        kind, params = parse_options_header(content_type)
    except (UnicodeError, ValueError, AssertionError):  # it asserts it was given text
        raise RosterError(NOT_A_FORM) from None
    boundary = params.get(b"boundary")
    if kind != b"multipart/form-data" or not boundary:
        raise RosterError(NOT_A_FORM)
    if len(boundary) > MAX_BOUNDARY_CHARS:
        raise RosterError(f"the upload's form boundary is {len(boundary):,} characters long; "
                          f"at most {MAX_BOUNDARY_CHARS} are read: send the roster file "
                          "from the page")
    return boundary


def _fields_and_files(parts: list[dict]) -> tuple[dict[str, str], list[Upload]]:
    from python_multipart.multipart import parse_options_header

    fields: dict[str, str] = {}
    files: list[Upload] = []
    for part in parts:
        _, params = parse_options_header(part["headers"].get(b"content-disposition", b""))
        name = params.get(b"name", b"").decode("utf-8", "replace")
        if b"filename" in params:
            filename = params[b"filename"].decode("utf-8", "replace")
            filename = filename.replace("\\", "/").rsplit("/", 1)[-1][:MAX_NAME_CHARS]
            files.append(Upload(filename or "roster", bytes(part["data"])))
        elif name:
            fields[name] = bytes(part["data"]).decode("utf-8", "replace")[:10_000]
    return fields, files


class RosterStore:
    """Uploaded lists by content hash, in memory, at most :data:`MAX_KEPT_BYTES` in all."""

    def __init__(self) -> None:
        self._files: OrderedDict[str, Upload] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, upload: Upload) -> str:
        key = hashlib.sha256(upload.data).hexdigest()[:20]
        with self._lock:
            self._files[key] = upload
            self._files.move_to_end(key)
            while sum(len(u.data) for u in self._files.values()) > MAX_KEPT_BYTES:
                self._files.popitem(last=False)
        return key

    def get(self, key: str) -> Upload:
        with self._lock:
            upload = self._files.get(key)
        if upload is None:
            raise RosterError(f"list '{key[:40]}' is no longer in memory (the server was "
                              "restarted, or many lists were dropped since): drop the file "
                              "again")
        return upload

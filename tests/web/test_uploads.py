"""Roster uploads read in memory (web/uploads.py): multipart bodies, caps and the store."""

import asyncio
import hashlib

import pytest

from mathhammer.errors import RosterError
from mathhammer.web import uploads
from mathhammer.web.uploads import RosterStore, Upload, parse_form, read_body, too_large

BOUNDARY = "XyZ"


def body(*parts):
    lines = []
    for headers, data in parts:
        lines += [f"--{BOUNDARY}".encode(), headers.encode(), b"", data]
    lines.append(f"--{BOUNDARY}--".encode())
    return b"\r\n".join(lines) + b"\r\n"


def test_fields_and_files_in_memory():
    data = body(('Content-Disposition: form-data; name="metric"', b"expected_damage"),
                ('Content-Disposition: form-data; name="file"; filename="C:\\lists\\army.ros"',
                 b"<roster/>"))
    fields, files = parse_form(f"multipart/form-data; boundary={BOUNDARY}", data)
    assert fields == {"metric": "expected_damage"}
    # a path in the file name is dropped: only its last part is kept
    assert files == [Upload("army.ros", b"<roster/>")]


def test_other_bodies_are_refused():
    with pytest.raises(RosterError, match="as a form upload"):
        parse_form("application/json", b"{}")


class Request:
    def __init__(self, chunks, length=None):
        self.headers = {} if length is None else {"content-length": str(length)}
        self._chunks = chunks

    async def stream(self):
        for chunk in self._chunks:
            yield chunk


def test_read_body_stops_at_the_cap():
    assert asyncio.run(read_body(Request([b"ab", b"cd"]), limit=10)) == b"abcd"
    with pytest.raises(RosterError, match="a roster file may be at most"):
        asyncio.run(read_body(Request([b"x" * 6, b"x" * 6]), limit=10))
    with pytest.raises(RosterError, match="MiB"):  # refused on its declared length
        asyncio.run(read_body(Request([], length=10**9), limit=10))
    assert too_large(3 * 2**20).startswith("the file is 3.0 MiB")


def test_store_keeps_lists_by_content_and_drops_the_oldest(monkeypatch):
    monkeypatch.setattr(uploads, "MAX_KEPT_BYTES", 10)
    store = RosterStore()
    first = store.add(Upload("a.ros", b"123456"))
    assert first == hashlib.sha256(b"123456").hexdigest()[:20]
    assert store.get(first).name == "a.ros"
    store.add(Upload("b.ros", b"abcdef"))   # 12 bytes in all: the oldest goes
    with pytest.raises(RosterError, match="no longer in memory"):
        store.get(first)

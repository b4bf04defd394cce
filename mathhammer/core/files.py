"""Reading the small text files users hand us (profiles, scenarios, unit cards), bounded.

A path may name a device that never ends (``/dev/zero``), a pipe, or a file far larger than
any profile list: reading stops one block past the limit, so every such file is refused at
once instead of filling memory or waiting forever.
"""

from __future__ import annotations

import os
import stat
from typing import Any

#: Largest text file (TOML profiles, scenarios, unit cards) we read: 4 MiB, hundreds of times
#: any real file.
MAX_TEXT_FILE_BYTES = 4 * 2**20
_BLOCK = 1 << 16


class FileTooLarge(OSError):
    """The file holds more than the limit; ``str()`` says how much is allowed."""


class NotAFile(OSError):
    """The path names a folder, a device, a pipe or a socket; ``str()`` says which."""


def read_bounded(path: str | os.PathLike[str], limit: int = MAX_TEXT_FILE_BYTES) -> bytes:
    """The bytes of ``path``, refusing anything beyond ``limit`` bytes.

    Raises
    ------
    FileTooLarge
        More than ``limit`` bytes; its message names the limit.
    NotAFile
        A folder, device, pipe or socket (a pipe would wait for a writer forever).
    OSError
        The file cannot be opened or read (a folder, no permission, missing).
    """
    mode = os.stat(path).st_mode
    if not stat.S_ISREG(mode):
        kind = "a folder" if stat.S_ISDIR(mode) else "a device, pipe or socket"
        raise NotAFile(f"it is {kind}, not a file")
    data = bytearray()
    with open(path, "rb") as handle:
        while len(data) <= limit:
            block = handle.read(_BLOCK)
            if not block:
                return bytes(data)
            data += block
    raise FileTooLarge(f"larger than {limit // 2**20} MiB, far beyond any real file "
                       "(is it the right file?)")


#: Deepest nesting of inline arrays and tables a TOML file may use; real files use two or
#: three levels, and the TOML parsers recurse once per level.
MAX_TOML_NESTING = 50


def too_deeply_nested(text: str, limit: int = MAX_TOML_NESTING) -> int | None:
    """The line (1-based) where TOML brackets first nest deeper than ``limit``, or None.

    Brackets inside strings and comments do not count. Checked before parsing, so a file of
    ``[[[[...`` is refused naming its line instead of exhausting the parser's recursion.
    """
    depth, line, quote, index, n = 0, 1, "", 0, len(text)
    while index < n:
        char = text[index]
        if char == "\n":
            line += 1
        elif quote:
            if text.startswith(quote, index):
                index += len(quote) - 1
                quote = ""
            elif char == "\\" and quote[0] == '"':
                index += 1
        elif char in "\"'":
            quote = char * 3 if text.startswith(char * 3, index) else char
            index += len(quote) - 1
        elif char == "#":
            end = text.find("\n", index)
            index = (end if end >= 0 else n) - 1
        elif char in "[{":
            depth += 1
            if depth > limit:
                return line
        elif char in "]}":
            depth = max(0, depth - 1)
        index += 1
    return None


def read_toml_tables(raw: bytes, source: str, needs: str,
                     error: type[Exception] = ValueError) -> tuple[str, dict[str, Any]]:
    """The text and the document of a TOML file of named tables (reference targets).

    Parameters
    ----------
    raw, source
        The file's bytes and its name for messages.
    needs
        What one entry of the file needs, for the nesting refusal (``"a target"``).
    error
        The exception to raise: one line ``"<source>, line N: <what>"``.

    Raises
    ------
    error
        When the bytes are not UTF-8, nest too deeply, or are not TOML.

    Examples
    --------
    >>> read_toml_tables(b"[a]\\nx = 1\\n", "f.toml", "a target")[1]
    {'a': {'x': 1}}
    """
    import tomli  # its TOMLDecodeError carries the line and column (tomllib's only says them)

    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise error(f"{source}, line {line}: not UTF-8 text") from None
    deep = too_deeply_nested(text)
    if deep is not None:
        raise error(f"{source}, line {deep}: arrays or tables nested more than "
                    f"{MAX_TOML_NESTING} deep; {needs} needs one level")
    try:
        return text, tomli.loads(text)
    except tomli.TOMLDecodeError as exc:
        where = f"line {exc.lineno}, column {exc.colno}" if exc.lineno else "line 1"
        raise error(f"{source}, {where}: malformed TOML: {exc.msg}") from None


def check_output_path(path: str | os.PathLike[str]) -> None:
    """Refuse an output path that is not a regular file or a new file in an existing folder.

    Outputs need the same care as inputs: writing to a named pipe waits for a reader forever,
    and a device (``/dev/null``, a terminal) or a folder is never where a table or chart
    belongs.

    Raises
    ------
    NotAFile
        The path names a folder, device, pipe or socket, or its folder does not exist; the
        message says which and what to give instead.
    """
    text = os.fspath(path)
    if not text or "\0" in text:
        raise NotAFile("give a file name (without NUL characters)")
    try:
        mode = os.stat(text).st_mode
    except FileNotFoundError:
        folder = os.path.dirname(os.path.abspath(text))
        if not os.path.isdir(folder):
            raise NotAFile(f"its folder '{folder}' does not exist: create it or give another "
                           "file name") from None
        return
    except OSError as exc:
        raise NotAFile(f"it cannot be used ({exc.strerror or exc}): give another file name") \
            from None
    if not stat.S_ISREG(mode):
        kind = "a folder" if stat.S_ISDIR(mode) else (
            "a named pipe" if stat.S_ISFIFO(mode) else "a device or socket")
        raise NotAFile(f"it is {kind}, not a file: give the name of a regular file (new or "
                       "to be replaced)")

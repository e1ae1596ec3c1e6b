"""Reading a project's files: bytes to a SourceFile (a notebook's code cells as one module), the
limits that keep a hostile file from hanging or exhausting a check (issue 15), and where a project's
root is.  Nothing here parses Python beyond decoding: a check whose findings are all cached reads
its files through this module without loading the analysis engine (issue 33)."""

from __future__ import annotations

import os
import stat  # read_file_bytes: only regular files are read (issue 15)
from dataclasses import dataclass

from .dependencies import UNREADABLE, text_digest
from .findings import UNREADABLE_CODE, Finding, Severity
from .notebook import Notebook, NotebookError, is_notebook_path
from .source import Range, SourceFile


@dataclass
class FileResult:
    path: str
    findings: list[Finding]
    error: str | None = None  # the file could not be read or decoded


_FILE_START = Range.of(0, 0, 0, 0)


class UnreadableFile(Exception):
    """A file that cannot be read or is not UTF-8; `where` is the offending byte's position."""

    def __init__(self, reason: str, where: Range = _FILE_START):
        super().__init__(reason)
        self.reason = reason
        self.where = where

    def finding(self, path: str | None) -> Finding:
        return Finding(UNREADABLE_CODE, f"Unreadable file: {self.reason}", self.where, path, Severity.ERROR)


# Issue 15: a file bigger than this is reported (PAL900 "too large") instead of read.  The CLI
# and the server set it from the `max-file-size` setting (set_max_file_size).
DEFAULT_MAX_FILE_SIZE = 8 * 1024 * 1024
max_file_size = DEFAULT_MAX_FILE_SIZE


def set_max_file_size(size: int | None) -> None:
    global max_file_size
    max_file_size = DEFAULT_MAX_FILE_SIZE if size is None else size


def read_file_bytes(path: str) -> bytes:
    """The bytes of a regular file of at most `max_file_size` bytes; UnreadableFile otherwise.

    Issue 15: a FIFO named *.py blocked `open` forever, a symlink to /dev/zero read until memory
    ran out.  The path is stat'ed before it is opened (a FIFO or a device is never opened), opened
    non-blocking (in case it was swapped for a FIFO since), checked again on the open descriptor,
    and read up to one byte past the limit (a file growing meanwhile is caught too)."""
    try:
        before = os.stat(path)
        if not stat.S_ISREG(before.st_mode):
            raise UnreadableFile("is not a regular file")
        if before.st_size > max_file_size:
            raise UnreadableFile(too_large_reason(before.st_size))
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except OSError as exc:
        raise UnreadableFile(f"cannot be read ({exc.strerror or exc})") from exc
    try:
        after = os.fstat(fd)
        if not stat.S_ISREG(after.st_mode):
            raise UnreadableFile("is not a regular file")
        chunks, size = [], 0
        while size <= max_file_size:
            chunk = os.read(fd, min(1 << 20, max_file_size + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise UnreadableFile(f"cannot be read ({exc.strerror or exc})") from exc
    finally:
        os.close(fd)
    if size > max_file_size:
        raise UnreadableFile(too_large_reason(size, at_least=True))
    return b"".join(chunks)


def text_too_large(text: str) -> UnreadableFile | None:
    """An editor's buffer over `max_file_size`, as `read_file_bytes` refuses a file that size
    (issue 35: a 52 MB buffer cost the server 39 s and 9.5 GB).  Its size in UTF-8 is only
    computed when it could be over (a character is at most four bytes)."""
    if len(text) * 4 <= max_file_size:
        return None
    size = len(text.encode("utf-8", "surrogatepass"))
    return UnreadableFile(too_large_reason(size)) if size > max_file_size else None


def too_large_reason(size: int, at_least: bool = False) -> str:
    more = "more than " if at_least else ""
    return f"is too large ({more}{size} bytes; the limit is {max_file_size}, see the `max-file-size` setting)"


def read_source(path: str) -> SourceFile:
    """Read and decode one file; UnreadableFile says why it could not be."""
    return source_from_bytes(read_file_bytes(path), path)


def source_from_bytes(data: bytes, path: str | None) -> SourceFile:
    """A file's source; for a notebook (`*.ipynb`), its code cells as one module."""
    try:
        source = SourceFile.from_bytes(data, path)
    except UnicodeDecodeError as exc:
        reason = f"not valid UTF-8 (byte 0x{data[exc.start]:02X} cannot be decoded)"
        raise UnreadableFile(reason, _byte_position(data, exc.start)) from exc
    if not is_notebook_path(path):
        return source
    try:
        notebook = Notebook.parse(source.text)
    except NotebookError as exc:
        raise UnreadableFile(str(exc), Range.of(0, 0, 0, 1)) from None
    return SourceFile(notebook.python, path, source.had_bom, notebook=notebook)


def _byte_position(data: bytes, offset: int) -> Range:
    """Where an undecodable byte is, in code points of the valid text before it."""
    before = data[:offset]
    line = before.count(b"\n")
    column = len(before[before.rfind(b"\n") + 1 :].decode("utf-8", errors="replace"))
    return Range.of(line, column, line, column + 1)


def file_digest(path: str) -> str:
    """The digest of a file's text as the project reads it (UNREADABLE when it cannot be)."""
    try:
        return text_digest(read_source(path).text)
    except UnreadableFile:
        return UNREADABLE


# What marks a project's root, looking up from a checked file (as ruff finds its pyproject).
_ROOT_MARKERS = ("pyproject.toml", ".git", "setup.py", "setup.cfg")


def project_root(path: str) -> str:
    """The nearest directory above `path` with a pyproject.toml, .git, setup.py or setup.cfg
    (the file's own directory when there is none)."""
    start = os.path.dirname(os.path.abspath(path))
    directory = start
    while True:
        if any(os.path.exists(os.path.join(directory, marker)) for marker in _ROOT_MARKERS):
            return directory
        parent = os.path.dirname(directory)
        if parent == directory:
            return start
        directory = parent

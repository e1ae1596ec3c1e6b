"""The findings cache of `pallas-ls check` (engine/batch.py): what a file's analysis found, and what
each group of the cross-module phase found, by content hash, one authenticated JSON file per entry.

An entry is keyed by the file's path and text, the analyser's version (its own sources included)
and the installed modules the file imports; it is reused only while what the analysis read besides
the file (its `Dependencies`) still holds, which batch.py checks.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import hmac
import json
import logging
import os
import secrets
import stat
import sys
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from .. import __version__
from .dependencies import Dependencies
from .environment import Environment
from .files import FileResult
from .findings import Applicability, Edit, Finding, Fix, Related, Severity
from .source import Range

log = logging.getLogger(__name__)
_T = TypeVar("_T")


@dataclass(frozen=True)
class Checked:
    path: str
    findings: list[Finding]
    standalone: bool  # launches no kernel imported from another module
    error: str | None = None
    launching: frozenset[str] = frozenset()  # names of its functions that may launch (wrappers)
    # What the analysis read besides the file's own text; None: not cacheable.
    dependencies: Dependencies | None = field(default=None, compare=False)
    # The files defining kernels it launches (a launcher's; None: not known, as in older cache entries).
    targets: frozenset[str] | None = None


@dataclass(frozen=True)
class AcrossResults:
    results: list[FileResult]
    dependencies: Dependencies


def cache_key(path: str, text: str, environment: Environment | None = None) -> str:
    """A file's findings can depend on the installed modules it imports: which files those are is
    part of the key (a package installed since is a miss)."""
    installed = environment.fingerprint(text) if environment is not None else ""
    return keyed_digest([path, text] + ([installed] if installed else []))


def keyed_digest(parts: Iterable[str]) -> str:
    digest = hashlib.blake2b(digest_size=20)
    for part in (analyser_version(), *parts):
        digest.update(part.encode("utf-8", "surrogatepass"))
        digest.update(b"\0")
    return digest.hexdigest()


@functools.lru_cache(maxsize=1)
def analyser_version() -> str:
    """pallas-ls's version and a fingerprint of its own source files (path, size, mtime): a
    development checkout changes its rules without changing its version, and a cached finding
    made by other rules must not be reused (issue 33: keyed by the analyser's version)."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return f"{__version__}+{source_fingerprint(package)}"


def source_fingerprint(directory: str) -> str:
    digest = hashlib.blake2b(digest_size=8)
    for root, dirs, files in os.walk(directory):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(f for f in files if f.endswith(".py")):
            path = os.path.join(root, name)
            with contextlib.suppress(OSError):
                info = os.stat(path)
                digest.update(f"{os.path.relpath(path, directory)}:{info.st_size}:{info.st_mtime_ns}\n".encode())
    return digest.hexdigest()


class FindingsCache:
    """Findings by content hash, one JSON file per entry; safe with concurrent runs (atomic renames).

    Issue 15: entries used to be pickles, so a planted entry ran code.  Now an entry is plain JSON,
    validated field by field; anything unexpected (another shape, wrong types, an entry made for
    another key, a file that is not ours) is a miss, never an error.

    Issue 35: an entry is authenticated.  Its first line is an HMAC of the rest, keyed with a
    secret kept in the user's own cache home (`$XDG_CACHE_HOME/pallas-ls/cache.key`), never in the
    project: an entry committed to a repository (CI paths are predictable, and the key of an entry
    is a hash of public data) cannot be forged to hide a finding.  Without a usable key there is no
    cache.  The cache directory, and
    every directory under it, must be a real directory (not a symlink) owned by us, or the cache
    is not used at all: a symlinked cache must not make `check` write outside the project.
    """

    MAX_ENTRY = 1 << 22  # bytes: no real entry comes close

    def __init__(self, directory: str, options: str = ""):
        self.root = directory
        self.directory = os.path.join(directory, __version__)
        self.usable = True
        self.options = options  # the rules' options (the TPU generation): findings depend on them

    def _file(self, key: str) -> str:
        name = keyed_digest([self.options, key]) if self.options else key
        return os.path.join(self.directory, name[:2], name + ".json")

    def _safe_directory(self, path: str, create: bool) -> bool:
        """`path` is a directory, not a symlink, owned by us (created, private, when `create`)."""
        try:
            info = os.lstat(path)
        except FileNotFoundError:
            if not create:
                return False
            try:
                os.mkdir(path, 0o700)
                info = os.lstat(path)
            except OSError:
                return False
        except OSError:
            return False
        return stat.S_ISDIR(info.st_mode) and _owned(info)

    def _safe_tree(self, key: str, create: bool) -> bool:
        if not self.usable:
            return False
        if not self._safe_directory(self.root, create):
            if os.path.lexists(self.root):
                log.warning("not using the cache %s: it is a symlink, not a directory, or not owned by you", self.root)
                self.usable = False
            return False
        return self._safe_directory(self.directory, create) and self._safe_directory(
            os.path.dirname(self._file(key)), create
        )

    def get(self, key: str, path: str) -> Checked | None:
        """A file's entry (its findings and what they depended on), if it is exactly what `put` wrote."""
        return self._read(key, lambda data: _checked_from_json(data, key, path))

    def put(self, key: str, value: Checked) -> None:
        self._write(key, _checked_to_json(value, key))

    def get_across(self, key: str) -> AcrossResults | None:
        """A cross-module phase's entry (the findings of each file it checked and what it read)."""
        return self._read(key, lambda data: _across_from_json(data, key))

    def put_across(self, key: str, value: AcrossResults) -> None:
        self._write(key, _across_to_json(value, key))

    def _read(self, key: str, parse: Callable[[Any], _T | None]) -> _T | None:
        if not self._safe_tree(key, create=False):
            return None
        try:
            fd = os.open(self._file(key), os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
        except OSError:
            return None  # missing: compute
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode) or not _owned(info) or info.st_size > self.MAX_ENTRY:
                return None
            with os.fdopen(fd, "rb", closefd=False) as handle:
                data = handle.read(self.MAX_ENTRY + 1)
            mac, _, body = data.partition(b"\n")
            secret = _secret()
            if secret is None or not hmac.compare_digest(mac, _mac(secret, body)):
                return None  # forged, or made with another key: recompute
            return parse(json.loads(body))
        except (OSError, ValueError, TypeError, KeyError, AttributeError, RecursionError):
            return None  # torn, from another version, or planted: recompute
        finally:
            os.close(fd)

    def _write(self, key: str, entry: dict[str, Any]) -> None:
        target = self._file(key)
        secret = _secret()
        try:
            if secret is None or not self._safe_tree(key, create=True):
                return
            _write_gitignore(self.root)
            fd, temporary = tempfile.mkstemp(dir=os.path.dirname(target), prefix=".tmp-")
            try:
                body = json.dumps(entry).encode("utf-8")
                with os.fdopen(fd, "wb") as handle:
                    handle.write(_mac(secret, body) + b"\n" + body)
                os.replace(temporary, target)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(temporary)
                raise
        except (OSError, ValueError) as exc:  # a read-only tree must not fail the check
            log.debug("cannot write cache entry %s: %s", target, exc)


def _mac(secret: bytes, body: bytes) -> bytes:
    return hmac.new(secret, body, hashlib.sha256).hexdigest().encode("ascii")


def user_cache_home() -> str:
    """The user's own cache directory (not the project's): `%LOCALAPPDATA%`, `~/Library/Caches`,
    else `$XDG_CACHE_HOME` or `~/.cache`."""
    if sys.platform == "win32" and os.environ.get("LOCALAPPDATA"):
        return os.environ["LOCALAPPDATA"]
    if sys.platform == "darwin":
        return os.path.expanduser("~/Library/Caches")
    return os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")


_SECRETS: dict[str, bytes | None] = {}  # key file -> its secret, once per process


def _secret() -> bytes | None:
    """The cache's HMAC key, created (private, 32 random bytes) on first use; None when the user's
    cache home cannot hold one (then nothing is cached)."""
    path = os.path.join(user_cache_home(), "pallas-ls", "cache.key")
    if path not in _SECRETS:
        _SECRETS[path] = _read_or_create_secret(path)
    return _SECRETS[path]


def _read_or_create_secret(path: str) -> bytes | None:
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)
    for _ in range(2):
        try:
            fd = os.open(path, flags)
        except FileNotFoundError:
            _create_secret(path)
            continue
        except OSError as exc:
            log.warning("not using the cache: cannot read its key %s: %s", path, exc)
            return None
        with os.fdopen(fd, "rb") as handle:
            info = os.fstat(handle.fileno())
            secret = handle.read(256).strip()
        if stat.S_ISREG(info.st_mode) and _owned(info) and len(secret) >= 32:
            return secret
        log.warning("not using the cache: its key %s is not a private file of yours", path)
        return None
    return None


def _create_secret(path: str) -> None:
    """Written whole, then linked into place: a concurrent run reads a complete key or none."""
    try:
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".key-")  # private (0600)
    except OSError as exc:
        log.debug("cannot create the cache key %s: %s", path, exc)
        return
    try:
        with os.fdopen(fd, "w", encoding="ascii") as handle:
            handle.write(secrets.token_hex(32) + "\n")
        os.link(temporary, path)
    except OSError as exc:  # FileExistsError: another run made it first, read theirs
        log.debug("cache key %s not created here: %s", path, exc)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temporary)


def _owned(info: os.stat_result) -> bool:
    return not hasattr(os, "geteuid") or info.st_uid == os.geteuid()


# ------------------------------------------------------------------ cache entries as plain JSON
def _range_json(r: Any) -> list[int]:
    return [r.start.line, r.start.column, r.end.line, r.end.column]


def _checked_to_json(value: Checked, key: str) -> dict[str, Any]:
    return {
        "key": key,
        "path": value.path,
        "standalone": value.standalone,
        "launching": sorted(value.launching),
        "targets": sorted(value.targets) if value.targets is not None else None,
        "findings": _findings_to_json(value.findings),
        "dependencies": value.dependencies.to_json() if value.dependencies is not None else None,
    }


def _across_to_json(value: AcrossResults, key: str) -> dict[str, Any]:
    return {
        "key": key,
        "results": [{"path": r.path, "findings": _findings_to_json(r.findings)} for r in value.results],
        "dependencies": value.dependencies.to_json(),
    }


def _findings_to_json(findings: list[Finding]) -> list[dict[str, Any]]:
    return [
        {
            "code": f.code,
            "message": f.message,
            "range": _range_json(f.range),
            "path": f.path,
            "severity": f.severity.value,
            "related": [{"path": r.path, "range": _range_json(r.range), "message": r.message} for r in f.related],
            "fixes": [
                {
                    "title": x.title,
                    "applicability": x.applicability.value,
                    "preferred": x.preferred,
                    "suppression": x.suppression,
                    "edits": [{"range": _range_json(e.range), "new_text": e.new_text} for e in x.edits],
                }
                for x in f.fixes
            ],
        }
        for f in findings
    ]


def _want(value: Any, kind: type | tuple[type, ...]) -> Any:
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise TypeError(f"expected {kind}, got {type(value).__name__}")
    return value


def _optional_str(value: Any) -> str | None:
    return None if value is None else _want(value, str)


def _range_from(value: Any) -> Range:
    parts = _want(value, list)
    if len(parts) != 4 or any(isinstance(p, bool) or not isinstance(p, int) or p < 0 for p in parts):
        raise ValueError("a range is four non-negative integers")
    return Range.of(*parts)


def _checked_from_json(data: Any, key: str, path: str) -> Checked | None:
    """A file's entry back, if it is exactly what `put` writes for this key and path; else None.

    An entry is only believed for its own key (the hash of version, path and text), so an entry
    copied from a clean file cannot hide another file's findings."""
    _want(data, dict)
    if data.get("key") != key or data.get("path") != path:
        return None
    findings = _findings_from_json(data["findings"])
    launching = frozenset(_want(name, str) for name in _want(data["launching"], list))
    dependencies = Dependencies.from_json(data["dependencies"])
    listed = data.get("targets")
    targets = frozenset(_want(t, str) for t in _want(listed, list)) if listed is not None else None
    return Checked(path, findings, _want(data["standalone"], bool), None, launching, dependencies, targets)


def _across_from_json(data: Any, key: str) -> AcrossResults | None:
    _want(data, dict)
    if data.get("key") != key:
        return None
    results = [
        FileResult(_want(item["path"], str), _findings_from_json(item["findings"]))
        for item in map(lambda r: _want(r, dict), _want(data["results"], list))
    ]
    return AcrossResults(results, Dependencies.from_json(data["dependencies"]))


def _findings_from_json(items: Any) -> list[Finding]:
    """Raises TypeError, ValueError or KeyError for anything but what `_findings_to_json` makes."""
    findings = []
    for item in _want(items, list):
        _want(item, dict)
        code = _want(item["code"], str)
        if not code.startswith("PAL"):
            raise ValueError(f"not a finding of ours: {code}")
        findings.append(
            Finding(
                code,
                _want(item["message"], str),
                _range_from(item["range"]),
                _optional_str(item["path"]),
                Severity(_want(item["severity"], str)),
                [
                    Related(_optional_str(r["path"]), _range_from(r["range"]), _want(r["message"], str))
                    for r in map(lambda r: _want(r, dict), _want(item["related"], list))
                ],
                [
                    Fix(
                        _want(x["title"], str),
                        tuple(
                            Edit(_range_from(e["range"]), _want(e["new_text"], str))
                            for e in map(lambda e: _want(e, dict), _want(x["edits"], list))
                        ),
                        Applicability(_want(x["applicability"], str)),
                        _want(x["preferred"], bool),
                        _want(x["suppression"], bool),
                    )
                    for x in map(lambda x: _want(x, dict), _want(item["fixes"], list))
                ],
            )
        )
    return findings


def _write_gitignore(directory: str) -> None:
    marker = os.path.join(directory, ".gitignore")
    if not os.path.exists(marker):
        with open(marker, "w", encoding="utf-8") as handle:
            handle.write("# Created by pallas-ls automatically.\n*\n")

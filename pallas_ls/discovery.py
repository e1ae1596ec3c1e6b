"""Which files `pallas-ls check` looks at.

Directories are walked for `*.py`, skipping version-control metadata, virtual environments, build
output and `exclude` patterns.  A file named on the command line is always checked: the user asked
for it explicitly (ruff does the same).
"""

from __future__ import annotations

import functools
import logging
import os
import re
from dataclasses import dataclass
from typing import Iterable, Iterator

log = logging.getLogger(__name__)

# Directory names never worth walking into: metadata, caches, environments and build output.
SKIPPED_DIRS = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        ".bzr",
        ".venv",
        "venv",
        "node_modules",
        "__pycache__",
        ".tox",
        ".nox",
        "build",
        "dist",
        ".eggs",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        ".pallas-ls-cache",
        "__pypackages__",
    }
)


class PathNotFound(Exception):
    pass


@dataclass(frozen=True)
class ExcludePattern:
    """A glob pattern, matched like a .gitignore line.

    A pattern without `/` matches any file or directory name at any depth (`generated`,
    `*_pb2.py`); a pattern with `/` matches the path relative to `base` (`tests/fixtures/**`).
    `**` spans directories, `*` and `?` do not.
    """

    pattern: str
    base: str

    @property
    def anchored(self) -> bool:
        return "/" in self.pattern.rstrip("/")

    @functools.cached_property
    def regex(self) -> re.Pattern[str]:
        glob = self.pattern.strip("/")
        return _compile(glob[2:] if glob.startswith("./") else glob)

    def matches(self, path: str) -> bool:
        """`path` is absolute."""
        if not self.anchored:
            return bool(self.regex.fullmatch(os.path.basename(path)))
        try:
            rel = os.path.relpath(path, self.base).replace(os.sep, "/")
        except ValueError:  # another drive on Windows: not under base
            return False
        return rel.split("/")[0] != ".." and bool(self.regex.fullmatch(rel))


def _compile(glob: str) -> re.Pattern[str]:
    out, i = [], 0
    while i < len(glob):
        if glob.startswith("**/", i):
            out.append("(?:.*/)?")  # zero or more directories
            i += 3
        elif glob.startswith("**", i):
            out.append(".*")
            i += 2
        elif glob[i] == "*":
            out.append("[^/]*")
            i += 1
        elif glob[i] == "?":
            out.append("[^/]")
            i += 1
        elif glob[i] == "[" and glob.find("]", i + 2) != -1:
            end = glob.find("]", i + 2)  # from i + 2: a `]` right after `[` is a member
            body = glob[i + 1 : end].replace("\\", "\\\\")
            out.append("[" + ("^" + body[1:] if body.startswith("!") else body) + "]")
            i = end + 1
        else:
            out.append(re.escape(glob[i]))
            i += 1
    return re.compile("".join(out))


def is_virtualenv(directory: str) -> bool:
    """Any directory with a pyvenv.cfg is an environment, whatever its name."""
    return os.path.isfile(os.path.join(directory, "pyvenv.cfg"))


def is_excluded(path: str, excludes: Iterable[ExcludePattern]) -> bool:
    return any(pattern.matches(path) for pattern in excludes)


def _walk(root: str, excludes: list[ExcludePattern]) -> Iterator[str]:
    def on_error(exc: OSError) -> None:
        log.warning("cannot list %s: %s", exc.filename, exc.strerror)

    for directory, dirnames, filenames in os.walk(root, onerror=on_error):
        # Pruning in place stops os.walk from descending; sorted for a stable output order.
        dirnames[:] = sorted(
            name
            for name in dirnames
            if name not in SKIPPED_DIRS
            and not is_virtualenv(os.path.join(directory, name))
            and not is_excluded(os.path.join(directory, name), excludes)
        )
        for name in sorted(filenames):
            path = os.path.join(directory, name)
            if name.endswith(".py") and not is_excluded(path, excludes):
                yield path


def discover(paths: Iterable[str], excludes: Iterable[ExcludePattern] = ()) -> list[str]:
    """Absolute paths of the files to check, in a stable order, each once.

    A directory named explicitly is walked even if its own name would be skipped (`check .venv`
    means it); what is below it is filtered.  Raises PathNotFound for a path that does not exist.
    """
    excludes = list(excludes)
    seen: dict[str, None] = {}
    for raw in paths:
        path = os.path.abspath(raw)
        if os.path.isdir(path):
            found: Iterable[str] = _walk(path, excludes)
        elif os.path.exists(path):
            found = [path]
        else:
            raise PathNotFound(raw)
        for file in found:
            seen.setdefault(file, None)
    return list(seen)

"""Which files `pallas-ls check` looks at.

Directories are walked for `*.py` and `*.ipynb`, skipping version-control metadata, virtual
environments, build output, `exclude` patterns, what `.gitignore` / `.ignore` / git's exclude
files ignore (ignorefiles.py), and symlinked files that resolve outside the walked tree.  A file
named on the command line is always checked, a symlink too: the user asked for it explicitly (ruff
does the same).
"""

from __future__ import annotations

import functools
import logging
import os
import stat
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .ignorefiles import IgnoreFiles


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


class InvalidGlob(ValueError):
    """An exclude pattern that cannot be compiled (`[z-a]`); the message names the pattern."""


@dataclass(frozen=True)
class ExcludePattern:
    """A glob pattern, matched like a .gitignore line.

    A pattern without `/` matches any file or directory name at any depth (`generated`,
    `*_pb2.py`); a pattern with `/` matches the path relative to `base` (`tests/fixtures/**`).
    `**` spans directories, `*` and `?` do not.
    """

    pattern: str
    base: str

    def __post_init__(self) -> None:
        _ = self.matcher  # compiled now: an invalid pattern raises InvalidGlob where it is given

    @property
    def anchored(self) -> bool:
        return "/" in self.pattern.rstrip("/")

    @functools.cached_property
    def matcher(self) -> GlobMatcher:
        glob = self.pattern.strip("/")
        return GlobMatcher(glob[2:] if glob.startswith("./") else glob, self.pattern)

    def matches(self, path: str) -> bool:
        """`path` is absolute."""
        if not self.anchored:
            return self.matcher.fullmatch(os.path.basename(path))
        try:
            rel = os.path.relpath(path, self.base).replace(os.sep, "/")
        except ValueError:  # another drive on Windows: not under base
            return False
        return rel.split("/")[0] != ".." and self.matcher.fullmatch(rel)


# Issue 15: globs used to become Python regular expressions, which backtrack: `*a*a*a*a*a*a*a*a*b`
# took minutes on a long name.  Now a glob is a list of tokens matched by simulating all its
# states at once (a Thompson NFA): time linear in the name's length times the pattern's.
_LITERAL, _ANY, _CLASS, _STAR, _GLOBSTAR, _DIRS = range(6)


class GlobMatcher:
    """`*` and `?` never match `/`, `**` matches anything, `**/` zero or more directories,
    `[abc]`, `[a-z]`, `[!a-z]` (or `[^a-z]`) a class (a `]` right after `[` or `[!` is a member),
    `\\x` the character x.  A `[` without its `]` is literal; a reversed range is InvalidGlob."""

    def __init__(self, glob: str, shown: str | None = None) -> None:
        self.tokens = _tokenize(glob, glob if shown is None else shown)
        # `*.py`, `*.ipynb` (the default `include`, asked of every file walked): a suffix test.
        rest = self.tokens[1:]
        simple = self.tokens[:1] == [(_STAR, None)] and all(kind == _LITERAL for kind, _ in rest)
        self._suffix = "".join(str(value) for _, value in rest) if simple else None

    def _closure(self, states: set[int]) -> set[int]:
        """`states` and those reached without consuming a character."""
        stack, seen = list(states), set(states)
        while stack:
            i = stack.pop()
            if i >= len(self.tokens):
                continue
            kind = self.tokens[i][0]
            nexts = (i + 1,) if kind in (_STAR, _GLOBSTAR) else (i + 1, i + 2) if kind == _DIRS else ()
            for j in nexts:
                if j not in seen:
                    seen.add(j)
                    stack.append(j)
        return seen

    def fullmatch(self, text: str) -> bool:
        if self._suffix is not None:
            return "/" not in text and text.endswith(self._suffix)
        tokens, end = self.tokens, len(self.tokens)
        states = self._closure({0})
        for char in text:
            step = set()
            for i in states:
                if i == end:
                    continue
                kind, value = tokens[i]
                if kind == _LITERAL:
                    if char == value:
                        step.add(i + 1)
                elif kind == _ANY:
                    if char != "/":
                        step.add(i + 1)
                elif kind == _CLASS:
                    negated, members, ranges = value
                    inside = char in members or any(lo <= char <= hi for lo, hi in ranges)
                    if inside != negated and char != "/":
                        step.add(i + 1)
                elif kind == _STAR:
                    if char != "/":
                        step.add(i)
                else:  # ** and the `**` of `**/` consume anything
                    step.add(i)
            if not step:
                return False
            states = self._closure(step)
        return end in states


def _tokenize(glob: str, shown: str) -> list[tuple[int, Any]]:
    tokens: list[tuple[int, Any]] = []
    i = 0
    while i < len(glob):
        char = glob[i]
        if glob.startswith("**/", i):
            # `(.*/)?`: _DIRS consumes anything, then the `/` literal; or both are skipped.
            tokens += [(_DIRS, None), (_LITERAL, "/")]
            i += 3
        elif glob.startswith("**", i):
            tokens.append((_GLOBSTAR, None))
            i += 2
        elif char == "*":
            if not (tokens and tokens[-1][0] == _STAR):  # `**` is handled above; never two stars in a row
                tokens.append((_STAR, None))
            i += 1
        elif char == "?":
            tokens.append((_ANY, None))
            i += 1
        elif char == "[":
            parsed = _parse_class(glob, i, shown)
            if parsed is None:
                tokens.append((_LITERAL, "["))
                i += 1
            else:
                token, i = parsed
                tokens.append(token)
        elif char == "\\" and i + 1 < len(glob):
            tokens.append((_LITERAL, glob[i + 1]))
            i += 2
        else:
            tokens.append((_LITERAL, char))
            i += 1
    return tokens


def _parse_class(glob: str, start: int, shown: str) -> tuple[tuple[int, Any], int] | None:
    """The class starting at glob[start] == "[" and the index after it; None when it is not closed."""
    i = start + 1
    negated = i < len(glob) and glob[i] in "!^"
    if negated:
        i += 1
    members: set[str] = set()
    ranges: list[tuple[str, str]] = []
    first = True
    while i < len(glob):
        char = glob[i]
        if char == "]" and not first:
            return (_CLASS, (negated, frozenset(members), tuple(ranges))), i + 1
        first = False
        if char == "\\" and i + 1 < len(glob):
            i += 1
            char = glob[i]
        if i + 2 < len(glob) and glob[i + 1] == "-" and glob[i + 2] != "]":
            high = glob[i + 2]
            if high == "\\" and i + 3 < len(glob):
                high, i = glob[i + 3], i + 1
            if high < char:
                raise InvalidGlob(f"invalid pattern {shown!r}: the range {char}-{high} is reversed")
            ranges.append((char, high))
            i += 3
        else:
            members.add(char)
            i += 1
    return None


# What a walked directory yields: Python files and Jupyter notebooks (their code cells).
CHECKED_SUFFIXES = (".py", ".ipynb")


def is_virtualenv(directory: str) -> bool:
    """Any directory with a pyvenv.cfg is an environment, whatever its name."""
    return os.path.isfile(os.path.join(directory, "pyvenv.cfg"))


def is_excluded(path: str, excludes: Iterable[ExcludePattern]) -> bool:
    return any(pattern.matches(path) for pattern in excludes)


def _walk(
    root: str, excludes: list[ExcludePattern], includes: list[ExcludePattern] | None, ignore_files: IgnoreFiles | None
) -> Iterator[str]:
    def on_error(exc: OSError) -> None:
        log.warning("cannot list %s: %s", exc.filename, exc.strerror)

    real_root = os.path.realpath(root)
    for directory, dirnames, filenames in os.walk(root, onerror=on_error):
        # Pruning in place stops os.walk from descending; sorted for a stable output order.
        dirnames[:] = sorted(
            name
            for name in dirnames
            if name not in SKIPPED_DIRS
            and not is_virtualenv(os.path.join(directory, name))
            and not is_excluded(os.path.join(directory, name), excludes)
            and not (ignore_files and ignore_files.ignored(os.path.join(directory, name), is_dir=True))
        )
        for name in sorted(filenames):
            path = os.path.join(directory, name)
            included = name.endswith(CHECKED_SUFFIXES) if includes is None else is_excluded(path, includes)
            if (
                included
                and not _special(path)
                and not is_excluded(path, excludes)
                and _inside(path, real_root)
                and not (ignore_files and ignore_files.ignored(path, is_dir=False))
            ):
                yield path


def _inside(path: str, real_root: str) -> bool:
    """A walked file that is a symlink resolving outside the tree being walked is skipped, as black
    does (issue 35: `link.py -> ../outside/k.py` made `check --fix .` rewrite `outside/k.py`)."""
    if not os.path.islink(path):
        return True
    real = os.path.realpath(path)
    try:
        return os.path.commonpath([real, real_root]) == real_root
    except ValueError:  # another drive on Windows
        return False


def _special(path: str) -> bool:
    """A FIFO, socket or device named *.py (or a symlink to one): skipped in a walked directory,
    never opened (issue 15: a FIFO hung `check`, /dev/zero used up memory).  A dangling link is
    not special: it is reported as unreadable, like a file deleted after the listing."""
    try:
        return not stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def discover(
    paths: Iterable[str],
    excludes: Iterable[ExcludePattern] = (),
    includes: Iterable[ExcludePattern] | None = None,
    respect_gitignore: bool = True,
) -> list[str]:
    """Absolute paths of the files to check, in a stable order, each once.

    A walked directory yields the files matching `includes` (default: `*.py` and `*.ipynb`); a
    file named explicitly is checked whatever its name.

    A directory named explicitly is walked even if its own name would be skipped (`check .venv`
    means it); what is below it is filtered, by `.gitignore`, `.ignore` and git's exclude files too
    unless `respect_gitignore` is false (ignorefiles.py).  Raises PathNotFound for a path that does
    not exist.
    """
    excludes = list(excludes)
    from .ignorefiles import IgnoreFiles  # it reads patterns with this module's ExcludePattern

    ignore_files = IgnoreFiles() if respect_gitignore else None
    seen: dict[str, str] = {}  # real path -> the first name it was found under
    for raw in paths:
        path = os.path.abspath(raw)
        if os.path.isdir(path):
            found: Iterable[str] = _walk(path, excludes, None if includes is None else list(includes), ignore_files)
        elif os.path.exists(path):
            found = [path]
        else:
            raise PathNotFound(raw)
        for file in found:
            # Issue 15: one file reached through two symlinks is checked (and counted, and fixed) once.
            seen.setdefault(os.path.realpath(file), file)
    return list(seen.values())

"""Which source file a dotted module name denotes on an environment's search path: read from the
file system with Python's own precedence, never imported.

- The search path in order; in one directory a package (`name/__init__`) before a module
  (`name.py`), and a compiled form (`name.cpython-311-x86_64-linux-gnu.so`, `.pyd`, a sourceless
  `.pyc`) before the source, as importlib's FileFinder checks them.  A compiled module is unknown:
  the lookup stops there, with no answer (the import stays opaque, so nothing is reported).
- A directory without `__init__` is a portion of a namespace package: portions are collected
  across the search path, and submodules are looked up in all of them.
- Stubs (`.pyi`) are skipped: Python never imports them and their bodies are `...`, so there is
  nothing to follow in them.
- `.pth` files in a search directory: their path lines extend the search path (for a directory
  given as is; an interpreter's own `sys.path` already has them); their `import` lines are never
  run, but the modules they import are read for editable-install mappings: setuptools'
  `__editable___*_finder.py` (`MAPPING` / `NAMESPACES`), and the `editables` redirector used by
  hatchling and pdm-backend (`F.map_module('name', '/src/name/__init__.py')`).  Like the finders
  they describe, mappings come after the search path.
"""

from __future__ import annotations

import ast
import os
import re
from dataclasses import dataclass
from typing import Any

# A finder module bigger than this is not an editable-install finder (they are a few kB).
_MAX_FINDER_BYTES = 1 << 20
_COMPILED_SUFFIXES = (".so", ".pyd", ".pyc")
_PTH_IMPORT = re.compile(r"^import\s")
_IMPORTED_NAME = re.compile(r"\bimport\s+([A-Za-z_][\w.]*)")


@dataclass(frozen=True)
class _Source:
    path: str  # the module's file (a package's `__init__.py`)
    is_package: bool


@dataclass(frozen=True)
class _Namespace:
    portions: tuple[str, ...]


class _Compiled:
    """A compiled module: the lookup knows it exists and cannot read it."""


_COMPILED = _Compiled()
_Spec = _Source | _Namespace | _Compiled


class SearchPath:
    """Finds the source of dotted module names on a list of directories (and their `.pth`
    files); directory listings and answers are cached for the object's life."""

    def __init__(self, directories: list[str], read_pth: bool = True):
        self._given = [os.path.abspath(d) for d in directories]
        self._read_pth = read_pth
        self._directories: list[str] | None = None  # with .pth additions, computed on first use
        self._mappings: dict[str, _Spec] = {}
        self._listings: dict[str, dict[str, set[str]] | None] = {}
        self._answers: dict[str, tuple[str, list[str]] | None] = {}

    @property
    def directories(self) -> list[str]:
        if self._directories is None:
            self._directories = self._expand(self._given)
        return self._directories

    def locate(self, dotted: str) -> tuple[str, list[str]] | None:
        """(file, attribute names left) for an absolute dotted name, or None (not found, only
        compiled, a namespace package with no such submodule)."""
        if dotted not in self._answers:
            self._answers[dotted] = self._locate([p for p in dotted.split(".") if p])
        return self._answers[dotted]

    # ------------------------------------------------------------------------------ lookup
    def _locate(self, parts: list[str]) -> tuple[str, list[str]] | None:
        if not parts:
            return None
        directories = self.directories
        found: str | None = None  # the deepest source file reached so far
        for index, part in enumerate(parts):
            spec = self._find(directories, part)
            if spec is None and index == 0:
                spec = self._mappings.get(part)
            if isinstance(spec, _Compiled):
                return None
            if spec is None:
                return (found, parts[index:]) if found else None
            if isinstance(spec, _Namespace):
                found, directories = None, list(spec.portions)
            elif spec.is_package:
                found, directories = spec.path, [os.path.dirname(spec.path)]
            else:
                return spec.path, parts[index + 1 :]
        return (found, []) if found else None

    def _find(self, directories: list[str], name: str) -> _Spec | None:
        portions: list[str] = []
        for directory in directories:
            stems = self._listing(directory)
            if not stems or name not in stems:
                continue
            kinds = stems[name]
            if "dir" in kinds:
                init = self._listing(os.path.join(directory, name)) or {}
                init_kinds = init.get("__init__", set())
                if init_kinds & {"compiled"}:
                    return _COMPILED
                if "py" in init_kinds:
                    return _Source(os.path.join(directory, name, "__init__.py"), True)
            if "compiled" in kinds:
                return _COMPILED
            if "py" in kinds:
                return _Source(os.path.join(directory, name + ".py"), False)
            if "dir" in kinds:
                portions.append(os.path.join(directory, name))
        return _Namespace(tuple(portions)) if portions else None

    def _listing(self, directory: str) -> dict[str, set[str]] | None:
        """The directory's entries by stem: {"pkg": {"dir"}, "mod": {"py", "compiled"}}."""
        if directory not in self._listings:
            self._listings[directory] = _stems(directory)
        return self._listings[directory]

    # ----------------------------------------------------------------------------- .pth files
    def _expand(self, directories: list[str]) -> list[str]:
        result = list(dict.fromkeys(directories))
        if not self._read_pth:
            return result
        for directory in list(result):
            for added in self._read_pth_files(directory):
                if added not in result:
                    result.append(added)  # site.addpackage appends too
        return result

    def _read_pth_files(self, directory: str) -> list[str]:
        try:
            names = sorted(n for n in os.listdir(directory) if n.endswith(".pth"))
        except OSError:
            return []
        added: list[str] = []
        for name in names:
            for line in _lines(os.path.join(directory, name)):
                if _PTH_IMPORT.match(line):
                    for module in _IMPORTED_NAME.findall(line):
                        self._read_finder(os.path.join(directory, module.split(".")[0] + ".py"))
                elif not line.startswith("#"):
                    path = os.path.normpath(os.path.join(directory, line.rstrip()))
                    if os.path.isdir(path):
                        added.append(path)
        return added

    def _read_finder(self, path: str) -> None:
        """Mappings an editable-install finder module declares (read as source, never run)."""
        for name, target in _finder_mappings(path):
            if "." in name or name in self._mappings:
                continue  # a submodule remapped inside a package: rare, not followed
            top = name
            if isinstance(target, tuple):
                self._mappings[top] = _Namespace(tuple(os.path.abspath(t) for t in target))
            elif os.path.isdir(target) and os.path.isfile(os.path.join(target, "__init__.py")):
                self._mappings[top] = _Source(os.path.join(target, "__init__.py"), True)
            elif target.endswith(".py") and os.path.isfile(target):
                self._mappings[top] = _Source(target, os.path.basename(target) == "__init__.py")
            elif os.path.isdir(target):
                self._mappings[top] = _Namespace((target,))


def _stems(directory: str) -> dict[str, set[str]] | None:
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return None
    stems: dict[str, set[str]] = {}
    for entry in entries:
        name = entry.name
        try:
            if entry.is_dir():
                if name.isidentifier():
                    stems.setdefault(name, set()).add("dir")
                continue
        except OSError:
            continue
        stem, dot, _suffix = name.partition(".")
        if not dot or not stem.isidentifier():
            continue
        if name == stem + ".py":
            stems.setdefault(stem, set()).add("py")
        elif name.endswith(_COMPILED_SUFFIXES):
            stems.setdefault(stem, set()).add("compiled")
    return stems


def _lines(path: str) -> list[str]:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return [line.strip() for line in handle.read(_MAX_FINDER_BYTES).splitlines() if line.strip()]
    except OSError:
        return []


def _finder_mappings(path: str) -> list[tuple[str, str | tuple[str, ...]]]:
    """(name, target) pairs: a setuptools finder's `MAPPING = {...}` (a package directory or a
    module file) and `NAMESPACES = {...}` (a tuple of portions), an editables bootstrap's
    `F.map_module(name, file)`.  Anything else in the file is ignored."""
    try:
        if os.path.getsize(path) > _MAX_FINDER_BYTES:
            return []
        with open(path, encoding="utf-8") as handle:
            tree = ast.parse(handle.read())
    except (OSError, SyntaxError, ValueError, UnicodeDecodeError):
        return []
    found: list[tuple[str, str | tuple[str, ...]]] = []
    for node in tree.body:
        target, value = _assigned(node)
        if target == "MAPPING":
            found += [(k, v) for k, v in _literal_dict(value).items() if isinstance(v, str)]
        elif target == "NAMESPACES":
            found += [
                (k, tuple(v))
                for k, v in _literal_dict(value).items()
                if isinstance(v, list) and all(isinstance(p, str) for p in v)
            ]
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) and _is_map_module(node.value):
            found.append((node.value.args[0].value, node.value.args[1].value))  # type: ignore[attr-defined]  # constants, checked by _is_map_module
    return [(k, v) for k, v in found if isinstance(k, str) and k]


def _assigned(node: ast.stmt) -> tuple[str | None, ast.expr | None]:
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
        return node.targets[0].id, node.value
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):  # `MAPPING: dict[str, str] = ...`
        return node.target.id, node.value
    return None, None


def _literal_dict(node: ast.expr | None) -> dict[Any, Any]:
    try:
        value = ast.literal_eval(node) if node is not None else None
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return {}
    return value if isinstance(value, dict) else {}


def _is_map_module(call: ast.expr) -> bool:
    return (
        isinstance(call, ast.Call)
        and isinstance(call.func, ast.Attribute)
        and call.func.attr == "map_module"
        and len(call.args) == 2
        and all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in call.args)
    )

"""Which files may launch a kernel, read from their text alone (import lines and names, never
parsed): files that never say "pallas" but call a wrapper of a Pallas file (`quiet_launchers`),
and the files that launch the kernels of files named on the command line (`launching_context`).
A check whose findings are all cached still asks these questions, so they stay cheap and need
nothing of the analysis engine (issue 33)."""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Callable, Iterable

from .files import UnreadableFile, read_file_bytes
from .names import import_statements, mentions_pallas


def mentions_one_of(text: str, names: frozenset[str]) -> bool:
    """Whether `text` holds one of `names` as a whole word (a substring search first: a regular
    expression tried at every position of a long text costs 20 times more)."""
    return any(name and name in text and _word(name).search(text) for name in names)


@functools.lru_cache(maxsize=256)
def _word(name: str) -> re.Pattern[str]:
    return re.compile(r"\b" + re.escape(name) + r"\b")


def quiet_launchers(
    wrappers: dict[str, frozenset[str]],
    quiet: dict[str, str],
    imports_pallas: Callable[[str], bool] | None = None,
) -> list[str]:
    """Of the files that never say "pallas" (`quiet`: path -> text), those that may launch a kernel:
    they import a file holding wrappers (`wrappers`: path -> the wrappers' names, see
    ModuleAnalysis.launching) and name one, or they import an installed module that may launch
    (`imports_pallas`).  One step further: a file so found holds what it makes of a wrapper at
    module level as a wrapper in turn - a subclass (`class Fancy(base.Op)` in fancy.py; then
    main.py's `fancy.Fancy().run(x)` launches Op.run's kernel), a function calling one, a partial
    or alias of one (`fast = functools.partial(launch.launch, ...)`).  Read as text, never parsed."""
    found = [path for path, text in quiet.items() if imports_pallas is not None and imports_pallas(text)]
    left = {path: text for path, text in quiet.items() if path not in found}
    holding = {path: names for path, names in wrappers.items() if names}
    for _ in range(_QUIET_STEPS):
        if not holding or not left:
            break
        imported = ImportedFiles(holding)
        names = frozenset().union(*holding.values())
        step = [
            path for path, text in left.items() if mentions_one_of(text, names) and imported.imported_by(text, path)
        ]
        found += step
        holding = {path: _wrappers_made_of(left.pop(path), names) for path in step}
        holding = {path: made for path, made in holding.items() if made}
    return found


_CLASS_WITH_BASES = re.compile(r"^class\s+([A-Za-z_]\w*)\s*\(([^)]*)\)", re.MULTILINE)
# A module-level def or assignment: its line at column 0 and the indented (or blank) lines after it.
_DEF_OR_ASSIGNMENT = re.compile(
    r"^(?:(?:async[ \t]+)?def[ \t]+([A-Za-z_]\w*)|([A-Za-z_]\w*)[ \t]*(?::[^=\n]*)?=(?!=))"
    r"(.*(?:\n(?:[ \t]+.*|[ \t]*(?=\n)))*)",
    re.MULTILINE,
)


def _wrappers_made_of(text: str, names: frozenset[str]) -> frozenset[str]:
    """The module-level names of `text` made of one of `names`: a class deriving from a wrapper
    class (`class Fancy(base.Op)`), a function calling a wrapper, an alias or partial of one
    (`fast = functools.partial(launch.launch, kernel=k)`)."""
    subclasses = {cls for cls, bases in _CLASS_WITH_BASES.findall(text) if mentions_one_of(bases, names)}
    made = {
        defined or assigned
        for defined, assigned, rest in _DEF_OR_ASSIGNMENT.findall(text)
        if mentions_one_of(rest, names)
    }
    return frozenset(subclasses | made)


# How many files deep `quiet_launchers` follows imports from a wrapper's file: its importers, and theirs.
_QUIET_STEPS = 2


def launching_context(named: Iterable[str], candidates: Iterable[str]) -> list[str]:
    """The candidate files that may launch a kernel defined in a named file: they say "pallas" and
    import a module named like one of the named files (read as text; never parsed here).

    `check kern.py` (pre-commit passes only the changed files) must see the launch in launch.py
    that makes kern.py's function a kernel; these files are analysed with the named ones, and
    their own findings are not reported.  A file that never says "pallas" is one too when it names
    a function or class a named Pallas file defines at module level (`from ops import run;
    run("bump", x)`: what `run` launches is decided by its calls, this one included), and so are
    those `quiet_launchers` finds one step further (a subclass of such a class, and its users)."""
    named = [os.path.abspath(p) for p in named]
    imported = ImportedFiles(named)
    wanted = set(named)
    found = []
    quiet: dict[str, str] = {}
    for path in candidates:
        path = os.path.abspath(path)
        if path in wanted:
            continue
        try:
            text = read_file_bytes(path).decode("utf-8", errors="replace")
        except UnreadableFile:
            continue
        if mentions_pallas(text):
            if imported.imported_by(text, path):
                found.append(path)
        else:
            quiet[path] = text
    return found + quiet_launchers(_defined_in_pallas_files(named), quiet)


_TOP_LEVEL_DEF = re.compile(r"^(?:async\s+def|def|class)\s+([A-Za-z_]\w*)", re.MULTILINE)


def _defined_in_pallas_files(paths: list[str]) -> dict[str, frozenset[str]]:
    """The module-level defs and classes of each of `paths` that says "pallas" (read as text)."""
    names: dict[str, frozenset[str]] = {}
    for path in paths:
        try:
            text = read_file_bytes(path).decode("utf-8", errors="replace")
        except UnreadableFile:
            continue
        if mentions_pallas(text):
            names[path] = frozenset(_TOP_LEVEL_DEF.findall(text))
    return names


class ImportedFiles:
    """Whether a file's import lines name one of some files as a module (read as text, never
    parsed): `import a.wrap`, `from a.wrap import f`, `from a import wrap`, `from . import wrap`,
    or the package whose `__init__` imports one of them (a re-export).

    An absolute import matches a file whose path ends with the dotted name (where the project's
    roots are is not known here); a relative one, the file it names from the importing file's
    directory.  (Matching module names alone made every jax module that imports `jax._src.core`
    a launcher of a wrapper named `core`: 30 files analysed again for nothing, 1.4 s of 3.)"""

    def __init__(self, files: Iterable[str]):
        files = [os.path.abspath(f) for f in files]
        self._files = {_module_parts(f): f for f in files}
        self._modules = set(self._files)
        for directory in {os.path.dirname(f) for f in files}:
            init = os.path.join(directory, "__init__.py")
            if init in files:
                continue
            try:
                with open(init, encoding="utf-8", errors="replace") as handle:
                    text = handle.read(200_000)
            except OSError:
                continue
            if self.imported_by(text, init):
                self._modules.add(_module_parts(init))

    def __bool__(self) -> bool:
        return bool(self._modules)

    def imported_by(self, text: str, path: str) -> bool:
        for module, names in import_statements(text):
            for dotted in (
                module,
                *(f"{module}.{name}" if not module.endswith(".") else module + name for name in names),
            ):
                if self._names_one(dotted, path):
                    return True
        return False

    def files_imported_by(self, text: str, path: str) -> set[str]:
        """Which of the files a file's import lines name (directly, not through a package)."""
        found = set()
        for module, names in import_statements(text):
            for dotted in (
                module,
                *(f"{module}.{name}" if not module.endswith(".") else module + name for name in names),
            ):
                relative, parts = _imported_module(dotted, path)
                found |= {f for module_parts, f in self._files.items() if _matches(module_parts, relative, parts)}
        return found

    def _names_one(self, dotted: str, path: str) -> bool:
        relative, parts = _imported_module(dotted, path)
        if relative:
            return parts in self._modules
        return any(_matches(module, relative, parts) for module in self._modules)


def _imported_module(dotted: str, path: str) -> tuple[bool, tuple[str, ...]]:
    """What an import of `dotted` written in `path` names: (True, the whole module's parts) for a
    relative import, (False, the dotted name's parts, which a module's path ends with) else."""
    level = len(dotted) - len(dotted.lstrip("."))
    parts = tuple(p for p in dotted[level:].split(".") if p)
    if not level:
        return False, parts
    base = os.path.dirname(os.path.abspath(path))
    for _ in range(level - 1):
        base = os.path.dirname(base)
    return True, _module_parts(os.path.join(base, *parts) + ".py")


def _matches(module: tuple[str, ...], relative: bool, parts: tuple[str, ...]) -> bool:
    if relative:
        return module == parts
    return bool(parts) and module[-len(parts) :] == parts


def _module_parts(path: str) -> tuple[str, ...]:
    """`/a/pkg/wrap.py` -> (..., "a", "pkg", "wrap"); a package's `__init__.py` is the package."""
    stem = os.path.splitext(os.path.normpath(path))[0]
    parts = tuple(stem.split(os.sep))
    return parts[:-1] if parts and parts[-1] == "__init__" else parts

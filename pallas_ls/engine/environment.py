"""The user's Python environment: where imports the project cannot resolve are looked up (an
installed or editable package's wrapper is followed, read as source, never imported).

Which interpreter, first that applies (the order jedi's `get_default_environment` uses):
1. the one configured (`--python`, `[tool.pallas-ls] python`, the server's `python` setting):
   an interpreter, or an environment directory (a virtualenv or a conda prefix);
2. the active virtualenv, `$VIRTUAL_ENV`;
3. the active conda environment, `$CONDA_PREFIX`;
4. the interpreter pallas-ls runs in.

Its search path is its `sys.path`: for the interpreter pallas-ls runs in, read in process; for
another, printed once by a subprocess of that interpreter (`-c`, from an empty directory, so no
user module can shadow `json`; only the interpreter's own start-up runs, as it does for jedi),
then cached for the process.  The standard library is left out (nothing Pallas there, and much
to parse).  An interpreter that is missing or fails gives a one-line warning and an empty search
path: imports are then resolved in the project only.

Modules read from the environment are parsed when an import is actually followed, cached by
path and modification time, and never analysed for findings.  Only packages that lead to Pallas
(they mention it, or import a module that does, a few imports deep) are followed: one that never
does cannot launch a kernel, and a kernel file calling scipy would otherwise parse dozens of its
modules.

Why not jedi (the design card names it): jedi's `get_default_environment` has this order and its
`create_environment(path).get_sys_path()` gives the same answer, but it costs `import jedi`
(~90 ms) and a helper process of its own started in the target interpreter (~170 ms, which
imports jedi there and stays running), against ~45 ms for the one-line query here
(benchmarks/bench_environment.py); its answer carries its helper's directory, and it does not
read editable finders either.  What it would give us, the environment layouts and the order, is
the few lines below.
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from typing import Mapping

from .interp import EXTERNAL_ROOTS
from .model import ModuleModel
from .names import imported_modules, mentions_pallas
from .sitepackages import SearchPath
from .source import SourceFile

log = logging.getLogger(__name__)

# An interpreter that has not printed its sys.path by then is taken as broken.
QUERY_TIMEOUT_S = 20.0
_QUERY = (
    "import json, sys, sysconfig; print(json.dumps({'path': sys.path, "
    "'stdlib': [sysconfig.get_path('stdlib'), sysconfig.get_path('platstdlib')]}))"
)
# Top-level names of the standard library: never looked up (nothing Pallas, much to parse).
_STDLIB = frozenset(getattr(sys, "stdlib_module_names", ()))
_NOT_LOOKED_UP = EXTERNAL_ROOTS | _STDLIB
_SITE_DIR_NAMES = ("site-packages", "dist-packages")
# How many imports deep we look for Pallas in an installed package before following it (a
# package's `__init__` re-exporting its wrappers module is one).
_PREFILTER_DEPTH = 3
_HEAD_BYTES = 1 << 20


class BrokenInterpreter(Exception):
    """The interpreter could not tell its sys.path; the message says why, in one line."""


@dataclass
class Environment:
    """A search path for imports beyond the project, and the modules read from it."""

    directories: tuple[str, ...] = ()
    description: str = "no environment"
    warning: str | None = None  # why the environment asked for could not be used
    executable: str | None = None
    _search: SearchPath | None = field(default=None, repr=False, compare=False)
    _mentions: dict[str, bool] = field(default_factory=dict, repr=False, compare=False)

    # ------------------------------------------------------------------------- discovery
    @classmethod
    def discover(cls, explicit: str | None = None, env: Mapping[str, str] = os.environ,
                 root: str | None = None) -> "Environment":
        """The environment to resolve imports in (see the module docs for the order); `explicit`
        relative to `root` (the configuration file's directory, else the working directory).
        Never raises: a broken choice is logged as one warning and gives `none()`."""
        try:
            executable, why = _choose_interpreter(explicit, env, root)
            if _is_this_interpreter(executable):
                return cls.from_sys_path(sys.path, f"{sys.executable} ({why}, this process)", sys.executable)
            return cls.from_sys_path(_queried_sys_path(executable), f"{executable} ({why})", executable)
        except BrokenInterpreter as exc:
            warning = f"{exc}; imports are resolved in the project only"
            log.warning("%s", warning)
            return cls(description="no environment (broken interpreter)", warning=warning)

    @classmethod
    def from_sys_path(cls, sys_path: list[str], description: str, executable: str | None = None) -> "Environment":
        """An interpreter's sys.path, less the working directory and the standard library."""
        stdlib = _local_stdlib()
        directories = tuple(d for d in dict.fromkeys(os.path.abspath(p) for p in sys_path if p)
                            if os.path.isdir(d) and not _in_stdlib(d, stdlib) and d != os.getcwd())
        return cls(directories, description, executable=executable)

    @classmethod
    def from_directories(cls, directories: list[str], description: str | None = None) -> "Environment":
        """Directories taken as site directories as they are (their `.pth` files read): a
        `site-packages` laid out by hand, or `PYTHONPATH`-like extra roots."""
        description = description or "directories " + os.pathsep.join(directories)
        return cls(tuple(os.path.abspath(d) for d in directories), description)

    @classmethod
    def none(cls) -> "Environment":
        return cls()

    # ------------------------------------------------------------------------------ lookup
    @property
    def search(self) -> SearchPath:
        if self._search is None:
            self._search = SearchPath(list(self.directories))
        return self._search

    def locate(self, dotted: str) -> tuple[str, list[str]] | None:
        """(source file, attribute names left) for an absolute import, or None."""
        if not self.directories or dotted.startswith(".") or dotted.split(".", 1)[0] in _STDLIB:
            return None
        return self.search.locate(dotted)

    def model_of(self, path: str) -> tuple[SourceFile, ModuleModel] | None:
        return _parsed(path)

    def imports_pallas(self, text: str) -> bool:
        """Whether a text that never says "pallas" imports a module of the environment that may
        launch a kernel (it mentions Pallas, or imports one that does, a few modules deep): the
        cheap prefilter's answer for files that call an installed wrapper."""
        return any(self._leads_to_pallas(dotted) for dotted in _installable(imported_modules(text)))

    def fingerprint(self, text: str) -> str:
        """Which files of the environment a text's imports name ("" for none): the findings
        cache's key holds it, so installing a package a file imports is a miss."""
        found = (f"{dotted}={self.locate(dotted)}" for dotted in _installable(imported_modules(text)))
        return "\n".join(f for f in found if not f.endswith("=None"))

    def _leads_to_pallas(self, dotted: str) -> bool:
        located = self.locate(dotted)
        return located is not None and self.leads_to_pallas(located[0])

    def leads_to_pallas(self, path: str) -> bool:
        """Whether a module of the environment mentions Pallas, or imports one that does (a few
        modules deep): only those are worth following (the others cannot launch a kernel)."""
        return self._mentions_pallas(path, _PREFILTER_DEPTH)

    def _mentions_pallas(self, path: str, depth: int) -> bool:
        """Memoised per file; a module being looked at counts as not mentioning (cycles)."""
        known = self._mentions.get(path)
        if known is not None:
            return known
        self._mentions[path] = False
        text = _head(path)
        found = mentions_pallas(text) or depth > 0 and any(
            self._mentions_pallas(p, depth - 1) for p in self._imported_files(path, text))
        self._mentions[path] = found
        return found

    def _imported_files(self, path: str, text: str) -> list[str]:
        files = []
        for dotted in imported_modules(text):
            if dotted.startswith("."):
                found = _relative_module_file(path, dotted)
            else:
                located = self.locate(dotted) if _installable([dotted]) else None
                found = located[0] if located else None
            if found:
                files.append(found)
        return files


# ----------------------------------------------------------------------- choosing an interpreter
def _choose_interpreter(explicit: str | None, env: Mapping[str, str], root: str | None) -> tuple[str, str]:
    """(interpreter, why it was chosen); BrokenInterpreter when the choice has none."""
    if explicit:
        path = os.path.join(root or os.getcwd(), os.path.expanduser(explicit))
        return _interpreter_at(path, f"python = {explicit}"), "configured"
    for variable in ("VIRTUAL_ENV", "CONDA_PREFIX"):
        prefix = env.get(variable)
        if prefix:
            if _same_path(prefix, sys.prefix):
                return sys.executable, f"${variable}"
            return _interpreter_at(prefix, f"${variable} = {prefix}"), f"${variable}"
    return sys.executable, "the interpreter pallas-ls runs in"


def _interpreter_at(path: str, what: str) -> str:
    """An interpreter given as itself or as its environment directory (the layouts jedi knows:
    `bin/python` on POSIX, `Scripts\\python.exe` in a Windows venv, `python.exe` in a conda prefix)."""
    path = os.path.abspath(path)
    if os.path.isfile(path):
        return path
    if os.path.isdir(path):
        for candidate in ("bin/python", "bin/python3", "Scripts/python.exe", "python.exe"):
            executable = os.path.join(path, *candidate.split("/"))
            if os.path.isfile(executable):
                return executable
        raise BrokenInterpreter(f"{what}: no Python interpreter in {path}")
    raise BrokenInterpreter(f"{what}: no such interpreter or environment directory")


def _is_this_interpreter(executable: str) -> bool:
    """The same file, or a link to the same one in the same `bin` directory (`python3` for
    `python`).  Not by real path alone: every venv's `python` links to one base interpreter."""
    here, there = (os.path.normcase(os.path.abspath(p)) for p in (sys.executable, executable))
    return here == there or os.path.dirname(here) == os.path.dirname(there) and _same_path(here, there)


def _same_path(a: str, b: str) -> bool:
    return os.path.normcase(os.path.realpath(a)) == os.path.normcase(os.path.realpath(b))


# --------------------------------------------------------------------- asking the interpreter
_SYS_PATHS: dict[str, list[str] | BrokenInterpreter] = {}  # once per interpreter and process


def _queried_sys_path(executable: str) -> list[str]:
    if executable not in _SYS_PATHS:
        try:
            _SYS_PATHS[executable] = _query(executable)
        except BrokenInterpreter as exc:
            _SYS_PATHS[executable] = exc
    answer = _SYS_PATHS[executable]
    if isinstance(answer, BrokenInterpreter):
        raise answer
    return answer


def _query(executable: str) -> list[str]:
    """The interpreter's sys.path without its standard library, from one short subprocess."""
    env = dict(os.environ, PYTHONSAFEPATH="1")  # 3.11+: no script directory on sys.path either
    env.pop("PYTHONSTARTUP", None)
    with tempfile.TemporaryDirectory(prefix="pallas-ls-") as empty:
        try:
            done = subprocess.run([executable, "-c", _QUERY], cwd=empty, env=env, capture_output=True,
                                  text=True, timeout=QUERY_TIMEOUT_S, stdin=subprocess.DEVNULL)
        except (OSError, subprocess.SubprocessError) as exc:
            raise BrokenInterpreter(f"cannot run the interpreter {executable}: {exc}") from None
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise BrokenInterpreter(f"the interpreter {executable} failed (exit {done.returncode}): {last}")
    try:
        answer = json.loads(done.stdout.strip().splitlines()[-1])
        paths, stdlib = answer["path"], tuple(p for p in answer["stdlib"] if isinstance(p, str))
        if not all(isinstance(p, str) for p in paths):
            raise TypeError
    except (ValueError, KeyError, TypeError, IndexError):
        raise BrokenInterpreter(f"the interpreter {executable} did not print its sys.path") from None
    return [p for p in paths if p and not _in_stdlib(os.path.abspath(p), stdlib)]


def _local_stdlib() -> tuple[str, ...]:
    import sysconfig

    return tuple(p for p in (sysconfig.get_path("stdlib"), sysconfig.get_path("platstdlib")) if p)


def _in_stdlib(directory: str, stdlib: tuple[str, ...]) -> bool:
    """Inside the standard library's directory, but not a site directory under it."""
    if any(part in _SITE_DIR_NAMES for part in directory.split(os.sep)):
        return False
    return any(directory == s or directory.startswith(s.rstrip(os.sep) + os.sep) for s in map(os.path.abspath, stdlib))


# ----------------------------------------------------------------------------- parsed modules
_PARSED: dict[str, tuple[tuple[int, int], SourceFile, ModuleModel] | None] = {}


def _parsed(path: str) -> tuple[SourceFile, ModuleModel] | None:
    """A module of the environment, parsed once per version (path, mtime and size)."""
    from .project import UnreadableFile, read_source  # project imports this module

    try:
        info = os.stat(path)
    except OSError:
        return None
    version = (info.st_mtime_ns, info.st_size)
    cached = _PARSED.get(path)
    if cached is not None and cached[0] == version:
        return cached[1], cached[2]
    try:
        source = read_source(path)
    except UnreadableFile:
        return None
    if source.syntax_problems and not source.tree.body:
        return None
    model = ModuleModel(source.tree)
    _PARSED[path] = (version, source, model)
    return source, model


def _installable(modules: list[str]) -> list[str]:
    """The absolute imports worth looking up: not relative, not one the interpreter models
    itself (jax, numpy, ...: see interp.EXTERNAL_ROOTS), not the standard library."""
    return [d for d in modules if not d.startswith(".") and d.split(".", 1)[0] not in _NOT_LOOKED_UP]


def _head(path: str) -> str:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return handle.read(_HEAD_BYTES)
    except OSError:
        return ""


def _relative_module_file(path: str, dotted: str) -> str | None:
    """The file a relative import in `path` names (`.wrappers`, `..util`), if it is a source file."""
    level = len(dotted) - len(dotted.lstrip("."))
    base = os.path.dirname(path)
    for _ in range(level - 1):
        base = os.path.dirname(base)
    parts = [p for p in dotted[level:].split(".") if p]
    candidate = os.path.join(base, *parts)
    for file in (candidate + ".py", os.path.join(candidate, "__init__.py")):
        if parts and os.path.isfile(file):
            return file
    return None

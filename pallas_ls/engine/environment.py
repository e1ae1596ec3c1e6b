"""The user's Python environment: where imports the project cannot resolve are looked up (an
installed or editable package's wrapper is followed, read as source, never imported).

Which environment, first that applies (the order jedi's `get_default_environment` uses):
1. the one configured (`--python`, `[tool.pallas-ls] python`, the server's `python` setting):
   an interpreter, or an environment directory (a virtualenv or a conda prefix);
2. the active virtualenv, `$VIRTUAL_ENV`;
3. the active conda environment, `$CONDA_PREFIX`;
4. the interpreter pallas-ls runs in.

Nothing is ever run to find out (issue 35: `python = "./evil.sh"` in a cloned repository's
pyproject.toml ran `evil.sh`, and a `.venv`'s interpreter ran its `.pth` files and
`sitecustomize.py`).  An environment's search path is read from its layout, as ty does and as
CPython's own `getpath` and `site` compute it: the prefix (the directory above `bin/` or
`Scripts/`, or the directory named), its `pyvenv.cfg` (`home`, `version`,
`include-system-site-packages`), and its site directories (`lib/pythonX.Y/site-packages`,
`Lib/site-packages`, Debian's `dist-packages`).  Their `.pth` files contribute their path lines;
their `import` lines are never run, only read for editable-install mappings (sitepackages.py).
For the interpreter pallas-ls runs in, its own `sys.path` is read in process.  The standard
library is left out (nothing Pallas there, and much to parse).  A choice with no site directory
gives a one-line warning: imports are then resolved in the project only.

Modules read from the environment are parsed when an import is actually followed, cached by
path and modification time, and never analysed for findings.  Only packages that lead to Pallas
(they mention it, or import a module that does, a few imports deep) are followed: one that never
does cannot launch a kernel, and a kernel file calling scipy would otherwise parse dozens of its
modules.

Why not jedi (the design card names it): jedi's `create_environment(path).get_sys_path()` starts
the target interpreter (a helper process that imports jedi there and stays running, ~170 ms
after `import jedi`'s ~90 ms), which is exactly what a repository-named interpreter must not
get; its `safe=True` mode refuses such interpreters instead of reading them.  It does not read
editable finders either.  What it would give us, the order above, is the few lines below.
"""

from __future__ import annotations

import logging
import os
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field

from .model import ModuleModel
from .names import EXTERNAL_ROOTS, imported_modules, mentions_pallas
from .sitepackages import SearchPath
from .source import SourceFile

log = logging.getLogger(__name__)

# Top-level names of the standard library: never looked up (nothing Pallas, much to parse).
_STDLIB = frozenset(getattr(sys, "stdlib_module_names", ()))
_NOT_LOOKED_UP = EXTERNAL_ROOTS | _STDLIB
_SITE_DIR_NAMES = ("site-packages", "dist-packages")
# How many imports deep we look for Pallas in an installed package before following it (a
# package's `__init__` re-exporting its wrappers module is one).
_PREFILTER_DEPTH = 3
_HEAD_BYTES = 1 << 20


class BrokenInterpreter(Exception):
    """The environment asked for has no site directory to read; the message says why, in one line."""


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
    def discover(
        cls, explicit: str | None = None, env: Mapping[str, str] = os.environ, root: str | None = None
    ) -> Environment:
        """The environment to resolve imports in (see the module docs for the order); `explicit`
        relative to `root` (the configuration file's directory, else the working directory).
        Never raises: a broken choice is logged as one warning and gives `none()`."""
        try:
            chosen, why = _choose_environment(explicit, env, root)
            if chosen is None or _is_this_interpreter(chosen):
                return cls.from_sys_path(sys.path, f"{sys.executable} ({why}, this process)", sys.executable)
            try:
                prefix, directories = site_directories(chosen)
            except BrokenInterpreter as exc:  # say where the choice came from ($VIRTUAL_ENV, python = ...)
                raise BrokenInterpreter(f"{chosen} ({why}): {exc}") from None
            return cls(tuple(directories), f"{prefix} ({why})", executable=chosen)
        except BrokenInterpreter as exc:
            warning = f"{exc}; imports are resolved in the project only"
            log.warning("%s", warning)
            return cls(description="no environment (broken interpreter)", warning=warning)

    @classmethod
    def from_sys_path(cls, sys_path: list[str], description: str, executable: str | None = None) -> Environment:
        """An interpreter's sys.path, less the working directory and the standard library."""
        stdlib = _local_stdlib()
        directories = tuple(
            d
            for d in dict.fromkeys(os.path.abspath(p) for p in sys_path if p)
            if os.path.isdir(d) and not _in_stdlib(d, stdlib) and d != os.getcwd()
        )
        return cls(directories, description, executable=executable)

    @classmethod
    def from_directories(cls, directories: list[str], description: str | None = None) -> Environment:
        """Directories taken as site directories as they are (their `.pth` files read): a
        `site-packages` laid out by hand, or `PYTHONPATH`-like extra roots."""
        description = description or "directories " + os.pathsep.join(directories)
        return cls(tuple(os.path.abspath(d) for d in directories), description)

    @classmethod
    def none(cls) -> Environment:
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
        found = mentions_pallas(text) or (
            depth > 0 and any(self._mentions_pallas(p, depth - 1) for p in self._imported_files(path, text))
        )
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


# ------------------------------------------------------------------------ choosing an environment
def _choose_environment(explicit: str | None, env: Mapping[str, str], root: str | None) -> tuple[str | None, str]:
    """(interpreter or environment directory, why it was chosen); None for this process's own."""
    if explicit:
        path = os.path.abspath(os.path.join(root or os.getcwd(), os.path.expanduser(explicit)))
        if not os.path.exists(path):
            raise BrokenInterpreter(f"python = {explicit}: no such interpreter or environment directory")
        return path, "configured"
    for variable in ("VIRTUAL_ENV", "CONDA_PREFIX"):
        prefix = env.get(variable)
        if prefix:
            if _same_path(prefix, sys.prefix):
                return None, f"${variable}"
            if not os.path.isdir(prefix):
                raise BrokenInterpreter(f"${variable} = {prefix}: no such environment directory")
            return os.path.abspath(prefix), f"${variable}"
    return None, "the interpreter pallas-ls runs in"


def _is_this_interpreter(executable: str) -> bool:
    """The same file, or a link to the same one in the same `bin` directory (`python3` for
    `python`).  Not by real path alone: every venv's `python` links to one base interpreter."""
    if not os.path.isfile(executable):
        return _same_path(executable, sys.prefix)
    here, there = (os.path.normcase(os.path.abspath(p)) for p in (sys.executable, executable))
    return here == there or (os.path.dirname(here) == os.path.dirname(there) and _same_path(here, there))


def _same_path(a: str, b: str) -> bool:
    return os.path.normcase(os.path.realpath(a)) == os.path.normcase(os.path.realpath(b))


# ----------------------------------------------------------------- an environment's layout, read
_VERSIONED_LIB = re.compile(r"^python(\d+)\.(\d+)t?$")  # lib/python3.11, lib/python3.13t


def site_directories(chosen: str) -> tuple[str, list[str]]:
    """(prefix, site directories) of an interpreter or environment directory, read from the file
    system as CPython's getpath and site modules compute them; nothing is run.  BrokenInterpreter
    when there is no site directory to read."""
    prefix = _prefix_of(chosen)
    config = _pyvenv_cfg(prefix)
    version = _version_hint(chosen, config)
    directories = _site_dirs_under(prefix, version)
    if config.get("include-system-site-packages", "").lower() == "true" and config.get("home"):
        base = _prefix_of(config["home"])
        directories += [d for d in _site_dirs_under(base, version) if d not in directories]
    if not directories:
        raise BrokenInterpreter(f"no site-packages found under {prefix}")
    return prefix, directories


def _prefix_of(path: str) -> str:
    """`sys.prefix` of an interpreter (the directory above `bin/` or `Scripts/`, or holding a
    conda `python.exe`) or of an environment directory (itself).  Links are not resolved: a venv's
    `bin/python` links to the base interpreter, and the venv is what was asked for."""
    path = os.path.abspath(path)
    if os.path.isdir(path):
        parent, name = os.path.split(path)
        return parent if name in ("bin", "Scripts") and not _has_site_layout(path) else path
    directory = os.path.dirname(path)
    for candidate in (directory, os.path.dirname(directory)):
        if os.path.isfile(os.path.join(candidate, "pyvenv.cfg")) or _has_site_layout(candidate):
            return candidate
    return os.path.dirname(directory)


def _has_site_layout(prefix: str) -> bool:
    return os.path.isdir(os.path.join(prefix, "lib")) or os.path.isdir(os.path.join(prefix, "Lib"))


def _pyvenv_cfg(prefix: str) -> dict[str, str]:
    """`key = value` lines of the environment's pyvenv.cfg (keys lower-cased); {} for none."""
    try:
        with open(os.path.join(prefix, "pyvenv.cfg"), encoding="utf-8", errors="replace") as handle:
            lines = handle.read(1 << 16).splitlines()
    except OSError:
        return {}
    pairs = (line.partition("=") for line in lines)
    return {key.strip().lower(): value.strip() for key, sep, value in pairs if sep}


def _version_hint(chosen: str, config: dict[str, str]) -> tuple[int, int] | None:
    """(major, minor) from pyvenv.cfg (`version_info` / `version`) or the interpreter's name
    (`python3.12`); None when neither says."""
    for text in (
        config.get("version_info", ""),
        config.get("version", ""),
        os.path.basename(chosen).removeprefix("python"),
    ):
        match = re.match(r"(\d+)\.(\d+)", text)
        if match:
            return int(match.group(1)), int(match.group(2))
    return None


def _site_dirs_under(prefix: str, version: tuple[int, int] | None) -> list[str]:
    """`Lib/site-packages` (Windows), else `lib/pythonX.Y/{site,dist}-packages` of the version
    asked for (the newest present when none is), then Debian's `lib/python3/dist-packages`."""
    found = [os.path.join(prefix, "Lib", "site-packages")]
    for lib in ("lib", "lib64"):
        versions = _versioned_libs(os.path.join(prefix, lib))
        chosen = [v for v in versions if version is None or v[0] == version]
        if chosen:
            name = max(chosen)[1]
            found += [os.path.join(prefix, lib, name, site) for site in _SITE_DIR_NAMES]
    found.append(os.path.join(prefix, "lib", "python3", "dist-packages"))
    # A venv's `lib64` is a link to its `lib`: one directory, listed once.
    unique = {os.path.realpath(d): d for d in reversed(found) if os.path.isdir(d)}
    return [d for d in found if unique.get(os.path.realpath(d)) == d]


def _versioned_libs(lib: str) -> list[tuple[tuple[int, int], str]]:
    try:
        names = os.listdir(lib)
    except OSError:
        return []
    matches = ((_VERSIONED_LIB.match(name), name) for name in names)
    return [((int(m.group(1)), int(m.group(2))), name) for m, name in matches if m]


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
    from .files import UnreadableFile, read_source

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

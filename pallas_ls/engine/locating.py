"""Where an import leads, found on the file system the way Python would find it (packages,
`__init__.py`, relative imports), without importing anything: the project's roots first, then
the environment's installed packages.  Project uses it to follow imports, and a check whose
findings are cached asks it whether each recorded import still resolves as it did (issue 33)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .dependencies import Lookup

if TYPE_CHECKING:
    from .environment import Environment


class ModuleLocator:
    """Import resolution for files under `roots`, then in `environment` (None: the roots only)."""

    roots: Sequence[str]
    environment: Environment | None

    def __init__(self, roots: Sequence[str] = (), environment: Environment | None = None):
        self.roots = [os.path.abspath(r) for r in roots]
        self.environment = environment

    def _locate_module(self, from_path: str, dotted: str) -> tuple[str, list[str]] | None:
        level = len(dotted) - len(dotted.lstrip("."))
        parts = [p for p in dotted[level:].split(".") if p]
        if level:
            base = os.path.dirname(os.path.abspath(from_path))
            for _ in range(level - 1):
                base = os.path.dirname(base)
            search = [base]
        else:
            search = self._search_roots(from_path)
        for cut in range(len(parts), -1, -1):
            for directory in search:
                # `from . import REGISTRY`: no module `.REGISTRY`, a name of the package's __init__
                module_file = _module_file(directory, parts[:cut]) if cut or not level else _package_init(directory)
                if module_file is not None:
                    return module_file, parts[cut:]
        return None

    def locate_import(
        self, from_path: str, dotted: str, package: str | None
    ) -> tuple[tuple[str, list[str]] | None, bool]:
        """Where `dotted` (imported in `from_path`) is, and whether that is in the environment.
        Relative imports stay in their package; an absolute one is the project's first, then the
        environment's, but the absolute imports of an installed module (`package`: the top-level
        package it was found under) are the environment's, as Python would find them."""
        environment = self.environment
        relative = dotted.startswith(".")
        if package is None or relative:
            located = self._locate_module(from_path, dotted)
            if located is not None or relative or environment is None:
                return located, package is not None and located is not None
        located = environment.locate(dotted) if environment is not None else None
        if (
            located is None
            or dotted.split(".")[0] == package
            or environment is None
            or environment.leads_to_pallas(located[0])
        ):
            return located, located is not None
        # A package that never leads to Pallas (scipy, a tokenizer) cannot launch a kernel: it
        # stays opaque, as if not installed, instead of being parsed module after module.
        return None, False

    def resolves_as_before(self, lookup: Lookup) -> str | None:
        """Where `lookup`'s import resolves now (for Dependencies.still_hold)."""
        located, _ = self.locate_import(lookup.from_path, lookup.dotted, lookup.package)
        return os.path.abspath(located[0]) if located is not None else None

    def _search_roots(self, from_path: str) -> list[str]:
        """Where absolute imports are looked up: above the file's top package, then the roots."""
        directory = os.path.dirname(os.path.abspath(from_path))
        top = directory
        while os.path.isfile(os.path.join(top, "__init__.py")) and os.path.dirname(top) != top:
            top = os.path.dirname(top)
        roots = [top, directory]
        for root in self.roots:
            roots += [root, os.path.join(root, "src")]
        return list(dict.fromkeys(roots))


def _module_file(directory: str, parts: list[str]) -> str | None:
    if not parts:
        return None
    candidate = os.path.join(directory, *parts)
    if os.path.isfile(candidate + ".py"):
        return candidate + ".py"
    init = os.path.join(candidate, "__init__.py")
    if os.path.isfile(init):
        return init
    return None


def _package_init(directory: str) -> str | None:
    init = os.path.join(directory, "__init__.py")
    return init if os.path.isfile(init) else None

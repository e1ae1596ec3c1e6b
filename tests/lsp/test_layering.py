"""The architecture's rules of the house, checked on the source (issue 19).

- The engine imports neither the rules, `pallas_ls.lint`, the server nor the CLI: rules are handed
  to it (`pallas_ls/lint.py` is the one module that knows both).
"""

from __future__ import annotations

import ast
import pathlib

PACKAGE = pathlib.Path(__file__).resolve().parents[2] / "pallas_ls"
ABOVE_THE_ENGINE = ("pallas_ls.rules", "pallas_ls.lint", "pallas_ls.lsp", "pallas_ls.cli", "pallas_ls.fixing")


def _imported_modules(path: pathlib.Path) -> set[str]:
    """Absolute names of every module `path` imports (at load time or inside a function)."""
    package = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts[:-1])
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level else ""
            module = ".".join(part for part in (base, node.module or "") if part)
            names.add(module)
            names.update(f"{module}.{alias.name}" for alias in node.names)
    return names


def test_the_engine_imports_nothing_above_it():
    offenders = {
        str(path.relative_to(PACKAGE)): sorted(m for m in _imported_modules(path) if m.startswith(ABOVE_THE_ENGINE))
        for path in (PACKAGE / "engine").rglob("*.py")
    }
    assert {name: found for name, found in offenders.items() if found} == {}

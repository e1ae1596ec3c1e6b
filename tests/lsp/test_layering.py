"""The architecture's rules of the house, checked on the source (issue 19).

- The engine imports neither the rules, `pallas_ls.lint`, the server nor the CLI: rules are handed
  to it (`pallas_ls/lint.py` is the one module that knows both).
- The editor's live state (its open documents' incremental analyses, the first look) lives beside
  the engine's Project (engine/open_documents.py), not inside it: the Project and the CLI's path
  import none of it.
- No server module is over ~400 lines (the session was 873).
- pygls' internals are reached by one adapter module only (pygls_adapter.py).
"""

from __future__ import annotations

import ast
import pathlib
import re

PACKAGE = pathlib.Path(__file__).resolve().parents[2] / "pallas_ls"
ABOVE_THE_ENGINE = ("pallas_ls.rules", "pallas_ls.lint", "pallas_ls.lsp", "pallas_ls.cli", "pallas_ls.fixing")
MAX_LSP_LINES = 400
PYGLS_ADAPTER = "pygls_adapter.py"


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


# What only an editor keeps, and the modules a `check` runs through, which must not reach it.
EDITOR_STATE = ("pallas_ls.engine.open_documents", "pallas_ls.engine.incremental")
CHECK_PATH = ("engine/project.py", "engine/batch.py", "lint.py", "fixing.py", "cli.py")


def test_the_project_holds_no_editor_state():
    offenders = {
        name: sorted(m for m in _imported_modules(PACKAGE / name) if m.startswith(EDITOR_STATE)) for name in CHECK_PATH
    }
    assert {name: found for name, found in offenders.items() if found} == {}


def test_no_server_module_is_over_the_limit():
    sizes = {
        str(p.relative_to(PACKAGE)): len(p.read_text(encoding="utf-8").splitlines())
        for p in (PACKAGE / "lsp").rglob("*.py")
    }
    assert {name: lines for name, lines in sizes.items() if lines > MAX_LSP_LINES} == {}


# pygls' private attributes (and `fm.features`, its feature table), wherever they are reached.
_PYGLS_INTERNALS = re.compile(r"\.(?:_send_data|_shutdown|_server|_stop_event|_request_futures|fm\.features)\b")


def test_pygls_internals_are_touched_by_the_adapter_only():
    users = sorted(
        str(p.relative_to(PACKAGE))
        for p in (PACKAGE / "lsp").rglob("*.py")
        if p.name != PYGLS_ADAPTER and _PYGLS_INTERNALS.search(p.read_text(encoding="utf-8"))
    )
    assert users == []

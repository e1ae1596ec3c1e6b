"""Turning findings into text for people and for CI, in ruff's output formats (see FORMATS).

Findings arrive with 0-based positions counted in code points; every format here shows 1-based rows
and columns counted in characters (code points), the way ruff's output does.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TextIO

from .. import rules as registry
from ..engine.findings import Finding
from ..engine.source import Position
from ..rules.base import DOCS_BASE_URL

# Format name -> the module under pallas_ls/output/ that renders it (each has `render(report)`).
# `text` is the older name of `concise`, kept so existing scripts keep working.
FORMAT_MODULES = {
    "full": "full",
    "concise": "text",
    "text": "text",
    "json": "jsonfmt",
    "json-lines": "jsonlines",
    "junit": "junit",
    "github": "github",
    "gitlab": "gitlab",
    "pylint": "pylint",
    "rdjson": "rdjson",
    "sarif": "sarif",
}
FORMATS = tuple(FORMAT_MODULES)
# Formats that print findings as lines of text with a summary (and take --statistics as a table).
TEXT_FORMATS = ("full", "concise", "text")

# The repository the docs live in, e.g. https://github.com/pallas-ls/pallas-ls
INFORMATION_URI = DOCS_BASE_URL.split("/blob/")[0]

STDIN_NAME = "-"


@dataclass(frozen=True)
class FixStatus:
    """What `--fix` did and would do: the `[*]` marks and the summary depend on it."""

    unsafe: bool = False  # --unsafe-fixes: preferred unsafe fixes are applied (and marked) too
    fixed: tuple[Finding, ...] = ()  # the findings --fix fixed (the report holds those remaining)


@dataclass(frozen=True)
class Report:
    """What one `check` run found: findings already selected, re-levelled and sorted."""

    findings: list[Finding]
    cwd: str
    color: bool = False
    quiet: bool = False
    status: FixStatus = FixStatus()
    show_fixes: bool = False  # --show-fixes: the text formats list what --fix fixed, per file
    # The text of files that are not (or no longer) what is on disk (standard input), by path;
    # `full` shows source lines from here, else from the file.
    sources: Mapping[str | None, str] = field(default_factory=dict)


def tool_version() -> str:
    from .. import __version__

    return __version__


def display_path(path: str | None, cwd: str) -> str:
    """Relative to the working directory when the file is under it, else absolute."""
    if path is None:
        return STDIN_NAME
    absolute = os.path.abspath(path)
    try:
        rel = os.path.relpath(absolute, cwd)
    except ValueError:  # another drive on Windows
        return absolute
    return absolute if rel == ".." or rel.startswith(".." + os.sep) else rel


def absolute_path(path: str | None) -> str:
    return STDIN_NAME if path is None else os.path.abspath(path)


def one_based(pos: Position) -> tuple[int, int]:
    return pos.line + 1, pos.column + 1


def rule_url(code: str) -> str | None:
    """The documentation page of a rule or pseudo-rule (PAL000, PAL900: docs/rules/ has them too);
    None for a code pallas-ls does not know."""
    from ..config import PSEUDO_RULES

    rule = registry.RULES.get(code)
    if rule:
        return rule.url
    return f"{DOCS_BASE_URL}{code}.md" if code in PSEUDO_RULES else None


def rule_name(code: str) -> str:
    from ..config import PSEUDO_RULES

    rule = registry.RULES.get(code)
    if rule:
        return rule.name
    return PSEUDO_RULES.get(code, (code.lower(), ""))[0]


def write_report(fmt: str, report: Report, stream: TextIO, statistics: bool = False) -> None:
    """Render `report` in `fmt`; with `statistics`, the text formats print a table of codes and
    json a list of counts (as ruff, the other formats ignore it)."""
    module = importlib.import_module(f"{__name__}.{FORMAT_MODULES[fmt]}")
    render: Callable[[Report], str] = module.render
    if statistics and hasattr(module, "render_statistics"):
        render = module.render_statistics
    stream.write(render(report))

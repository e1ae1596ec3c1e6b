"""Turning findings into text for people and for CI: text, json, github and sarif.

Findings arrive with 0-based positions counted in code points; every format here shows 1-based rows
and columns counted in characters (code points), the way ruff's output does.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Callable, TextIO

from ..engine.findings import Finding
from ..engine.source import Position
from ..rules import RULES
from ..rules.base import DOCS_BASE_URL

FORMATS = ("text", "json", "github", "sarif")

# The repository the docs live in, e.g. https://github.com/pallas-ls/pallas-ls
INFORMATION_URI = DOCS_BASE_URL.split("/blob/")[0]

STDIN_NAME = "-"


@dataclass(frozen=True)
class Report:
    """What one `check` run found: findings already selected, re-levelled and sorted."""

    findings: list[Finding]
    cwd: str
    color: bool = False
    quiet: bool = False


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
    """Documentation of a registry rule; pseudo-codes (syntax errors, unreadable files) have none."""
    rule = RULES.get(code)
    return rule.url if rule else None


def rule_name(code: str) -> str:
    from ..config import PSEUDO_RULES

    rule = RULES.get(code)
    if rule:
        return rule.name
    return PSEUDO_RULES.get(code, (code.lower(), ""))[0]


def write_report(fmt: str, report: Report, stream: TextIO, statistics: bool = False) -> None:
    from . import github, jsonfmt, sarif, text

    writers: dict[str, Callable[[Report], str]] = {
        "text": text.render_statistics if statistics else text.render,
        "json": jsonfmt.render_statistics if statistics else jsonfmt.render,
        "github": github.render,
        "sarif": sarif.render,
    }
    stream.write(writers[fmt](report))

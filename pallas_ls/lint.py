"""The rules run on the engine's analyses: the one module that knows both the engine and the rules.

The engine (pallas_ls/engine/) imports no rule; the rules import the engine.  Front ends (the CLI,
`--fix`, the language server) come here for a project, a file's findings or a batch check, and
this module hands the engine the registry (`pallas_ls.rules.RULES`, where each rule is listed once).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .engine import batch
from .engine import project as engine_project
from .engine.analysis import Linter, analyze
from .engine.environment import Environment
from .engine.files import FileResult
from .engine.findings import Finding
from .engine.names import mentions_pallas
from .engine.source import SourceFile
from .rule_runner import RuleRunner, rules_for, run_rules

__all__ = ["Project", "RuleRunner", "analyze_source", "check_files", "check_paths", "rules_for", "run_rules"]


def analyze_source(text: str, path: str | None = None, rules: RuleRunner = run_rules) -> list[Finding]:
    """Findings for one text on its own (kernels launched from other files are not known here).

    A text that never mentions Pallas launches no kernel: it is not even parsed.
    """
    if not mentions_pallas(text):
        return []
    return rules(analyze(SourceFile.from_text(text, path)))


@dataclass
class Project(engine_project.Project):
    """The engine's Project with the registered rules."""

    lint: Linter | None = run_rules


def check_paths(paths: Iterable[str], roots: Sequence[str] = ()) -> list[FileResult]:
    """Check a list of files (not directories) as one project."""
    return Project(roots).check_paths(paths)


def check_files(
    paths: Iterable[str],
    roots: Sequence[str] = (),
    cache_dir: str | None = None,
    jobs: int | None = None,
    environment: Environment | None = None,
    context: Sequence[str] = (),
    rules: RuleRunner = run_rules,
) -> list[FileResult]:
    """`engine.batch.check_files` (the CLI's check: cached, in worker processes) with the registered rules."""
    return batch.check_files(paths, roots, cache_dir, jobs, environment, context, lint=rules)

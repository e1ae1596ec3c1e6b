"""The rules run on the engine's analyses: the one module that knows both the engine and the rules.

The engine (pallas_ls/engine/) imports no rule; the rules import the engine.  Front ends (the CLI,
`--fix`, the language server) come here for a project, a file's findings or a batch check, and
this module hands the engine the registry (`pallas_ls.rules.RULES`, where each rule is listed once).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from . import rules as registry
from .engine import batch
from .engine import project as engine_project
from .engine.analysis import Linter, ModuleAnalysis, analyze, apply_rules
from .engine.environment import Environment
from .engine.files import FileResult
from .engine.findings import Finding
from .engine.names import mentions_pallas
from .engine.source import SourceFile
from .engine.target import DEFAULT_OPTIONS, RuleOptions


@dataclass(frozen=True)
class RuleRunner:
    """The registered rules with their options (the TPU generation): the product's Linter.

    A plain, picklable value: `check`'s worker processes are handed it.  The registry is read at
    each call, so a test (or a plugin) that rebinds `pallas_ls.rules.RULES` is seen."""

    options: RuleOptions = DEFAULT_OPTIONS

    def __call__(self, analysis: ModuleAnalysis, codes: Collection[str] | None = None) -> list[Finding]:
        """Every registered rule (or those in `codes`) on `analysis`, `# noqa` applied."""
        return apply_rules(analysis, registry.RULES.values(), codes, self.options)

    @property
    def cache_key(self) -> str:
        return self.options.cache_key


run_rules = RuleRunner()


def rules_for(tpu_generation: str | None) -> RuleRunner:
    """The rules as a configuration asks for them."""
    return RuleRunner(RuleOptions(tpu_generation=tpu_generation)) if tpu_generation else run_rules


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

"""The registered rules as one picklable value (`RuleRunner`): what `check` hands the engine.

Apart from lint.py because a check whose findings all come from the cache builds a RuleRunner
(its options are in the cache key) but runs no rule: the engine and the rule modules are imported
when a rule first runs, not before (issue 33: that import was most of such a run).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .engine.target import DEFAULT_OPTIONS, RuleOptions

if TYPE_CHECKING:
    from .engine.analysis import ModuleAnalysis
    from .engine.findings import Finding


@dataclass(frozen=True)
class RuleRunner:
    """The registered rules with their options (the TPU generation): the product's Linter.

    A plain, picklable value: `check`'s worker processes are handed it.  The registry is read at
    each call, so a test (or a plugin) that rebinds `pallas_ls.rules.RULES` is seen."""

    options: RuleOptions = DEFAULT_OPTIONS

    def __call__(self, analysis: ModuleAnalysis, codes: Collection[str] | None = None) -> list[Finding]:
        """Every registered rule (or those in `codes`) on `analysis`, `# noqa` applied."""
        from . import rules as registry
        from .engine.analysis import apply_rules

        return apply_rules(analysis, registry.RULES.values(), codes, self.options)

    @property
    def cache_key(self) -> str:
        return self.options.cache_key


run_rules = RuleRunner()


def load_rules() -> None:
    """Import the engine and every rule now.  A language server does this at start: its first
    analysis (didOpen to first diagnostics) must not pay for the import a cached `check` skips."""
    from . import rules as registry
    from .engine import analysis  # noqa: F401  (imported for its import's cost, now)

    if not registry.RULES:  # made on first read: the rule modules are imported here
        raise RuntimeError("no rule is registered")


def rules_for(tpu_generation: str | None) -> RuleRunner:
    """The rules as a configuration asks for them."""
    return RuleRunner(RuleOptions(tpu_generation=tpu_generation)) if tpu_generation else run_rules

"""The rule registry: every rule module, by code.

Adding a rule is adding its module to `_RULE_MODULES`; the CLI, the server, `pallas-ls rule` and
the example-driven tests all read `RULES`.

The rule modules import the analysis engine, so `RULES` is made the first time it is read (a
module `__getattr__`, PEP 562): a check whose findings all come from the cache, or a configuration
checked against the known codes (`RULE_CODES`, read from the module names), never loads the engine
(issue 33: that import was most of such a run).  A test asserts each module's CODE is its name's.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .base import Example, Rule

_RULE_MODULES = (
    "pal001_kernel_returns_value",
    "pal002_duplicate_ref",
    "pal003_kernel_captures_array",
    "pal004_kernel_arity",
    "pal005_generator_kernel",
    "pal006_dropped_return_value",
    "pal007_when_body_returns_value",
    "pal101_block_tiling",
    "pal102_vmem_limit",
    "pal103_no_tpu_lowering",
    "pal104_memory_space_access",
    "pal105_block_index_out_of_bounds",
    "pal106_compiler_params",
    "pal107_mosaic_uncompilable",
)

RULE_CODES: tuple[str, ...] = tuple(name.split("_")[0].upper() for name in _RULE_MODULES)

if TYPE_CHECKING:
    RULES: dict[str, Rule]

__all__ = ["RULES", "RULE_CODES", "Example", "Rule", "get_rule"]


def __getattr__(name: str) -> Any:
    if name == "RULES":
        return _rules()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _rules() -> dict[str, Rule]:
    """RULES, made on the first read and kept as the module's global (a test may change it)."""
    made = globals().get("RULES")
    if made is None:
        modules = (importlib.import_module(f"{__name__}.{module}") for module in _RULE_MODULES)
        made = globals()["RULES"] = {rule.code: rule for rule in map(Rule.from_module, modules)}
    return made


def get_rule(code: str) -> Rule | None:
    return _rules().get(code.upper())

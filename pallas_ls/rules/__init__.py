"""The rule registry: every rule module, by code.

Adding a rule is adding its module to `_RULE_MODULES`; the CLI, the server, `pallas-ls rule` and
the example-driven tests all read `RULES`.
"""

from __future__ import annotations

from . import (
    pal001_kernel_returns_value,
    pal002_duplicate_ref,
    pal003_kernel_captures_array,
    pal004_kernel_arity,
    pal005_generator_kernel,
    pal006_dropped_return_value,
    pal007_when_body_returns_value,
    pal101_block_tiling,
    pal102_vmem_limit,
    pal103_no_tpu_lowering,
    pal104_memory_space_access,
    pal105_block_index_out_of_bounds,
    pal106_compiler_params,
    pal107_mosaic_uncompilable,
)
from .base import Example, Rule

_RULE_MODULES = (
    pal001_kernel_returns_value,
    pal002_duplicate_ref,
    pal003_kernel_captures_array,
    pal004_kernel_arity,
    pal005_generator_kernel,
    pal006_dropped_return_value,
    pal007_when_body_returns_value,
    pal101_block_tiling,
    pal102_vmem_limit,
    pal103_no_tpu_lowering,
    pal104_memory_space_access,
    pal105_block_index_out_of_bounds,
    pal106_compiler_params,
    pal107_mosaic_uncompilable,
)

RULES: dict[str, Rule] = {rule.code: rule for rule in map(Rule.from_module, _RULE_MODULES)}

__all__ = ["RULES", "Example", "Rule", "get_rule"]


def get_rule(code: str) -> Rule | None:
    return RULES.get(code.upper())

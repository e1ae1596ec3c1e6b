"""Fast tier: every rule's VALID/INVALID examples are its tests.

For each example the engine must report exactly the ranges marked with «…» for that rule (none for
a valid example).  No jax needed: the examples are analysed, never run (see test_jax_examples.py).
"""

from __future__ import annotations

import ast

import pytest

from pallas_ls.engine.findings import SYNTAX_ERROR_CODE
from pallas_ls.lint import analyze_source
from pallas_ls.rules import RULE_CODES, RULES
from pallas_ls.rules.base import CLOSE_MARK, OPEN_MARK, Example, Rule

RULE_LIST = list(RULES.values())
EXAMPLE_CASES = [
    pytest.param(rule, example, id=f"{rule.code}-{example.name}") for rule in RULE_LIST for example in rule.examples
]


def _format(ranges) -> list[str]:
    """1-based row:col-row:col, as a reader of the example counts."""
    return [f"{r.start.line + 1}:{r.start.column + 1}-{r.end.line + 1}:{r.end.column + 1}" for r in ranges]


def test_registry_is_not_empty():
    assert RULE_LIST, "no rules registered"


def test_the_codes_known_without_loading_the_rules_are_the_rules_codes():
    """RULE_CODES (read from the module names, so that a configuration is checked without
    importing the engine) lists each rule module's own CODE, in the registry's order."""
    assert RULE_CODES == tuple(RULES) == tuple(rule.code for rule in RULE_LIST)
    assert len(EXAMPLE_CASES) >= 2 * len(RULE_LIST)


@pytest.mark.parametrize("rule", RULE_LIST, ids=lambda r: r.code)
def test_rule_has_valid_and_invalid_examples(rule: Rule):
    assert rule.valid_examples, f"{rule.code} has no VALID example"
    assert rule.invalid_examples, f"{rule.code} has no INVALID example"
    names = [e.name for e in rule.examples]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    assert not duplicates, f"{rule.code}: example names must be unique (they are test ids): {duplicates}"


@pytest.mark.parametrize("rule, example", EXAMPLE_CASES)
def test_example_is_well_formed(rule: Rule, example: Example):
    opens, closes = example.code.count(OPEN_MARK), example.code.count(CLOSE_MARK)
    assert opens == closes, f"unbalanced markers: {opens} «, {closes} »"
    if example.valid:
        assert opens == 0, "a VALID example must not mark ranges"
        assert example.jax_error is None, "a VALID example runs cleanly: it has no jax_error"
    else:
        assert example.expected_ranges, "an INVALID example must mark at least one range with «…»"
        if rule.code.startswith("PAL1"):  # TPU rules: interpret mode runs them, a TPU refuses them
            assert example.tpu_error and not example.jax_error, "an INVALID TPU example says what the TPU raises"
        else:
            assert example.jax_error, "an INVALID example must say which error JAX raises (jax_error)"
    ast.parse(example.source, filename=f"{rule.code}-{example.name}.py")
    if example.fixed is not None:
        assert not example.valid, "only INVALID examples have a fixed text"
        ast.parse(example.fixed, filename=f"{rule.code}-{example.name}-fixed.py")


@pytest.mark.parametrize("rule, example", EXAMPLE_CASES)
def test_example_findings(rule: Rule, example: Example):
    findings = analyze_source(example.source, "example.py")
    syntax = [f for f in findings if f.code == SYNTAX_ERROR_CODE]
    assert not syntax, f"the example does not parse: {[f.message for f in syntax]}"
    got = sorted(f.range for f in findings if f.code == rule.code)
    expected = example.expected_ranges
    assert _format(got) == _format(expected), f"{rule.code} findings differ from the «…» marks\n" + "\n".join(
        f"  {f.code} {_format([f.range])[0]} {f.message}" for f in findings
    )
    for finding in findings:
        if finding.code == rule.code:
            assert finding.message, "a finding needs a message"
            assert finding.path == "example.py"


@pytest.mark.parametrize("rule, example", [c for c in EXAMPLE_CASES if c.values[1].fixed is not None])
def test_fixed_example_is_clean(rule: Rule, example: Example):
    findings = [f for f in analyze_source(example.fixed, "example.py") if f.code in (rule.code, SYNTAX_ERROR_CODE)]
    assert not findings, [(f.code, _format([f.range])[0], f.message) for f in findings]

"""A first look at a document's kernel slice finds what the whole analysis finds (issue 6).

The server publishes the findings of the kernel slice (engine/slicing.py) of a newly opened
document before the whole file is parsed; they must be the whole file's findings, so every rule
example (valid and invalid) is checked both ways inside a module padded with unrelated code, and
the padding must really be left out (else the test would pass by analysing everything).
"""

from __future__ import annotations

import pytest

from pallas_ls.engine.findings import SYNTAX_ERROR_CODE
from pallas_ls.engine.incremental import IncrementalDocument
from pallas_ls.engine.slicing import kernel_slice
from pallas_ls.engine.source import SourceFile
from pallas_ls.lint import run_rules
from pallas_ls.rules import RULES

UNRELATED = '''

def unrelated_helper(values):
    """Mentions a kernel and pl.pallas_call only in its docstring."""
    total = 0
    for value in values:
        total += value  # kernel, pallas_call, core_map in a comment
    return total


class UnrelatedConfig:
    size = 3

    def describe(self):
        return f"size {self.size}, not a pl.kernel"


UNRELATED_TABLE = {"when": 1, "kernel": 2}
'''


def summary(findings):
    return sorted((f.code, f.range, f.message, tuple(fix.title for fix in f.fixes)) for f in findings)


def both_ways(text: str, kernel_names=frozenset()):
    """(findings of the first look, findings of the whole analysis, the first look's analysis)."""
    quick = IncrementalDocument().first_look(SourceFile.from_text(text, "t.py"), kernel_names, worth_it=1.0)
    whole = run_rules(IncrementalDocument().analyze(SourceFile.from_text(text, "t.py")))
    whole = [f for f in whole if f.code != SYNTAX_ERROR_CODE]
    return (summary(run_rules(quick)) if quick is not None else None), summary(whole), quick


def defined_names(analysis) -> set[str]:
    return {getattr(stmt, "name", None) for stmt in analysis.source.tree.body} - {None}


EXAMPLES = [
    pytest.param(example.source, id=f"{rule.code}-{example.name}")
    for rule in RULES.values()
    for example in rule.examples
]


@pytest.mark.parametrize("program", EXAMPLES)
def test_rule_example_first_look_equals_whole_analysis(program):
    text = UNRELATED + "\n\n" + program + UNRELATED.replace("Unrelated", "Other").replace("unrelated", "other")
    quick, whole, analysis = both_ways(text)
    assert quick is not None, "the example's slice could not be analysed on its own"
    assert quick == whole
    if "import pallas_call" in program:
        return  # the unrelated blocks say `pallas_call` in their docstrings: a name this program binds
    assert not defined_names(analysis) & {"unrelated_helper", "UnrelatedConfig", "other_helper", "OtherConfig"}


def test_every_invalid_example_is_found_by_the_first_look():
    found = 0
    for rule in RULES.values():
        for example in rule.invalid_examples:
            quick, _, _ = both_ways(UNRELATED + example.source)
            found += any(code == rule.code for code, *_ in quick or [])
    assert found == sum(len(rule.invalid_examples) for rule in RULES.values())


KERNEL = """
import functools
import jax
from jax.experimental import pallas as pl

S = jax.ShapeDtypeStruct((8,), jax.numpy.float32)
"""


PROGRAMS = [
    pytest.param(
        """
def launch(kernel, x):
    return pl.pallas_call(kernel, out_shape=S)(x)


def run(kernel, x):
    return launch(kernel, x)


def add_one(x_ref, o_ref):
    return x_ref[...] + 1


run(add_one, 1)
""",
        id="wrapper-of-a-wrapper",
    ),
    pytest.param(
        """
call = functools.partial(pl.pallas_call, out_shape=S)
again = call


def add_one(x_ref, o_ref):
    return x_ref[...] + 1


again(add_one)(1)
""",
        id="aliases-of-a-partial",
    ),
    pytest.param(
        """
from jax.experimental.pallas import pallas_call as launch_it


def add_one(x_ref, o_ref):
    return x_ref[...] + 1


launch_it(add_one, out_shape=S)(1)
""",
        id="imported-under-another-name",
    ),
    pytest.param(
        """
from jax.experimental.pallas import (
    BlockSpec,
    pallas_call as launch_it,
)


def add_one(x_ref, o_ref):
    return x_ref[...] + 1


launch_it(add_one, out_shape=S)(1)
""",
        id="imported-in-parentheses",
    ),
    pytest.param(
        """
def helper():
    return None


def add_one(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1
    return helper()


pl.pallas_call(add_one, out_shape=S)(1)
""",
        id="return-helper-that-returns-none",
    ),
    pytest.param(
        """
def add_one(x_ref, o_ref):
    return x_ref[...] + 1


def rebind():
    global add_one
    add_one = other


pl.pallas_call(add_one, out_shape=S)(1)
""",
        id="global-rebinding",
    ),
    pytest.param(
        """
def add_one(x_ref, o_ref):
    return x_ref[...] + 1


first = second = add_one
pl.pallas_call(second, out_shape=S)(1)
""",
        id="chained-assignment",
    ),
    pytest.param(
        """
def make(n):
    def kernel(x_ref, o_ref):
        return x_ref[...] + n
    return kernel


if True:
    factory = make
pl.pallas_call(factory(3), out_shape=S)(1)
""",
        id="factory-bound-in-an-if",
    ),
    pytest.param(
        """
@pl.kernel(out_shape=S, mesh=None)
def body(x_ref, y_ref, o_ref):
    o_ref[...] = x_ref[...]


r = jax.new_ref(1)
body(r, r)
""",
        id="decorated-kernel-called-elsewhere",
    ),
]
NOT_FOLLOWED = ("return-helper-that-returns-none",)
FOLLOWED = [p.values[0] for p in PROGRAMS if p.id not in NOT_FOLLOWED]


@pytest.mark.parametrize("program", PROGRAMS)
def test_first_look_follows_what_the_engine_follows(program):
    text = KERNEL + UNRELATED + program + UNRELATED.replace("Unrelated", "Other").replace("unrelated", "other")
    quick, whole, _ = both_ways(text)
    # A valid program (a helper returning None) has no finding; the first look must agree anyway.
    assert bool(whole) == (program in FOLLOWED)
    assert quick == whole


def test_a_kernel_inside_a_string_is_not_code():
    text = (
        KERNEL
        + UNRELATED
        + '''
EXAMPLE = """
def add_one(x_ref, o_ref):
    return x_ref[...] + 1


pl.pallas_call(add_one, out_shape=S)(1)
"""
'''
    )
    quick, whole, _ = both_ways(text)
    assert quick == whole == []


def test_kernels_launched_from_another_module_are_seeds():
    text = (
        UNRELATED
        + """
def add_one(x_ref, o_ref):
    return x_ref[...] + 1
"""
    )
    _, _, analysis = both_ways(text, frozenset({"add_one"}))
    assert "add_one" in defined_names(analysis)
    _, _, analysis = both_ways(text)
    assert analysis is not None and not analysis.source.tree.body


@pytest.mark.parametrize("text", ['x = """never closed\n', "from jax.experimental.pallas import *\n"])
def test_no_slice_when_the_text_cannot_be_read_safely(text):
    source = SourceFile.from_text(text)
    assert kernel_slice(source.text, source.lines) is None

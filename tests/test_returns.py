"""PAL001 precision and recall on the return forms pallas-facts §1 lists."""

from __future__ import annotations

import pytest

from pallas_ls.lint import analyze_source

HEADER = """\
import jax
from jax import lax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def helper_none(o_ref):
    o_ref[...] = 1

def helper_value(x_ref):
    return x_ref[...]

def f_none(*a):
    return None

"""


def pal001(body: str) -> int:
    code = HEADER + "def k(x_ref, o_ref):\n" + "".join(f"    {line}\n" for line in body.splitlines())
    code += "pl.pallas_call(k, out_shape=s)(x)\n"
    return sum(1 for f in analyze_source(code, "t.py") if f.code == "PAL001")


FAILING = [
    "return x_ref[...]",
    "return o_ref",
    "return ()",
    "return []",
    "return {}",
    "return (None,)",
    "return 0",
    "return False",
    "return pl.program_id(0)",
    "return lax.fori_loop(0, 2, f, 0)",
    'return "done"',
    "return helper_value(x_ref)",
    "return jnp.zeros(3)",
    "return x_ref[...].sum()",
    "return pl.run_scoped(helper_value, s)",
    "return len(x_ref.shape)",
    "if c:\n    return 1",
    "for i in range(2):\n    return i * 2",
    "with ctx:\n    return x_ref[...]",
    "y = x_ref[...]\nreturn y",
    "y = x_ref[...]\nreturn y if y is not None else None",  # an array is never None
    "return lax.cond(c, lambda: jnp.float32(1.0), lambda: jnp.float32(0.0))",  # a 0-d array each way
    "try:\n    o_ref[...] = helper_value(x_ref)\nexcept KeyError:\n    return x_ref[...]",  # a call may raise it
    "def g(t_ref):\n    return t_ref[...].sum()\nreturn pl.run_scoped(g, s)",  # the scoped body's value
]
PASSING = [
    "pass",
    "y = x_ref[...]\nreturn None if y is not None else y",
    "return",
    "return None",
    "return helper_none(o_ref)",
    "return o_ref.__setitem__(..., 1)",
    "return pltpu.sync_copy(x_ref, o_ref)",
    "return pl.debug_print('x')",
    "return jax.debug.print('x')",
    "return sem.wait()",
    "return pltpu.make_async_copy(x_ref, o_ref, sem).wait()",
    "return pl.semaphore_signal(sem)",
    "return pl.when(c)(f_none)",
    "return jax.lax.fori_loop(0, 2, f, None)",
    "return pl.run_scoped(f_none, s)",
    "return lax.cond(p, f_none, f_none)",
    "def body(i, c):\n    return c + 1\no_ref[...] = lax.fori_loop(0, 2, body, 0)",
    "g = lambda v: v * 2",
    "class C:\n    def m(self):\n        return 1",
    "return unknown_library.do(o_ref)",
    "y = None\nreturn y",
    "return print('x')",
    "for _ in range(0):\n    return x_ref[...]",  # the loop's body never runs
    "try:\n    o_ref[...] = x_ref[...]\nexcept KeyError:\n    return x_ref[...]",  # nothing there raises it
    "def g(t_ref):\n    t_ref[...] = x_ref[...]\nreturn pl.run_scoped(g, s)",
]


@pytest.mark.parametrize("body", FAILING)
def test_value_returns_are_reported(body):
    assert pal001(body) == 1


@pytest.mark.parametrize("body", PASSING)
def test_none_returns_are_silent(body):
    assert pal001(body) == 0


def test_range_spans_return_keyword_to_end_of_value():
    code = HEADER + "def k(x_ref, o_ref):\n    return (x_ref[...] +\n            1)\npl.pallas_call(k, s)\n"
    [finding] = [f for f in analyze_source(code, "t.py") if f.code == "PAL001"]
    line = HEADER.count("\n") + 1
    assert (finding.range.start.line, finding.range.start.column) == (line, 4)
    assert (finding.range.end.line, finding.range.end.column) == (line + 1, 14)


def test_message_names_kernel_entry_point_and_line():
    code = HEADER + "def add_one(x_ref, o_ref):\n    return x_ref[...] + 1\n\nrun = pl.pallas_call(add_one, s)\n"
    [finding] = [f for f in analyze_source(code, "t.py") if f.code == "PAL001"]
    launch_line = code.splitlines().index("run = pl.pallas_call(add_one, s)") + 1
    assert finding.message.startswith(
        f"Pallas kernel `add_one` (launched by pallas_call on line {launch_line}) returns a value"
    )
    assert finding.related and finding.related[0].range.start.line == launch_line - 1


def test_kernel_launched_twice_is_reported_once_with_both_launches_related():
    code = HEADER + "def k(x_ref, o_ref):\n    return 1\npl.pallas_call(k, s)\npl.pallas_call(k, t)\n"
    findings = [f for f in analyze_source(code, "t.py") if f.code == "PAL001"]
    assert len(findings) == 1 and len(findings[0].related) == 2


def test_generator_and_async_kernels_are_left_to_their_own_rule():
    code = (
        HEADER
        + "def k(x_ref, o_ref):\n    yield 1\n    return 2\nasync def a(x_ref):\n    return 1\npl.pallas_call(k, s)\npl.pallas_call(a, s)\n"
    )
    assert [f for f in analyze_source(code, "t.py") if f.code == "PAL001"] == []


def test_noqa_suppresses():
    code = (
        HEADER
        + "def k(x_ref, o_ref):\n    return 1  # noqa: PAL001\ndef j(x_ref, o_ref):\n    return 1  # noqa\ndef m(x_ref, o_ref):\n    return 1  # noqa: PAL002\npl.pallas_call(k, s)\npl.pallas_call(j, s)\npl.pallas_call(m, s)\n"
    )
    assert [f.message.split("`")[1] for f in analyze_source(code, "t.py") if f.code == "PAL001"] == ["m"]


@pytest.mark.parametrize(
    ("debug", "codes"),
    [("False", []), ("0", []), ("True", ["PAL001"]), ("os.environ.get('DEBUG')", ["PAL001"])],
)
def test_a_kernel_return_under_a_module_constant_runs_only_when_it_is_true(debug, codes):
    """`if DEBUG: return o_ref[...]` with the module's `DEBUG = False`: the return never runs."""
    code = f"import os\n{HEADER}DEBUG = {debug}\n"
    code += "def k(x_ref, o_ref):\n    o_ref[...] = x_ref[...]\n    if DEBUG:\n        return o_ref[...]\n"
    code += "pl.pallas_call(k, out_shape=s)(x)\n"
    assert [f.code for f in analyze_source(code)] == codes


@pytest.mark.parametrize(("chosen", "codes"), [("bump", ["PAL001"]), ("copy", [])])
def test_defaults_keep_the_value_of_their_iteration(chosen, codes):
    """A def in a module-level loop evaluates its defaults when it runs: each iteration's kernel
    keeps that iteration's `mode`, and so does a lambda made in a comprehension (`s=s`)."""
    loop = (
        "REG = {}\nfor mode in ('copy', 'bump'):\n    def k(x_ref, o_ref, mode=mode):\n"
        "        o_ref[...] = x_ref[...]\n        if mode == 'bump':\n            return o_ref[...]\n"
        f"    REG[mode] = k\npl.pallas_call(REG['{chosen}'], out_shape=S)(x)\n"
    )
    shape = "S = jax.ShapeDtypeStruct((8, 128), jnp.float32)\n"  # the refs known: the defaults are left
    assert [f.code for f in analyze_source(HEADER + shape + loop, "t.py")] == codes
    index = 1 if chosen == "bump" else 0
    lambdas = (
        "FNS = [lambda x_ref, o_ref, s=s: o_ref.__setitem__(..., x_ref[...]) if s == 1 else x_ref[...] for s in (1, 2)]\n"
        f"pl.pallas_call(FNS[{index}], out_shape=S)(x)\n"
    )
    assert [f.code for f in analyze_source(HEADER + shape + lambdas, "t.py")] == codes

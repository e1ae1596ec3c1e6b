"""PAL004 kernel-arity-mismatch, and the signature binding it relies on."""

from __future__ import annotations

import ast
import textwrap

import pytest

from pallas_ls.engine.signatures import (
    bind,
    def_header_range,
    def_name_range,
    signature,
)
from pallas_ls.engine.source import SourceFile
from pallas_ls.lint import analyze_source

HEADER = """\
import functools
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
S = jax.ShapeDtypeStruct((8, 128), jnp.float32)
V = pltpu.VMEM((8, 128), jnp.float32)
mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)
"""


def pal004(code: str) -> list[tuple[str, str]]:
    """(text of the range, message) of each PAL004 finding."""
    text = HEADER + textwrap.dedent(code)
    lines = text.splitlines()
    return [
        (lines[f.range.start.line][f.range.start.column : f.range.end.column], f.message)
        for f in analyze_source(text, "t.py")
        if f.code == "PAL004"
    ]


REPORTED = {
    # `self.k` of a staticmethod is the def itself: JAX calls it with the refs only.
    "staticmethod-of-an-op": (
        "class Op:\n    @staticmethod\n    def k(x_ref, o_ref):\n        pass\n"
        "    def __call__(self, x):\n        return pl.pallas_call(self.k, out_shape=(S, S))(x)\nOp()(x)\n",
        "self.k",
        "takes 2 refs but pallas_call passes 3 (1 input, 2 outputs)",
    ),
    "too-many-parameters": (
        "def k(x_ref, y_ref, o_ref):\n    pass\npl.pallas_call(k, out_shape=S)(x)\n",
        "k",
        "takes 3 refs but pallas_call passes 2 (1 input, 1 output)",
    ),
    "star-arguments-of-a-known-tuple": (
        "def k(x_ref, o_ref):\n    pass\nargs = (x, x)\npl.pallas_call(k, out_shape=S)(*args)\n",
        "k",
        "takes 2 refs but pallas_call passes 3 (2 inputs, 1 output)",
    ),
    "too-few-parameters": (
        "def k(x_ref, o_ref):\n    pass\npl.pallas_call(k, out_shape=(S, S))(x)\n",
        "k",
        "takes 2 refs but pallas_call passes 3 (1 input, 2 outputs)",
    ),
    "prefetch-and-scratch-counted": (
        "def k(n_ref, x_ref, o_ref):\n    pass\n"
        "gs = pltpu.PrefetchScalarGridSpec(num_scalar_prefetch=1, grid=(1,), scratch_shapes=[V])\n"
        "pl.pallas_call(k, out_shape=S, grid_spec=gs)(n, x)\n",
        "k",
        "passes 4 (1 scalar-prefetch ref, 1 input, 1 output, 1 scratch ref)",
    ),
    "partial-positional-binding": (
        "def k(a, b, x_ref, o_ref):\n    pass\npl.pallas_call(functools.partial(k, 1), out_shape=S)(x)\n",
        "functools.partial(k, 1)",
        "after functools.partial binds 1 argument",
    ),
    "defaults-give-a-range": (
        "def k(x_ref, y_ref, o_ref, extra=None):\n    pass\npl.pallas_call(k, out_shape=S)(x)\n",
        "k",
        "takes 3 to 4 refs",
    ),
    "scratch-dict-key-without-parameter": (
        "def k(x_ref, o_ref):\n    pass\npl.pallas_call(k, out_shape=S, scratch_shapes={'acc': V})(x)\n",
        "k",
        "no parameter `acc`",
    ),
    "required-keyword-only": (
        "def k(x_ref, o_ref, *, block):\n    pass\npl.pallas_call(k, out_shape=S)(x)\n",
        "k",
        "keyword-only parameter `block`",
    ),
    "through-a-name-and-a-later-call": (
        "def k(x_ref, o_ref):\n    pass\nf = pl.pallas_call(k, out_shape=S)\ny = f(x, x)\n",
        "k",
        "passes 3 (2 inputs, 1 output)",
    ),
    "pl-kernel-outputs-list": (
        "def k(x_hbm, o_hbm):\n    pass\npl.kernel(k, out_type=[S, S], mesh=mesh)(x)\n",
        "k",
        "pl.kernel passes 3 (1 input, 2 outputs)",
    ),
    "wrapper-forwarding-every-argument": (
        "def logged(fn):\n    @functools.wraps(fn)\n    def wrapper(*args, **kwargs):\n        return fn(*args, **kwargs)\n"
        "    return wrapper\n@logged\ndef k(x_ref, y_ref, o_ref):\n    pass\npl.pallas_call(k, out_shape=S)(x)\n",
        "k",
        "takes 3 refs but pallas_call passes 2",
    ),
    "decorator-form-points-at-the-def": (
        "@functools.partial(pl.pallas_call, out_shape=S)\ndef k(x_ref):\n    pass\nk(x)\n",
        "k",
        "takes 1 ref but pallas_call passes 2",
    ),
}

SILENT = {
    "staticmethod-of-an-op-matching": (
        "class Op:\n    @staticmethod\n    def k(x_ref, o_ref, p_ref):\n        pass\n"
        "    def __call__(self, x):\n        return pl.pallas_call(self.k, out_shape=(S, S))(x)\nOp()(x)\n"
    ),
    "matching": "def k(x_ref, o_ref):\n    pass\npl.pallas_call(k, out_shape=S)(x)\n",
    "star-arguments-unknown": "def k(x_ref, o_ref):\n    pass\ndef f(*args):\n    return pl.pallas_call(k, out_shape=S)(*args)\n",
    "star-arguments-matching": "def k(x_ref, y_ref, o_ref):\n    pass\nargs = [x, x]\npl.pallas_call(k, out_shape=S)(*args)\n",
    "defaults-absorb": "def k(x_ref, o_ref, extra=None):\n    pass\npl.pallas_call(k, out_shape=S)(x)\n",
    "varargs": "def k(*refs):\n    pass\npl.pallas_call(k, out_shape=S)(x)\n",
    "varargs-after-refs": "def k(x_ref, *rest):\n    pass\npl.pallas_call(k, out_shape=(S, S))(x)\n",
    "kwargs-take-scratch-keys": (
        "def k(x_ref, o_ref, **scratch):\n    pass\npl.pallas_call(k, out_shape=S, scratch_shapes={'acc': V})(x)\n"
    ),
    "partial-keyword-after-refs": (
        "def k(x_ref, o_ref, block):\n    pass\npl.pallas_call(functools.partial(k, block=8), out_shape=S)(x)\n"
    ),
    "inputs-unknown": "def k(x_ref, y_ref, o_ref):\n    pass\nf = pl.pallas_call(k, out_shape=S)\n",
    "inconsistent-calls": ("def k(x_ref, o_ref):\n    pass\nf = pl.pallas_call(k, out_shape=S)\nf(x)\nf(x, y)\n"),
    "starred-call": "def k(x_ref, o_ref):\n    pass\npl.pallas_call(k, out_shape=S)(*xs)\n",
    "out-shape-unknown": "def k(x_ref, o_ref):\n    pass\npl.pallas_call(k, out_shape=shapes)(x)\n",
    "other-decorator": "@jax.named_call\ndef k(x_ref):\n    pass\npl.pallas_call(k, out_shape=S)(x)\n",
    "wrapper-adding-an-argument": (
        "def padded(fn):\n    def wrapper(*args):\n        return fn(*args, None)\n    return wrapper\n"
        "@padded\ndef k(x_ref, y_ref, o_ref):\n    pass\npl.pallas_call(k, out_shape=S)(x)\n"
    ),
    "launch-kwargs-may-hold-scratch": (
        "def k(x_ref, o_ref, acc):\n    pass\npl.pallas_call(k, out_shape=S, **opts)(x)\n"
    ),
    "legacy-pl-kernel-out-shape": ("def k(x_hbm, o_hbm):\n    pass\npl.kernel(k, out_shape=S, mesh=mesh)(x)\n"),
    "grid-spec-unknown": "def k(x_ref, o_ref):\n    pass\npl.pallas_call(k, out_shape=S, grid_spec=make())(x, y)\n",
}


@pytest.mark.parametrize("code, text, fragment", REPORTED.values(), ids=REPORTED.keys())
def test_reported(code, text, fragment):
    [(got_text, message)] = pal004(code)
    assert got_text == text
    assert fragment in message


@pytest.mark.parametrize("code", SILENT.values(), ids=SILENT.keys())
def test_silent(code):
    assert pal004(code) == []


def test_related_points_at_the_def():
    text = HEADER + "def k(x_ref):\n    pass\npl.pallas_call(k, out_shape=S)(x)\n"
    [finding] = [f for f in analyze_source(text, "t.py") if f.code == "PAL004"]
    [related] = finding.related
    assert "defined here" in related.message
    assert related.range.start.line == HEADER.count("\n")


# ------------------------------------------------------------------------------- signatures
def _sig(source: str):
    return signature(ast.parse(source).body[0])


@pytest.mark.parametrize(
    "source, n, keywords, kinds",
    [
        ("def f(a, b): pass", 2, set(), []),
        ("def f(a, b): pass", 3, set(), ["too-many"]),
        ("def f(a, b): pass", 1, set(), ["missing"]),
        ("def f(a, b=1): pass", 1, set(), []),
        ("def f(a, b): pass", 1, {"b"}, []),
        ("def f(a, b): pass", 2, {"a"}, ["multiple"]),
        ("def f(a, b): pass", 2, {"c"}, ["unexpected"]),
        ("def f(a, b, **kw): pass", 2, {"c"}, []),
        ("def f(a, /, b): pass", 1, {"a"}, ["unexpected", "missing"]),
        ("def f(*args): pass", 5, set(), []),
        ("def f(a, *, k): pass", 1, set(), ["missing-keyword"]),
        ("def f(a, *, k=1): pass", 1, set(), []),
        ("def f(a, *, k): pass", 1, {"k"}, []),
    ],
)
def test_bind(source, n, keywords, kinds):
    assert [p.kind for p in bind(_sig(source), n, frozenset(keywords))] == kinds


def test_def_ranges():
    text = "@deco\nasync def  kernel(x):\n    pass\nclass A:\n    def m(self): pass\n"
    source = SourceFile.from_text(text)
    tree = source.tree
    header = def_header_range(source, tree.body[0])
    name = def_name_range(source, tree.body[0])
    assert (header.start.line, header.start.column, header.end.column) == (1, 0, 17)
    assert (name.start.column, name.end.column) == (11, 17)
    method = tree.body[1].body[0]
    assert def_name_range(source, method).start.column == 8


@pytest.mark.parametrize(
    ("inputs", "reported"),
    [
        ("[x * i for i in range(3)]", True),  # arithmetic elements: how many is still known
        ("[x * i for i in (0, 1, 2)]", True),
        ("[x * i for i in range(1)]", False),
        ("[x * i for i in range(n)]", False),  # not known: silent
        ("[x * i for i in range(3) if i > n]", False),  # an undecided `if` keeps an unknown number
        ("[x * i for i in range(3) if i]", True),  # a decided one keeps two: 2 inputs + 1 output
    ],
)
def test_star_unpacked_comprehension_counts_its_elements(inputs, reported):
    code = f"def k(x_ref, o_ref):\n    pass\nxs = {inputs}\npl.pallas_call(k, out_shape=S)(*xs)\n"
    assert bool(pal004(code)) is reported

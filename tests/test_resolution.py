"""Which functions the engine finds as kernels, for each way issue §3 says they reach an entry point."""

from __future__ import annotations

import textwrap

import pytest

from pallas_ls.engine.analysis import analyze
from pallas_ls.engine.kernels import kernel_name
from pallas_ls.engine.source import SourceFile

PL = "import functools\nfrom functools import partial\nimport jax\nimport jax.experimental.pallas as pl\n"


def kernels(code: str) -> set[tuple[str, str]]:
    analysis = analyze(SourceFile.from_text(textwrap.dedent(code)))
    return {(kernel_name(site.function), site.launch.kind) for site in analysis.sites}


CASES = {
    "import-as": (PL + "def k(x, o): pass\npl.pallas_call(k, out_shape=s)\n", {("k", "pallas_call")}),
    "from-import-module": (
        "from jax.experimental import pallas as pl\ndef k(x, o): pass\npl.pallas_call(k, s)\n",
        {("k", "pallas_call")},
    ),
    "from-import-alias": (
        "from jax.experimental.pallas import pallas_call as launch\ndef k(x, o): pass\nlaunch(k, s)\n",
        {("k", "pallas_call")},
    ),
    "fully-qualified": (
        "import jax\ndef k(x, o): pass\njax.experimental.pallas.pallas_call(k, s)\n",
        {("k", "pallas_call")},
    ),
    "private-path": (
        "from jax._src.pallas import pallas_call\ndef k(x, o): pass\npallas_call.pallas_call(k, s)\n",
        {("k", "pallas_call")},
    ),
    "private-mpmd": (
        "from jax._src.pallas.mpmd import mpmd_map\ndef k(x, o): pass\nmpmd_map([(mesh, k)], out_types=s)\n",
        {("k", "mpmd_map")},
    ),
    "kernel-keyword": (PL + "def k(x, o): pass\npl.pallas_call(kernel=k, out_shape=s)\n", {("k", "pallas_call")}),
    "partial-decorator": (
        PL + "@functools.partial(pl.pallas_call, out_shape=s)\ndef k(x, o): pass\n",
        {("k", "pallas_call")},
    ),
    "stored-partial": (
        PL + "call = functools.partial(pl.pallas_call, out_shape=s)\ndef k(x, o): pass\ncall(k)\n",
        {("k", "pallas_call")},
    ),
    "stored-partial-as-decorator": (
        PL + "call = partial(pl.pallas_call, out_shape=s)\n@call\ndef k(x, o): pass\n",
        {("k", "pallas_call")},
    ),
    "pl-kernel-positional": (PL + "def k(x, o): pass\npl.kernel(k, out_type=s, mesh=m)\n", {("k", "kernel")}),
    "pl-kernel-body-keyword": (PL + "def k(x, o): pass\npl.kernel(body=k, mesh=m)\n", {("k", "kernel")}),
    "pl-kernel-decorator": (PL + "@pl.kernel(out_type=s, mesh=m)\ndef k(x, o): pass\n", {("k", "kernel")}),
    "pl-kernel-curried": (PL + "def k(x, o): pass\npl.kernel(mesh=m)(k)\n", {("k", "kernel")}),
    "pl-kernel-mpmd-bodies": (
        PL + "def a(x): pass\ndef b(x): pass\npl.kernel(body=[a, b], mesh=[m1, m2])\n",
        {("a", "kernel"), ("b", "kernel")},
    ),
    "core-map-decorator": (PL + "def f():\n    @pl.core_map(mesh)\n    def body(): pass\n", {("body", "core_map")}),
    "warp-map": (
        "from jax.experimental.pallas import mosaic_gpu as plgpu\ndef k():\n    @plgpu.warp_map\n    def w(i): pass\n",
        {("w", "warp_map")},
    ),
    "warp-map-call": (
        "from jax.experimental.pallas import mosaic_gpu as plgpu\ndef w(i): pass\nplgpu.warp_map(w)\n",
        {("w", "warp_map")},
    ),
    "nested-def": (
        PL + "def op(x):\n    def k(x, o): pass\n    return pl.pallas_call(k, s)(x)\n",
        {("k", "pallas_call")},
    ),
    "closure-in-method": (
        PL + "class T:\n    def test(self):\n        def k(x, o): pass\n        pl.pallas_call(k, s)\n",
        {("k", "pallas_call")},
    ),
    "rebound-name": (PL + "def k(x, o): pass\nkern = k\npl.pallas_call(kern, s)\n", {("k", "pallas_call")}),
    "latest-binding-wins": (
        PL + "def a(x, o): pass\ndef b(x, o): pass\nk = a\nk = b\npl.pallas_call(k, s)\n",
        {("b", "pallas_call")},
    ),
    "nested-partial": (
        PL + "def k(x, o, *, a, b): pass\npl.pallas_call(partial(partial(k, a=1), b=2), s)\n",
        {("k", "pallas_call")},
    ),
    "lambda": (PL + "pl.pallas_call(lambda x, o: None, s)\n", {("<lambda>", "pallas_call")}),
    "factory": (
        PL + "def make(n):\n    def inner(x, o): pass\n    return inner\npl.pallas_call(make(3), s)\n",
        {("inner", "pallas_call")},
    ),
    "conditional-expression": (
        PL + "def a(x, o): pass\ndef b(x, o): pass\npl.pallas_call(a if c else b, s)\n",
        {("a", "pallas_call"), ("b", "pallas_call")},
    ),
    "if-else-assignment": (
        PL + "def a(x, o): pass\ndef b(x, o): pass\nif c:\n    k = a\nelse:\n    k = b\npl.pallas_call(k, s)\n",
        {("a", "pallas_call"), ("b", "pallas_call")},
    ),
    "decorated-def": (
        PL + "@jax.named_call\ndef k(x, o): pass\npl.pallas_call(k, s)\n",
        {("k", "pallas_call")},
    ),
    "wrapper-forwards-its-kernel": (
        PL
        + "def run(kernel, x):\n    return pl.pallas_call(kernel, s)(x)\ndef k(x, o): pass\nrun(k, 1)\nrun(kernel=k, x=2)\n",
        {("k", "pallas_call")},
    ),
    "wrapper-of-a-wrapper": (
        PL
        + "def run(kernel):\n    return pl.pallas_call(kernel, s)\ndef go(f):\n    return run(f)\ndef k(x, o): pass\ngo(k)\n",
        {("k", "pallas_call")},
    ),
}

NOT_KERNELS = {
    "local-function-named-pallas-call": "def pallas_call(f, s): return f\ndef k(x, o): return 1\npallas_call(k, s)\n",
    "method-named-kernel": PL + "class A:\n    def kernel(self, f): return f\ndef k(x): return 1\nA().kernel(k)\n",
    "shadowed-import": PL + "def f(pl):\n    def k(x, o): return 1\n    pl.pallas_call(k, s)\n",
    "other-library-kernel": "import mylib as pl\ndef k(x, o): return 1\npl.pallas_call(k, s)\n",
    "helper-called-in-kernel-is-not-a-kernel": (
        PL + "def helper(x): return x\ndef k(x, o): o[...] = helper(x)\npl.pallas_call(k, s)\n"
    ),
}


@pytest.mark.parametrize("code,expected", CASES.values(), ids=list(CASES))
def test_kernel_is_found(code, expected):
    assert kernels(code) == expected


@pytest.mark.parametrize("code", NOT_KERNELS.values(), ids=list(NOT_KERNELS))
def test_not_a_kernel(code):
    found = kernels(code)
    assert all(name != "helper" for name, _ in found)
    if "helper" not in code:
        assert found == set()


DICT_KERNELS = """\
from jax.experimental import pallas as pl

def good(x_ref, o_ref):
    o_ref[...] = x_ref[...]

def bad(x_ref, o_ref):
    return x_ref[...]

{table}
pl.pallas_call(D[0], out_shape=None)(x)
"""


@pytest.mark.parametrize(
    ("table", "launched"),
    [
        ("D = {0: bad, 1: good, 0: good}", {"good"}),  # a repeated key: the last value wins
        ("D = {0: good, 1: bad, 0: bad}", {"bad"}),
        ("D = {**{0: bad}, 0: good}", {"good"}),
        ("D = {0: bad, **{0: good, 2: bad}}", {"good"}),
        ("D = {1: bad, True: good, 0: good}", {"good"}),  # 1 == True: one key
        ("E = {0: bad} if x else {}\nD = {0: good, **E}", {"good", "bad"}),  # which spread: either
        ("D = {" + ", ".join(f"{i}: bad" for i in range(1, 20_000)) + ", 0: good}", {"good"}),
    ],
)
def test_dict_literal_keys_follow_python(table, launched):
    """Issue 35: the literal is indexed once (it was rebuilt per key: quadratic); keys keep Python's
    rules."""
    assert {name for name, _ in kernels(DICT_KERNELS.format(table=table))} == launched

"""PAL003 kernel-captures-array: precision and recall beyond the rule's examples."""

from __future__ import annotations

import textwrap

import pytest

from pallas_ls.lint import analyze_source

HEADER = """\
import functools
import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)
S = jax.ShapeDtypeStruct((8, 128), jnp.float32)
"""


def pal003(code: str) -> list[str]:
    """The source text of each PAL003 range."""
    text = HEADER + textwrap.dedent(code)
    lines = text.splitlines()
    return [
        lines[f.range.start.line][f.range.start.column : f.range.end.column]
        for f in analyze_source(text, "t.py")
        if f.code == "PAL003"
    ]


REPORTED = {
    "module-array-binop": (
        "C = jnp.ones((8, 128))\ndef k(x_ref, o_ref):\n    o_ref[...] = x_ref[...] + C\n"
        "pl.pallas_call(k, out_shape=S)(x)\n",
        ["C"],
    ),
    "builtin-sum-of-arrays": (
        "C = sum([jnp.ones((8, 128)), jnp.ones((8, 128))])\ndef k(x_ref, o_ref):\n    o_ref[...] = x_ref[...] + C\npl.pallas_call(k, out_shape=S)(x)\n",
        ["C"],
    ),
    "device-get-is-a-numpy-array": (
        "C = jax.device_get(jnp.ones((8, 128)))\ndef k(x_ref, o_ref):\n    o_ref[...] = x_ref[...] + C\npl.pallas_call(k, out_shape=S)(x)\n",
        ["C"],
    ),
    "stored-into-a-ref": (
        "C = jnp.zeros((8, 128))\ndef k(x_ref, o_ref):\n    o_ref[...] = C\npl.pallas_call(k, out_shape=S)(x)\n",
        ["C"],
    ),
    "first-traced-use-only": (
        "C = jnp.arange(8)\ndef k(x_ref, o_ref):\n    n = C.shape[0]\n    o_ref[...] = jnp.sum(C) + C[0]\n"
        "pl.pallas_call(k, out_shape=S)(x)\n",
        ["C"],
    ),
    "method-call": (
        "C = jnp.full((8, 128), 2.0)\ndef k(x_ref, o_ref):\n    o_ref[...] = C.astype(jnp.float32)\n"
        "pl.pallas_call(k, out_shape=S)(x)\n",
        ["C"],
    ),
    "comparison-and-negation": (
        "C = jnp.eye(8)\nD = jnp.linspace(0, 1, 8)\ndef k(x_ref, o_ref):\n    o_ref[...] = jnp.where(C > 0, -D, 0)\n"
        "pl.pallas_call(k, out_shape=S)(x)\n",
        ["C", "D"],
    ),
    "zero-d-dtype-constructor": (
        "F = jnp.float32(3.0)\ndef k(x_ref, o_ref):\n    o_ref[...] = x_ref[...] * F\npl.pallas_call(k, out_shape=S)(x)\n",
        ["F"],
    ),
    "prng-key": (
        "key = jax.random.PRNGKey(0)\ndef k(x_ref, o_ref):\n    o_ref[...] = x_ref[...] + key[0]\n"
        "pl.pallas_call(k, out_shape=S)(x)\n",
        ["key"],
    ),
    "enclosing-function-local-in-a-when-body": (
        "def op(x):\n    mask = jnp.tril(jnp.ones((8, 8)))\n    def k(x_ref, o_ref):\n"
        "        @pl.when(pl.program_id(0) == 0)\n        def _():\n            o_ref[...] = x_ref[...] * mask\n"
        "    return pl.pallas_call(k, out_shape=S)(x)\n",
        ["mask"],
    ),
    "loop-body-lambda": (
        "C = jnp.ones(8)\ndef k(x_ref, o_ref):\n    o_ref[...] = jax.lax.fori_loop(0, 2, lambda i, a: a + C, x_ref[...])\n"
        "pl.pallas_call(k, out_shape=S)(x)\n",
        ["C"],
    ),
    "jit-parameter": (
        "@jax.jit\ndef op(x, scale):\n    def k(x_ref, o_ref):\n        o_ref[...] = x_ref[...] * scale\n"
        "    return pl.pallas_call(k, out_shape=S)(x)\n",
        ["scale"],
    ),
    "jit-keyword-only-parameter": (
        "@functools.partial(jax.jit, static_argnums=(0,))\ndef op(n, x, *, scale):\n    def k(x_ref, o_ref):\n"
        "        o_ref[...] = x_ref[...] * scale * n\n    return pl.pallas_call(k, out_shape=S)(x)\n",
        ["scale"],
    ),
    "pl-kernel-non-scalar": (
        "C = jnp.ones((8, 128))\n@pl.kernel(out_type=S, mesh=mesh)\ndef k(x_ref, o_ref):\n    o_ref[...] = x_ref[...] + C\n",
        ["C"],
    ),
    "through-possibly-no-op-calls": (
        "C = jnp.ones((8, 128))\ndef k(x_ref, o_ref):\n    o_ref[...] = jnp.asarray(C).astype(jnp.float32)[0:8]\n"
        "pl.pallas_call(k, out_shape=S)(x)\n",
        ["C"],
    ),
    "transpose-binds-even-for-its-shape": (
        "C = jnp.ones((8, 128))\ndef k(x_ref, o_ref):\n    n = C.T.shape[0]\n    o_ref[...] = x_ref[...] * n\n"
        "pl.pallas_call(k, out_shape=S)(x)\n",
        ["C"],
    ),
    "reduction-result-unused": (
        "C = jnp.ones((8, 128))\ndef k(x_ref, o_ref):\n    C.sum()\n    o_ref[...] = x_ref[...]\n"
        "pl.pallas_call(k, out_shape=S)(x)\n",
        ["C"],
    ),
    "inside-a-list-argument": (
        "C = jnp.ones((4, 128))\ndef k(x_ref, o_ref):\n    o_ref[...] = jnp.concatenate([C, C])\n"
        "pl.pallas_call(k, out_shape=S)(x)\n",
        ["C"],
    ),
    "numpy-array-meets-a-ref-read": (
        "T = np.arange(128, dtype=np.float32)\nM = np.triu(np.ones((8, 128), bool))\n"
        "def k(x_ref, o_ref):\n    y = x_ref[...]\n    o_ref[...] = jnp.where(M, y, 0.0) + (-T) * 2 + y\n"
        "def k2(x_ref, o_ref):\n    y = x_ref[...]\n    o_ref[...] = y + T.reshape(1, 128)\n"
        "pl.pallas_call(k, out_shape=S)(x)\npl.pallas_call(k2, out_shape=S)(x)\n",
        ["M", "T", "T"],
    ),
    # numpy's methods keep an array: a module value the interpreter proves is one is a constant.
    "numpy-array-from-numpy-methods": (
        "W = np.arange(128).reshape(1, 128).astype(np.float32)\ndef k(x_ref, o_ref):\n    o_ref[...] = x_ref[...] + W\n"
        "pl.pallas_call(k, out_shape=S)(x)\n",
        ["W"],
    ),
    "numpy-random-draws": (
        "W = np.random.default_rng(0).normal(size=(8, 128)).astype(np.float32)\nR = np.random.rand(8, 128)\n"
        "def k(x_ref, o_ref):\n    o_ref[...] = x_ref[...] + W + R\npl.pallas_call(k, out_shape=S)(x)\n",
        ["W", "R"],
    ),
    "numpy-slices-pads-and-elementwise": (
        "A = np.ones((8, 256), np.float32)\nB = A[:, :128]\nC = np.pad(A[:4, :128], ((0, 4), (0, 0)))\nD = np.exp(B)\n"
        "def k(x_ref, o_ref):\n    o_ref[...] = x_ref[...] + B + C + D\npl.pallas_call(k, out_shape=S)(x)\n",
        ["B", "C", "D"],
    ),
    "numpy-array-stored-into-a-ref": (
        "T = np.ones((8, 128), np.float32)\ndef k(x_ref, o_ref):\n    o_ref[...] += T\npl.pallas_call(k, out_shape=S)(x)\n",
        ["T"],
    ),
    "array-default-that-jax-never-fills": (
        "B = jnp.ones((8, 128))\ndef k(x_ref, o_ref, bias=B, *, scale=jnp.float32(2.0)):\n"
        "    o_ref[...] = x_ref[...] * scale + bias\npl.pallas_call(k, out_shape=S)(x)\n",
        ["scale", "bias"],
    ),
    "self-attribute-array": (
        "class M:\n    def __init__(self):\n        self.b = jnp.ones((8, 128))\n"
        "    def __call__(self, x):\n        def k(x_ref, o_ref):\n            o_ref[...] = x_ref[...] + self.b\n"
        "        return pl.pallas_call(k, out_shape=S)(x)\n",
        ["self.b"],
    ),
    "table-filled-by-a-helper": (
        "T = {}\ndef fill(name):\n    T[name] = jnp.ones((8, 128))\nfill('w')\n"
        "def k(x_ref, o_ref):\n    o_ref[...] = x_ref[...] + T['w']\npl.pallas_call(k, out_shape=S)(x)\n",
        ["T['w']"],
    ),
    "placed-with-device-put": (
        "T = jax.device_put(np.ones((8, 128)))\ndef k(x_ref, o_ref):\n    o_ref[...] = x_ref[...] + T\n"
        "pl.pallas_call(k, out_shape=S)(x)\n",
        ["T"],
    ),
    "member-of-a-member": (
        "class L:\n    def __init__(self):\n        self.params = {'w': jnp.ones((8, 128)), 'b': 0.0}\n"
        "    def __call__(self, x):\n        def k(x_ref, o_ref):\n"
        "            o_ref[...] = x_ref[...] * self.params['w'] + self.params['b']\n"
        "        return pl.pallas_call(k, out_shape=S)(x)\n",
        ["self.params['w']"],
    ),
    "global-set-by-an-init-call": (
        "W = None\ndef init():\n    global W\n    W = jnp.ones((8, 128))\ninit()\n"
        "def k(x_ref, o_ref):\n    o_ref[...] = x_ref[...] * W\npl.pallas_call(k, out_shape=S)(x)\n",
        ["W"],
    ),
    "factory-argument-in-pl-kernel": (
        "def make(w):\n    @pl.kernel(out_type=S, mesh=mesh)\n    def k(x_ref, o_ref):\n        o_ref[...] = x_ref[...] * w\n"
        "    return k\nmake(jnp.ones((8, 128)))(x)\n",
        ["w"],
    ),
    "property-returning-a-stored-array": (
        "class M:\n    def __init__(self):\n        self._b = jnp.ones((8, 128))\n"
        "    @property\n    def b(self):\n        return self._b\n"
        "M0 = M()\ndef k(x_ref, o_ref):\n    o_ref[...] = x_ref[...] + M0.b\npl.pallas_call(k, out_shape=S)(x)\n",
        ["M0.b"],
    ),
    "dict-of-arrays-and-lax-iota": (
        "P = {'w': jnp.ones((8, 128)), 'n': 3}\nI = jax.lax.broadcasted_iota(jnp.int32, (8, 128), 0)\n"
        "def k(x_ref, o_ref):\n    o_ref[...] = x_ref[...] * P['w'] * P['n'] + (I > 2)\npl.pallas_call(k, out_shape=S)(x)\n",
        ["P['w']", "I"],
    ),
    "global-statement": (
        "C = jnp.ones((8, 128))\ndef k(x_ref, o_ref):\n    global C\n    o_ref[...] = C + 1\n"
        "pl.pallas_call(k, out_shape=S)(x)\n",
        ["C"],
    ),
}

SILENT = {
    "numpy-reductions-to-a-scalar": (
        "A = np.ones((8, 128), np.float32)\nT = np.sum(A)\nM = np.max(A)\n"
        "def k(x_ref, o_ref):\n    o_ref[...] = x_ref[...] * T + M\npl.pallas_call(k, out_shape=S)(x)\n"
    ),
    "numpy-methods-giving-python-values": (
        "N = np.zeros((3, 128)).shape[0]\nL = np.arange(4).tolist()\nF = float(np.ones(4).sum())\n"
        "def k(x_ref, o_ref):\n    o_ref[...] = x_ref[...] * N * L[2] * F\npl.pallas_call(k, out_shape=S)(x)\n"
    ),
    "python-numbers": (
        "eps = 1e-6\nn = 3\ndef k(x_ref, o_ref):\n    o_ref[...] = x_ref[...] * n + eps\npl.pallas_call(k, out_shape=S)(x)\n"
    ),
    # Observed under JAX: numpy scalars and what numpy reduces to a scalar become literals.
    "numpy-scalars-and-numpy-arithmetic": (
        "F = np.float32(3.0)\nN = np.prod((8, 128))\nZ = np.array(3.0)\nT = np.arange(128.0)\n"
        "def k(x_ref, o_ref):\n    s = (T * 2).sum()\n    o_ref[...] = x_ref[...] * F + N + Z + s + T[3] + T.shape[0]\n"
        "pl.pallas_call(k, out_shape=S)(x)\n"
    ),
    "numpy-array-of-unknown-rank": (
        "def op(x, shape):\n    C = np.ones(shape)\n    def k(x_ref, o_ref):\n        o_ref[...] = x_ref[...] + C\n"
        "    return pl.pallas_call(k, out_shape=S)(x)\n"
    ),
    "default-filled-by-a-ref": (
        "C = jnp.ones((8, 128))\ndef k(x_ref, o_ref=C):\n    o_ref[...] = x_ref[...] + 1\n"
        "pl.pallas_call(k, out_shape=S)(x)\n"
    ),
    "attribute-that-may-be-a-float": (
        "class M:\n    def __init__(self, b):\n        self.b = jnp.ones((8, 128)) if b else 0.5\n"
        "    def __call__(self, x):\n        def k(x_ref, o_ref):\n            o_ref[...] = x_ref[...] + self.b\n"
        "        return pl.pallas_call(k, out_shape=S)(x)\n"
    ),
    "static-metadata": (
        "C = jnp.ones((8, 128))\ndef k(x_ref, o_ref):\n"
        "    o_ref[...] = jnp.zeros(C.shape, C.dtype) + len(C) + C.ndim + jnp.shape(C)[0] + C.size\n"
        "    if C is None or isinstance(C, int):\n        pass\n"
        "pl.pallas_call(k, out_shape=S)(x)\n"
    ),
    "metadata-only-functions-and-no-op-calls": (
        "C = jnp.ones((8, 128))\ndef k(x_ref, o_ref):\n"
        "    o_ref[...] = jnp.zeros_like(C) + jnp.full_like(C, 2.0) + jnp.asarray(C).shape[0]\n"
        "    n = C.astype(jnp.float32).reshape(8, 128).shape[0]\n"
        "    helper(C)\n    y = C\n"
        "pl.pallas_call(k, out_shape=S)(x)\n"
    ),
    "plain-function-parameter": (
        "def op(x, scale):\n    def k(x_ref, o_ref):\n        o_ref[...] = x_ref[...] * scale\n"
        "    return pl.pallas_call(k, out_shape=S)(x)\n"
    ),
    "jit-static-and-defaulted-parameters": (
        "@functools.partial(jax.jit, static_argnames=('a',), static_argnums=1)\ndef op(x, b, a, c=1.0):\n"
        "    def k(x_ref, o_ref):\n        o_ref[...] = x_ref[...] * a + b + c\n"
        "    return pl.pallas_call(k, out_shape=S)(x)\n"
    ),
    "jit-with-non-literal-static-arguments": (
        "STATIC = ('a',)\n@functools.partial(jax.jit, static_argnames=STATIC)\ndef op(x, a):\n"
        "    def k(x_ref, o_ref):\n        o_ref[...] = x_ref[...] * a\n    return pl.pallas_call(k, out_shape=S)(x)\n"
    ),
    "jit-parameter-indexed-may-be-a-ref": (
        "@jax.jit\ndef op(x, r):\n    def k(x_ref, o_ref):\n        o_ref[...] = x_ref[...] + r[...]\n"
        "    return pl.pallas_call(k, out_shape=S)(x)\n"
    ),
    "jit-method": (
        "class M:\n    @jax.jit\n    def op(self, x):\n        def k(x_ref, o_ref):\n"
        "            o_ref[...] = x_ref[...] * self\n        return pl.pallas_call(k, out_shape=S)(x)\n"
    ),
    "shadowed-by-a-local-or-parameter": (
        "C = jnp.ones((8, 128))\ndef k(x_ref, o_ref, C=None):\n    o_ref[...] = x_ref[...] + C\n"
        "def k2(x_ref, o_ref):\n    C = x_ref[...]\n    o_ref[...] = C + 1\n"
        "def k3(x_ref, o_ref):\n    o_ref[...] = sum(C for C in range(3)) + x_ref[...]\n"
        "pl.pallas_call(k, out_shape=S)(x)\npl.pallas_call(k2, out_shape=S)(x)\npl.pallas_call(k3, out_shape=S)(x)\n"
    ),
    "rebound-to-a-python-number": (
        "C = jnp.ones((8, 128))\nC = 2.0\ndef k(x_ref, o_ref):\n    o_ref[...] = x_ref[...] + C\n"
        "pl.pallas_call(k, out_shape=S)(x)\n"
    ),
    "maybe-an-array": (
        "C = 2.0\nif flag:\n    C = jnp.ones((8, 128))\ndef k(x_ref, o_ref):\n    o_ref[...] = x_ref[...] + C\n"
        "pl.pallas_call(k, out_shape=S)(x)\n"
    ),
    "refs": (
        "r = jax.new_ref(jnp.ones((8, 128)))\nR = {'a': jax.new_ref(jnp.ones((8, 128)))}\n"
        "@pl.kernel(out_type=S, mesh=mesh)\ndef k(x_ref, o_ref):\n"
        "    o_ref[...] = r[...] + r[0] + R['a'][...]\n"
    ),
    "ref-named-jit-parameter": (
        "@jax.jit\ndef op(x, y_ref):\n    def k(x_ref, o_ref):\n        o_ref[...] = x_ref[...] + y_ref\n"
        "    return pl.pallas_call(k, out_shape=S)(x)\n"
    ),
    "zero-d-in-pl-kernel-and-core-map": (
        "F = jnp.float32(3.0)\nK = jax.random.key(0)\n@pl.kernel(out_type=S, mesh=mesh)\ndef k(x_ref, o_ref):\n"
        "    o_ref[...] = x_ref[...] * F + jnp.zeros((), jnp.float32)\n"
        "@pl.core_map(mesh)\ndef _():\n    o = F + 1\n"
    ),
    "unknown-rank-in-pl-kernel": (
        "def op(shape):\n    C = jnp.zeros(shape)\n    @pl.kernel(out_type=S, mesh=mesh)\n    def k(x_ref, o_ref):\n"
        "        o_ref[...] = x_ref[...] + C\n"
    ),
    "nested-def-never-called": (
        "C = jnp.ones((8, 128))\ndef k(x_ref, o_ref):\n    def unused():\n        return C + 1\n"
        "    o_ref[...] = x_ref[...]\npl.pallas_call(k, out_shape=S)(x)\n"
    ),
    "defaults-and-decorators-of-the-kernel-are-outside": (
        "C = jnp.ones((8, 128))\ndef k(x_ref, o_ref, *, c=C + 1):\n    o_ref[...] = x_ref[...]\n"
        "pl.pallas_call(k, out_shape=S)(x)\n"
    ),
    "array-made-by-a-getter-while-tracing": (
        "class C:\n    @functools.cached_property\n    def table(self):\n        return jnp.ones((8, 128))\n"
        "    @property\n    def bias(self):\n        return jnp.zeros((8, 128)) + 1\n"
        "CFG = C()\ndef k(x_ref, o_ref):\n    o_ref[...] = x_ref[...] * CFG.table + CFG.bias\n"
        "pl.pallas_call(k, out_shape=S)(x)\n"
    ),
    "table-filled-by-a-helper-with-its-argument": (
        "T = {}\ndef fill(name, v):\n    T[name] = v\nfill('w', jnp.ones((8, 128)))\n"
        "def k(x_ref, o_ref):\n    o_ref[...] = x_ref[...] + T['w']\npl.pallas_call(k, out_shape=S)(x)\n"
    ),
    "global-set-by-a-conditional-init": (
        "W = None\ndef init():\n    global W\n    if flag:\n        W = jnp.ones((8, 128))\ninit()\n"
        "def k(x_ref, o_ref):\n    o_ref[...] = x_ref[...] * W\npl.pallas_call(k, out_shape=S)(x)\n"
    ),
    "factory-argument-a-scalar-array-in-pl-kernel": (
        "def make(w):\n    @pl.kernel(out_type=S, mesh=mesh)\n    def k(x_ref, o_ref):\n        o_ref[...] = x_ref[...] * w\n"
        "    return k\nmake(jnp.float32(2.0))(x)\nmake(2.0)(x)\n"
    ),
    "builtin-sum-of-floats": (
        "C = sum([1.0, 2.0])\ndef k(x_ref, o_ref):\n    o_ref[...] = x_ref[...] + C\npl.pallas_call(k, out_shape=S)(x)\n"
    ),
    "not-a-kernel": ("C = jnp.ones((8, 128))\ndef helper(x_ref):\n    return x_ref[...] + C\n"),
}


@pytest.mark.parametrize("code, expected", REPORTED.values(), ids=REPORTED.keys())
def test_reported(code, expected):
    assert pal003(code) == expected


@pytest.mark.parametrize("code", SILENT.values(), ids=SILENT.keys())
def test_silent(code):
    assert pal003(code) == []


def test_message_names_kernel_origin_and_fix():
    [finding] = [
        f
        for f in analyze_source(
            HEADER + "C = jnp.ones((8, 128))\ndef add(x_ref, o_ref):\n    o_ref[...] = x_ref[...] + C\n"
            "pl.pallas_call(add, out_shape=S)(x)\n",
            "t.py",
        )
        if f.code == "PAL003"
    ]
    assert "`add`" in finding.message and "`C`" in finding.message
    assert "jnp.ones(...)" in finding.message and "as an input" in finding.message
    assert any("bound here" in r.message for r in finding.related)
    assert any("launched by pallas_call" in r.message for r in finding.related)


DEBUG_BRANCH = """
W = jnp.ones((8, 128))
DEBUG = {flag}
def k(x_ref, o_ref):
    o_ref[...] = x_ref[...]
    if DEBUG:
        o_ref[...] += W
pl.pallas_call(k, out_shape=S)(x)
"""


@pytest.mark.parametrize(("flag", "expected"), [("False", []), ("True", ["W"]), ("flag()", ["W"])])
def test_a_branch_a_constant_decides_against_is_not_traced(flag, expected):
    assert pal003(DEBUG_BRANCH.format(flag=flag)) == expected


DEBUG_EXPRESSION = """
W = jnp.ones((8, 128))
DEBUG = {flag}
def k(x_ref, o_ref):
    o_ref[...] = x_ref[...] + (W if DEBUG else 0.0)
pl.pallas_call(k, out_shape=S)(x)
"""


# A conditional expression's branch is followed only where a constant decides its test.
@pytest.mark.parametrize(("flag", "expected"), [("False", []), ("True", ["W"]), ("flag()", [])])
def test_a_conditional_expression_a_constant_decides(flag, expected):
    assert pal003(DEBUG_EXPRESSION.format(flag=flag)) == expected


BOUND_METHOD = """
class Scaler:
    def __init__(self, w):
        self.w = w
    def kernel(self, x_ref, o_ref):
        o_ref[...] = x_ref[...] * self.w
pl.pallas_call({kernel}, out_shape=S)(x)
"""


@pytest.mark.parametrize(
    ("kernel", "expected"),
    [
        ("Scaler(jnp.full((8, 128), 2.0)).kernel", ["self.w"]),  # bound to an instance holding an array
        ("Scaler(2.0).kernel", []),  # a Python float
        ("Scaler(unknown).kernel", []),  # not known: never a guess
        ("Scaler.kernel", []),  # read from the class: its first parameter is a ref
    ],
)
def test_a_bound_method_kernel_reads_its_instance(kernel, expected):
    """`pl.pallas_call(s.kernel, ...)`: `self.w` is read from the instance the method is bound to."""
    assert pal003(BOUND_METHOD.format(kernel=kernel)) == expected


HELPER = """
W = {w}
def scaled(v):
    return v * {read}
def twice(v):
    return scaled(v) * 2
def k(x_ref, o_ref):
    o_ref[...] = {call}(x_ref[...])
pl.pallas_call(k, out_shape=S)(x)
"""


OP_CLASS = """
class Op:
    def __init__(self, bias):
        self.bias = bias
    def kernel(self, x_ref, o_ref):
        o_ref[...] = x_ref[...] + self.bias
    def __call__(self, x):
        return pl.pallas_call(self.kernel, out_shape=S)(x)
Op({bias})(x)
"""


@pytest.mark.parametrize(
    ("bias", "expected"),
    [("jnp.ones((8, 128))", ["self.bias"]), ("1.0", []), ("unknown", [])],
)
def test_a_method_launched_by_its_own_class_reads_the_instance_a_call_made(bias, expected):
    """`self.kernel` launched in `__call__`: the instance `Op(...)` was called on proves the capture
    (the launch in `__call__` for any instance does not)."""
    assert pal003(OP_CLASS.format(bias=bias)) == expected


CLOSURE_LOCAL = """
def make(p):
    w = p.weight
    def k(x_ref, o_ref):
        o_ref[...] = x_ref[...] * w
    return k
class P:
    def __init__(self, weight):
        self.weight = weight
pl.pallas_call(make(P({w})), out_shape=S)(x)
"""


@pytest.mark.parametrize(("w", "expected"), [("jnp.ones((8, 128))", ["w"]), ("2.0", []), ("unknown", [])])
def test_a_local_of_the_enclosing_function_holding_an_array_is_captured(w, expected):
    assert pal003(CLOSURE_LOCAL.format(w=w)) == expected


@pytest.mark.parametrize(
    ("w", "read", "call", "expected"),
    [
        ("jnp.ones((8, 128))", "W", "scaled", ["W"]),  # a helper the kernel calls reads a global array
        ("jnp.ones((8, 128))", "W", "twice", ["W"]),  # through a helper of a helper
        ("jnp.ones((8, 128))", "W.shape[0]", "scaled", []),  # static metadata only
        ("2.0", "W", "scaled", []),  # a Python float
    ],
)
def test_a_helper_the_kernel_calls_captures_what_it_reads(w, read, call, expected):
    """JAX traces the helpers a kernel calls: a global array they read is captured by the kernel."""
    assert pal003(HELPER.format(w=w, read=read, call=call)) == expected


@pytest.mark.parametrize(
    ("w", "expected"),
    [("jnp.arange(128.0)", ["type(self).W"]), ("3.0", []), ("unknown", [])],
)
def test_a_method_kernel_reads_its_class_through_type_of_self(w, expected):
    """`type(self).W`: the class attribute of the instance the method is bound to."""
    code = (
        f"class K:\n    W = {w}\n    def kernel(self, x_ref, o_ref):\n        o_ref[...] = x_ref[...] * type(self).W\n"
        "pl.pallas_call(K().kernel, out_shape=S)(x)\n"
    )
    assert pal003(code) == expected


PL_KERNEL = (
    "x = jnp.ones((8, 128), jnp.float32)\n{define}\n"
    "@functools.partial(pl.kernel, out_type=S, mesh=mesh, scratch_types=[pltpu.VMEM((8, 128), jnp.float32)])\n"
    "def scale(x_hbm, o_hbm, tmp):\n    pltpu.sync_copy(x_hbm, tmp)\n    tmp[...] = tmp[...] * {use}\n"
    "    pltpu.sync_copy(tmp, o_hbm)\nscale(x)\n"
)


@pytest.mark.parametrize(
    ("define", "use", "expected"),
    [
        ("MEAN = x.mean(axis=0)", "MEAN", ["MEAN"]),  # a vector: pl.kernel rejects it
        ("TOTAL = x.sum()", "TOTAL", []),  # 0-d: pl.kernel takes it
        ("ROW = jnp.arange(128.0)[None, :]", "ROW", ["ROW"]),
        ("P = {'w': jnp.full((8, 128), 2.0)}", "P['w']", ["P['w']"]),  # a member of known rank
        ("P = {'w': jnp.float32(2.0)}", "P['w']", []),
    ],
)
def test_pl_kernel_rejects_captured_arrays_of_known_non_scalar_rank(define, use, expected):
    assert pal003(PL_KERNEL.format(define=define, use=use)) == expected


@pytest.mark.parametrize(
    ("w", "launched", "expected"),
    [
        ("jnp.linspace(0.0, 1.0, 128) * n", "Scale(2)", ["self.w"]),  # a callable instance is the kernel
        ("jnp.linspace(0.0, 1.0, 128) * n", "Scale(2).__call__", ["self.w"]),
        ("float(n) / 128", "Scale(2)", []),
        ("unknown * n", "Scale(2)", []),
    ],
)
def test_a_callable_instance_kernel_reads_the_instance_it_is(w, launched, expected):
    """`pl.pallas_call(Scale(2), ...)`: JAX calls `__call__` with `self` the instance launched."""
    code = (
        f"class Scale:\n    def __init__(self, n):\n        self.w = {w}\n"
        "    def __call__(self, x_ref, o_ref):\n        o_ref[...] = x_ref[...] * self.w\n"
        f"pl.pallas_call({launched}, out_shape=S)(x)\n"
    )
    assert pal003(code) == expected


@pytest.mark.parametrize(
    ("default", "expected"),
    [
        ("(jnp.ones((8, 128)),)", ["ws[0]"]),  # a tuple default holding a jax array, read by index
        ("(2.0,)", []),  # a Python float
        ("(unknown,)", []),
    ],
)
def test_a_default_holding_arrays_read_by_member_is_captured(default, expected):
    code = (
        f"def k(x_ref, o_ref, ws={default}):\n    o_ref[...] = x_ref[...] * ws[0]\npl.pallas_call(k, out_shape=S)(x)\n"
    )
    assert pal003(code) == expected

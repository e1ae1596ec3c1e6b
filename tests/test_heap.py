"""The abstract heap (`engine/values/heap.py`): stores into objects made anywhere in the program are
fields every read of the object sees.  Which functions reach a kernel position through them."""

from __future__ import annotations

import ast
import textwrap

import pytest

from pallas_ls.engine.analysis import analyze
from pallas_ls.engine.kernels import kernel_name
from pallas_ls.engine.model import ModuleModel
from pallas_ls.engine.source import SourceFile
from pallas_ls.engine.values.store_sites import store_sites

PL = "import jax\nimport jax.experimental.pallas as pl\n"
KERNELS = "def good(x, o):\n    o[...] = x[...]\ndef bad(x, o):\n    return x[...]\n"
LAUNCH = "def run(name, x):\n    return pl.pallas_call(T[name], out_shape=s)(x)\n"


def kernels(code: str) -> set[str]:
    analysis = analyze(SourceFile.from_text(PL + KERNELS + textwrap.dedent(code) + LAUNCH))
    return {kernel_name(site.function) for site in analysis.sites}


CASES = {
    "display": ('T = {"a": good}\n', {"good"}),
    "decorator-with-arguments": (
        "T = {}\ndef register(name):\n    def deco(fn):\n        T[name] = fn\n        return fn\n    return deco\n"
        '@register("b")\ndef bad2(x, o):\n    return x[...]\n',
        {"bad2"},
    ),
    "module-level-loop": ('T = {}\nfor n, k in (("a", good), ("b", bad)):\n    T[n] = k\n', {"good", "bad"}),
    "update-in-a-helper-called-at-import": (
        'T = {"a": good}\ndef extend():\n    T.update({"b": bad})\nextend()\n',
        {"good", "bad"},
    ),
    "setdefault": ('T = dict()\nT.setdefault("b", bad)\n', {"bad"}),
    "class-attribute-dict": (
        'class R:\n    table = {}\nR.table["a"] = good\nT = R.table\n',
        {"good"},
    ),
    "a-store-into-another-dict-is-not-seen": ('T = {"a": good}\nU = {}\nU["b"] = bad\n', {"good"}),
    "a-local-dict-is-not-the-global-one": (
        'T = {"a": good}\ndef other():\n    T = {}\n    T["b"] = bad\n    return T\n',
        {"good"},
    ),
}

ATTRIBUTE_CASES = {
    "setattr-on-a-namespace": (
        "import types\nns = types.SimpleNamespace(a=good)\nfor n, k in (('b', bad),):\n    setattr(ns, n, k)\n",
        "getattr(ns, name)",
        {"good", "bad"},
    ),
    "namespace-keyword": ("import types\nns = types.SimpleNamespace(a=good, b=bad)\n", "ns.a", {"good"}),
    "attribute-store-on-an-instance": (
        "class Box:\n    pass\nbox = Box()\nbox.kernel = bad\n",
        "box.kernel",
        {"bad"},
    ),
    "setattr-on-a-class": (
        "class Ops:\n    pass\nsetattr(Ops, 'run', staticmethod(bad))\n",
        "Ops.run",
        {"bad"},
    ),
    "a-computed-name-never-reads-methods": (
        "class Op:\n    def helper(self, x, o):\n        return x\n    def __init__(self):\n        self.k = good\n"
        "op = Op()\nsetattr(op, 'extra', good)\n",
        "getattr(op, name)",
        {"good"},
    ),
    "fstring-names-a-few-attributes": (
        "class Op:\n    @staticmethod\n    def _a_kernel(x, o):\n        return x\n    @staticmethod\n"
        "    def _b_kernel(x, o):\n        o[...] = x\n    def helper(self, x, o):\n        return x\n"
        "def pick(mode):\n    return getattr(Op, f'_{mode}_kernel')\nK = pick('a')\n",
        "K",
        {"_a_kernel"},
    ),
    "globals-by-fstring": ("def pick(op):\n    return globals()[f'{op}']\nK = pick('bad')\n", "K", {"bad"}),
}


@pytest.mark.parametrize("name", ATTRIBUTE_CASES)
def test_kernels_through_attribute_stores(name):
    setup, read, expected = ATTRIBUTE_CASES[name]
    code = PL + KERNELS + setup + f"def run(name, x):\n    return pl.pallas_call({read}, out_shape=s)(x)\n"
    analysis = analyze(SourceFile.from_text(code))
    assert {kernel_name(site.function) for site in analysis.sites} == expected


@pytest.mark.parametrize("name", CASES)
def test_kernels_through_heap_stores(name):
    code, expected = CASES[name]
    assert kernels(code) == expected


LOOP = 'T = {}\nfor n, k in (("a", good), ("b", bad)):\n'


@pytest.mark.parametrize(
    ("body", "key", "expected"),
    [
        ("    T[n] = k\n", '"a"', {"good"}),  # one store per iteration: each key its own kernel
        ("    T[n] = k\n", '"b"', {"bad"}),
        ("    T[n + '_fwd'] = k\n", '"a_fwd"', {"good"}),
        # under an `if` in the loop, the iterations are not followed one by one: every key may be
        # any kernel the loop stores
        ("    if n:\n        T[n] = k\n", '"a"', {"good", "bad"}),
    ],
)
def test_a_store_in_a_module_level_loop_runs_once_per_element(body, key, expected):
    code = PL + KERNELS + LOOP + body + f"def run(x):\n    return pl.pallas_call(T[{key}], out_shape=s)(x)\n"
    analysis = analyze(SourceFile.from_text(code))
    assert {kernel_name(site.function) for site in analysis.sites} == expected


def test_store_sites_are_found_at_any_depth_with_their_function():
    tree = ast.parse(
        textwrap.dedent(
            """
            T = {}
            T["a"] = 1
            o_ref[...] = 0  # a Ref write, not a field
            setattr(ns, "b", 2)
            def f(k):
                T[k] = 3
                T.update(x=1)
                g = lambda: T.setdefault("c", 4)
            """
        )
    )
    sites = store_sites(ModuleModel(tree))
    found = [(s.kind, ast.unparse(s.receiver), getattr(s.function, "name", s.function and "lambda")) for s in sites]
    assert sorted(found, key=str) == sorted(
        # `T.update(x=1)` stores item "x": a keyword is an item of its own.
        [("item", "T", None), ("attr", "ns", None), ("item", "T", "f"), ("item", "T", "f"), ("item", "T", "lambda")],
        key=str,
    )


# A read made by the module's own import-time code runs before the statements after it: their
# stores are not seen there (a function's read may run at any time: it sees them all).
IMPORT_ORDER_CASES = {
    "dict-item-replaced-after-the-launch": (
        'T = {"a": good}\npl.pallas_call(T["a"], out_shape=s)(x)\nT["a"] = bad\n',
        {"good"},
    ),
    "dict-item-replaced-before-the-launch": (
        'T = {"a": good}\nT["a"] = bad\npl.pallas_call(T["a"], out_shape=s)(x)\n',
        {"bad"},
    ),
    "class-attribute-replaced-after-the-launch": (
        "class C:\n    k = good\npl.pallas_call(C.k, out_shape=s)(x)\nC.k = bad\n",
        {"good"},
    ),
    "instance-attribute-replaced-after-the-launch": (
        "class C:\n    def __init__(self):\n        self.k = good\nc = C()\n"
        "pl.pallas_call(c.k, out_shape=s)(x)\nc.k = bad\n",
        {"good"},
    ),
    "a-keys-view-shows-later-stores": (
        'T = {"a": good}\nks = T.keys()\nT["b"] = bad\npl.pallas_call(T[list(ks)[-1]], out_shape=s)(x)\n',
        {"bad"},
    ),
    "a-store-in-the-loop-holding-the-read": (
        'T = {"a": good}\nfor n in ("a", "b"):\n    pl.pallas_call(T["a"], out_shape=s)(x)\n    T["a"] = bad\n',
        {"good", "bad"},
    ),
    "a-function-called-at-import-stores-at-its-calls": (
        "class C:\n    k = bad\ndef use(k):\n    C.k = k\nuse(bad)\nuse(good)\npl.pallas_call(C.k, out_shape=s)(x)\nuse(bad)\n",
        {"good"},
    ),
    "a-classmethod-called-at-import-stores-at-its-calls": (
        "class C:\n    k = bad\n    @classmethod\n    def use(cls, k):\n        cls.k = k\nC.use(good)\n"
        "pl.pallas_call(C.k, out_shape=s)(x)\nC.use(bad)\n",
        {"good"},
    ),
    "a-classmethod-also-called-on-an-instance": (
        "class C:\n    k = bad\n    @classmethod\n    def use(cls, k):\n        cls.k = k\nC.use(good)\nC().use(good)\n"
        "pl.pallas_call(C.k, out_shape=s)(x)\n",
        {"good", "bad"},
    ),
    "a-function-called-at-import-under-an-if": (
        "import os\nclass C:\n    k = good\ndef use_bad():\n    C.k = bad\nif os.environ.get('X'):\n    use_bad()\n"
        "pl.pallas_call(C.k, out_shape=s)(x)\n",
        {"good", "bad"},
    ),
    "a-function-called-at-import-in-a-loop": (
        "class C:\n    k = bad\ndef use(k):\n    C.k = k\nfor k in (bad, good):\n    use(k)\npl.pallas_call(C.k, out_shape=s)(x)\n",
        {"good", "bad"},
    ),
    "a-function-called-at-import-and-passed-on": (
        "class C:\n    k = bad\ndef use(k):\n    C.k = k\nuse(good)\nhooks = [use]\npl.pallas_call(C.k, out_shape=s)(x)\n",
        {"good", "bad"},
    ),
    "a-function-storing-after-an-early-return": (
        "class C:\n    k = bad\ndef use(k):\n    if k is None:\n        return\n    C.k = k\nuse(good)\n"
        "pl.pallas_call(C.k, out_shape=s)(x)\n",
        {"good", "bad"},
    ),
    "a-read-in-a-function-sees-later-stores": (
        'T = {"a": good}\ndef go():\n    return pl.pallas_call(T["a"], out_shape=s)(x)\nT["a"] = bad\ngo()\n',
        {"bad"},
    ),
}


@pytest.mark.parametrize("name", IMPORT_ORDER_CASES)
def test_a_read_at_import_sees_the_stores_made_before_it(name: str) -> None:
    code, expected = IMPORT_ORDER_CASES[name]
    analysis = analyze(SourceFile.from_text(PL + KERNELS + "x = s = None\n" + code))
    assert {kernel_name(site.function) for site in analysis.sites} == expected

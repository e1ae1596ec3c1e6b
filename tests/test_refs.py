"""PAL002: when two arguments are provably the same Ref (issue 2 §5)."""

from __future__ import annotations

import pytest

from pallas_ls.lint import analyze_source

HEADER = """\
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax._src.pallas.mpmd import mpmd_map

@pl.kernel(mesh=mesh)
def add(a_ref, b_ref):
    pass

"""


def duplicates(code: str) -> list[str]:
    return [f.message for f in analyze_source(HEADER + code, "t.py") if f.code == "PAL002"]


REPORTED = {
    "default-factory-of-one-instance": "import dataclasses\n@dataclasses.dataclass\nclass B:\n    r: object = dataclasses.field(default_factory=lambda: jax.new_ref(x))\nb = B()\nadd(b.r, b.r)",
    "ref-of-a-passed-dict-returned": "def pick(d, k):\n    return d[k]\nr = jax.new_ref(x)\nrefs = {'a': r, 'b': r}\nadd(pick(refs, 'a'), pick(refs, 'b'))",
    "default-made-once": "def get(buf=jax.new_ref(x)):\n    return buf\nadd(get(), get())",
    "global-handed-back-by-a-getter": "BUF = jax.new_ref(x)\ndef get():\n    return BUF\nadd(get(), get())",
    "generator-unpacked": "def pair():\n    r = jax.new_ref(x)\n    yield r\n    yield r\na, b = pair()\nadd(a, b)",
    "top-level": "r = jax.new_ref(x)\nadd(r, r)",
    "jax.ref.new_ref": "r = jax.ref.new_ref(x)\nadd(r, r)",
    "empty_ref": "r = jax.empty_ref(t)\nadd(r, r)",
    "empty_ref_like": "r = pl.empty_ref_like(x)\nadd(r, r)",
    "alias": "r = jax.new_ref(x)\nv = r\nadd(r, v)",
    "alias-of-alias": "r = jax.new_ref(x)\nv = r\nw = v\nadd(w, r)",
    "tuple": "r = jax.new_ref(x)\nadd((r,), r)",
    "dict": "r = jax.new_ref(x)\nadd({'a': r}, [r])",
    "at-view": "r = jax.new_ref(x)\nadd(r.at[0], r)",
    "stored-callable": "f = pl.kernel(body, mesh=m)\nr = jax.new_ref(x)\nf(r, r)",
    "called-at-once": "r = jax.new_ref(x)\npl.kernel(body, mesh=m)(r, r)",
    "mpmd-map": "r = jax.new_ref(x)\nmpmd_map([(m, body)])(r, r)",
    "pallas-call": "def k(a, b, o): pass\nr = jax.new_ref(x)\npl.pallas_call(k, out_shape=s)(r, r)",
    "inside-a-function": "def f(x):\n    r = jax.new_ref(x)\n    return add(r, r)",
    "mapped-new-ref-one-element": "refs = list(map(jax.new_ref, [x]))\nadd(refs[0], refs[-1])",
    "tree-mapped-new-ref-one-leaf": "x = jnp.ones(3)\nrefs = jax.tree.map(jax.new_ref, {'a': x})\nadd(refs['a'], refs['a'])",
    "list-index-of-a-ref": "a = jax.new_ref(x)\nb = jax.new_ref(x)\nrefs = [b, a]\nadd(a, refs[refs.index(a)])",
    "deque-appendleft": "import collections\na = jax.new_ref(x)\nd = collections.deque([jax.new_ref(x)])\nd.appendleft(a)\nadd(a, d[0])",
    # In every iteration of a loop over a known sequence, the same Ref twice.
    "each-iteration": "bufs = [jax.new_ref(x), jax.new_ref(x)]\nfor i in range(2):\n    add(bufs[i], bufs[(i + 2) % 2])",
    "one-iteration": "bufs = [jax.new_ref(x), jax.new_ref(x)]\nfor i in range(2):\n    add(bufs[i], bufs[0])",
    # A memoised factory hands back the same object for the same arguments.
    "memoised-factory": (
        "import functools\n@functools.cache\ndef buf():\n    return jax.new_ref(x)\nadd(buf(), buf())"
    ),
    "lru-cached-factory-same-constant": (
        "import functools\n@functools.lru_cache(maxsize=None)\ndef buf(n):\n    return jax.new_ref(x)\n"
        "add(buf(1), buf(1))"
    ),
    "memoised-method-of-one-instance": (
        "import functools\nclass Pool:\n    @functools.cache\n    def get(self, n):\n        return jax.new_ref(x)\n"
        "pool = Pool()\nadd(pool.get('a'), pool.get('a'))"
    ),
    "kernel-ref-parameter": ("@pl.kernel(mesh=m)\ndef outer(a_ref, b_ref):\n    add(a_ref, a_ref)"),
    "namespace-filled-in-a-loop": (
        "import types\nns = types.SimpleNamespace()\nfor n in ('a', 'b'):\n    setattr(ns, n, jax.new_ref(x))\n"
        "add(ns.a, ns.a)"
    ),
    "made-in-a-loop-read-twice": "for i in range(2):\n    r = jax.new_ref(x)\n    add(r, r)",
    "pool-filled-by-a-helper": "POOL = {}\ndef allocate(name):\n    POOL[name] = jax.new_ref(x)\nallocate('a')\nadd(POOL['a'], POOL['a'])",
    "getter-of-a-ref-made-in-init": (
        "class P:\n    def __init__(self):\n        self._r = jax.new_ref(x)\n    def get(self):\n        return self._r\n"
        "p = P()\nadd(p.get(), p.get())"
    ),
    "chained-assignment": "a = b = jax.new_ref(x)\nadd(a, b)",
    "itertools-repeat-splat": "import itertools\nr = jax.new_ref(x)\nadd(*itertools.repeat(r, 2))",
    # Checked in the arguments of a call seen of the function holding the launch.
    "defaulted-to-the-first-in-a-launcher": (
        "def launch(src, dst=None):\n    dst = src if dst is None else dst\n    add(src, dst)\nlaunch(jax.new_ref(x))"
    ),
    "namedtuple-star-unpacked": (
        "import typing\nclass B(typing.NamedTuple):\n    a: object\n    b: object\nr = jax.new_ref(x)\nadd(*B(a=r, b=r))"
    ),
    # functools.partial binds the first ref; the call passes it again.
    "bound-by-a-partial": "import functools\nr = jax.new_ref(x)\nfunctools.partial(add, r)(r)",
    "bound-in-a-helper": (
        "import functools\ndef bind(ref):\n    return functools.partial(add, ref)\nr = jax.new_ref(x)\nbind(r)(r)"
    ),
    "a-generator-yielding-one-ref-twice": "def g():\n    r = jax.new_ref(x)\n    yield r\n    yield r\nadd(*g())",
    "a-generator-yielding-from-a-pair": "def g():\n    r = jax.new_ref(x)\n    yield from (r, r)\nadd(*g())",
    "tree-leaves-of-a-nested-tree": "r = jax.new_ref(x)\nadd(*jax.tree.leaves((r, [r])))",
    "tree-leaves-of-a-dict": "r = jax.new_ref(x)\nadd(*jax.tree.leaves({'b': r, 'a': [r]}))",
    "inserted-at-the-front": "r = jax.new_ref(x)\nbufs = [jax.new_ref(y)]\nbufs.insert(0, r)\nadd(bufs[0], r)",
    # `__post_init__` stores after the constructor: a test it decides on the fields decides them.
    "post-init-defaults-dst-to-src": (
        "import dataclasses\n@dataclasses.dataclass\nclass B:\n    src: object\n    dst: object = None\n"
        "    def __post_init__(self):\n        if self.dst is None:\n            self.dst = self.src\n"
        "b = B(jax.new_ref(x))\nadd(b.src, b.dst)"
    ),
    "defaultdict-factory-returning-one-ref": (
        "import collections\nshared = jax.new_ref(x)\nd = collections.defaultdict(lambda: shared)\nadd(d['a'], d['b'])"
    ),
    # A walrus in an earlier argument binds the name for the later ones.
    "walrus-in-an-earlier-argument": "add((r := jax.new_ref(x)), r)",
    "walrus-rebinding-an-older-name": "r = jax.new_ref(y)\nadd((r := jax.new_ref(x)), [r])",
    "cached-property-read-twice": (
        "import functools\nclass B:\n    @functools.cached_property\n    def r(self):\n        return jax.new_ref(x)\n"
        "b = B()\nadd(b.r, b.r)"
    ),
}
SILENT = {
    # A dataclass field's default_factory runs at each construction: two instances, two Refs.
    "default-factory-per-instance": "import dataclasses\n@dataclasses.dataclass\nclass B:\n    r: object = dataclasses.field(default_factory=lambda: jax.new_ref(x))\nadd(B().r, B().r)",
    "refs-of-a-passed-dict-returned": "def pick(d, k):\n    return d[k]\nrefs = {'a': jax.new_ref(x), 'b': jax.new_ref(x)}\nadd(pick(refs, 'a'), pick(refs, 'b'))",
    "default-replaced-by-an-argument": "def get(buf=jax.new_ref(x)):\n    return buf\nadd(get(jax.new_ref(x)), get())",
    "generator-of-two-new-refs-unpacked": "def pair():\n    yield jax.new_ref(x)\n    yield jax.new_ref(x)\na, b = pair()\nadd(a, b)",
    "same-array": "add(x, x)",
    "mapped-new-ref-two-elements": "refs = list(map(jax.new_ref, [x, y]))\nadd(refs[0], refs[-1])",
    "tree-mapped-new-ref-two-leaves": "x = y = jnp.ones(3)\nrefs = jax.tree.map(jax.new_ref, {'a': x, 'b': y})\nadd(refs['a'], refs['b'])",
    "list-index-of-the-other-ref": "a = jax.new_ref(x)\nb = jax.new_ref(x)\nrefs = [a, b]\nadd(a, refs[refs.index(b)])",
    "two-refs-from-one-array": "add(jax.new_ref(x), jax.new_ref(x))",
    "defaulted-but-passed-in-a-launcher": (
        "def launch(src, dst=None):\n    dst = src if dst is None else dst\n    add(src, dst)\n"
        "launch(jax.new_ref(x), jax.new_ref(x))"
    ),
    "namedtuple-two-refs": (
        "import typing\nclass B(typing.NamedTuple):\n    a: object\n    b: object\n"
        "add(*B(a=jax.new_ref(x), b=jax.new_ref(x)))"
    ),
    "bound-by-a-partial-another-passed": "import functools\nr, s = jax.new_ref(x), jax.new_ref(x)\nfunctools.partial(add, r)(s)",
    "two-refs-from-a-maker-method": (
        "class P:\n    def make(self):\n        return jax.new_ref(x)\np = P()\nadd(p.make(), p.make())"
    ),
    "a-getter-that-makes-a-new-ref": (
        "class P:\n    def get(self):\n        self._r = jax.new_ref(x)\n        return self._r\n"
        "p = P()\nadd(p.get(), p.get())"
    ),
    "two-refs-from-a-generator": "a, b = (jax.new_ref(x) for _ in range(2))\nadd(a, b)",
    "distinct-refs": "r = jax.new_ref(x)\ns = jax.new_ref(x)\nadd(r, s)",
    "reassigned": "r = jax.new_ref(x)\nv = r\nr = jax.new_ref(x)\nadd(v, r)",
    "separate-calls": "r = jax.new_ref(x)\nadd(r, x)\nadd(x, r)",
    "conditional-binding": "r = jax.new_ref(x)\nif c:\n    r = jax.new_ref(y)\nadd(r, s)",
    "not-a-kernel-call": "def g(a, b): pass\nr = jax.new_ref(x)\ng(r, r)",
    # One constructor call in a comprehension or a loop makes several Refs.
    "two-from-a-comprehension": "a, b = [jax.new_ref(v) for v in xs]\nadd(a, b)",
    "two-elements-of-a-comprehension": "rs = [jax.new_ref(v) for v in xs]\nadd(rs[0], rs[1])",
    "appended-in-a-loop": "rs = []\nfor v in xs:\n    rs.append(jax.new_ref(v))\nadd(rs[0], rs[1])",
    "namespace-two-fields": (
        "import types\nns = types.SimpleNamespace()\nfor n in ('a', 'b'):\n    setattr(ns, n, jax.new_ref(x))\n"
        "add(ns.a, ns.b)"
    ),
    # A Ref made in a method or a helper is a new one for each instance or call.
    "two-instances": (
        "class P:\n    def __init__(self):\n        self.a = jax.new_ref(x)\np, q = P(), P()\nadd(p.a, q.a)"
    ),
    "cached-property-of-two-instances": (
        "import functools\nclass B:\n    @functools.cached_property\n    def r(self):\n        return jax.new_ref(x)\n"
        "add(B().r, B().r)"
    ),
    "pool-filled-per-name": (
        "POOL = {}\ndef alloc(n):\n    POOL[n] = jax.new_ref(x)\nalloc('x')\nalloc('y')\nadd(POOL['x'], POOL['y'])"
    ),
    "loop-read-between-calls": "for i in range(2):\n    r = jax.new_ref(x)\n    add(r, f(r))",
    "unknown-values": "add(a, a)",
    "no-iteration": "bufs = [jax.new_ref(x), jax.new_ref(x)]\nfor i in range(2):\n    add(bufs[i], bufs[(i + 1) % 2])",
    "memoised-factory-other-arguments": (
        "import functools\n@functools.cache\ndef buf(n):\n    return jax.new_ref(x)\nadd(buf(1), buf(2))"
    ),
    "memoised-factory-unknown-arguments": (
        "import functools\n@functools.cache\ndef buf(n):\n    return jax.new_ref(x)\nadd(buf(a), buf(a))"
    ),
    "memoised-method-of-two-instances": (
        "import functools\nclass Pool:\n    @functools.cache\n    def get(self, n):\n        return jax.new_ref(x)\n"
        "add(Pool().get('a'), Pool().get('a'))"
    ),
    "memoised-method-of-instances-made-in-a-loop": (
        "import functools\nclass Pool:\n    @functools.cache\n    def get(self, n):\n        return jax.new_ref(x)\n"
        "ps = [Pool() for _ in range(2)]\nadd(ps[0].get('a'), ps[1].get('a'))"
    ),
    "unmemoised-factory": "def buf():\n    return jax.new_ref(x)\nadd(buf(), buf())",
    "frozen": "r = jax.new_ref(x)\nadd(jax.freeze(r), jax.freeze(r))",
    # Each call of a generator function starts a run of its own: its Refs are new ones.
    "two-generators-each-making-a-ref": "def g():\n    yield jax.new_ref(x)\nadd(next(g()), next(g()))",
    "a-generator-yielding-two-refs": "def g():\n    yield jax.new_ref(x)\n    yield jax.new_ref(x)\nadd(*g())",
    "a-generator-yielding-from-two-refs": "def g():\n    yield from (jax.new_ref(x), jax.new_ref(x))\nadd(*g())",
    "tree-leaves-of-two-refs": "add(*jax.tree.leaves((jax.new_ref(x), [jax.new_ref(x)])))",
    "tree-leaves-of-an-instance": "r = jax.new_ref(x)\nadd(*jax.tree.leaves(Pair(r, r)))",
    "inserted-second": "r = jax.new_ref(x)\nbufs = [jax.new_ref(y)]\nbufs.insert(1, r)\nadd(bufs[0], r)",
    "post-init-dst-given": (
        "import dataclasses\n@dataclasses.dataclass\nclass B:\n    src: object\n    dst: object = None\n"
        "    def __post_init__(self):\n        if self.dst is None:\n            self.dst = self.src\n"
        "b = B(jax.new_ref(x), jax.new_ref(x))\nadd(b.src, b.dst)"
    ),
    "post-init-undecided-test": (
        "import dataclasses\n@dataclasses.dataclass\nclass B:\n    src: object\n    dst: object = None\n"
        "    def __post_init__(self):\n        if flag:\n            self.dst = self.src\n"
        "b = B(jax.new_ref(x), jax.new_ref(x))\nadd(b.src, b.dst)"
    ),
    # A defaultdict's factory runs for each missing key: a Ref it makes is a new one each time.
    "defaultdict-factory-making-refs": (
        "import collections\nd = collections.defaultdict(lambda: jax.new_ref(x))\nadd(d['a'], d['b'])"
    ),
    "walrus-after-the-read": "r = jax.new_ref(y)\nadd(r, (r := jax.new_ref(x)))",
    # A walrus in a branch that may not run: `r` may still be the older Ref.
    "walrus-in-a-conditional-branch": "r = jax.new_ref(y)\nadd(jax.new_ref(x) if c else (r := jax.new_ref(x)), r)",
    "walrus-in-a-later-operand": "r = jax.new_ref(y)\nadd(c and (r := jax.new_ref(x)), r)",
    "walrus-in-a-default": "def f(a=(b := jax.new_ref(x))):\n    add(a, jax.new_ref(x))",
    "partial-bound-parameter-is-not-a-ref": (
        "import functools\ndef k(n, a_ref):\n    add(n, n)\npl.kernel(functools.partial(k, 3), mesh=m)"
    ),
}


@pytest.mark.parametrize("code", REPORTED.values(), ids=list(REPORTED))
def test_same_ref_twice_is_reported(code):
    assert len(duplicates(code)) == 1


@pytest.mark.parametrize("code", SILENT.values(), ids=list(SILENT))
def test_not_provably_the_same_ref_is_silent(code):
    assert duplicates(code) == []


def test_range_is_the_repeated_argument_and_related_is_the_first():
    code = "r = jax.new_ref(x)\nv = r\nadd(r, v)\n"
    [finding] = [f for f in analyze_source(HEADER + code, "t.py") if f.code == "PAL002"]
    line = HEADER.count("\n") + 2
    assert (finding.range.start.line, finding.range.start.column, finding.range.end.column) == (line, 7, 8)
    assert finding.related[0].range.start.column == 4
    assert "`v` is the same Ref as `r`" in finding.message
    assert "Cannot pass the same ref into a mpmd map multiple times" in finding.message


def test_pallas_call_message_names_jit():
    [message] = duplicates("def k(a, b, o): pass\nr = jax.new_ref(x)\npl.pallas_call(k, out_shape=s)(r, r)")
    assert "only one reference to a mutable array" in message


def test_tuple_unpacking_alias_and_starred_list():
    assert len(duplicates("r = jax.new_ref(x)\na, b = r, r\nadd(a, b)")) == 1
    assert len(duplicates("r = jax.new_ref(x)\nadd(*[r, r])")) == 1
    assert duplicates("r = jax.new_ref(x)\na, b = pair\nadd(a, b)") == []


def test_keyword_arguments_are_not_counted():
    # JAX rejects the keyword itself first ("unexpected keyword argument"): a different error.
    assert duplicates("r = jax.new_ref(x)\nadd(r, b_ref=r)") == []


def test_a_duplicate_in_one_iteration_has_no_fix():
    """Merging the arguments is right only where they are one Ref as written: not where one
    iteration of a loop makes them so."""
    code = "bufs = [jax.new_ref(x), jax.new_ref(x)]\nfor i in range(2):\n    add(bufs[i], bufs[0])"
    findings = [f for f in analyze_source(HEADER + code, "t.py") if f.code == "PAL002"]
    assert len(findings) == 1 and not [f for f in findings[0].fixes if not f.suppression]

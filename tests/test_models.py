"""The standard-library models (`pallas_ls/engine/values/models/`) and the Python operations the
interpreter evaluates through them: which functions reach a kernel position."""

from __future__ import annotations

import ast
import pathlib
import textwrap

import pytest

from pallas_ls.engine.analysis import analyze
from pallas_ls.engine.kernels import kernel_name
from pallas_ls.engine.source import SourceFile
from pallas_ls.engine.values import models
from pallas_ls.lint import analyze_source

ROOT = pathlib.Path(__file__).resolve().parent.parent
PL = "import collections, contextlib, dataclasses, functools, heapq, itertools, operator, types, typing\nimport jax\nimport jax.experimental.pallas as pl\n"
KERNELS = "def good(x, o):\n    o[...] = x[...]\ndef bad(x, o):\n    return x[...]\n"


def kernels(code: str) -> set[str]:
    analysis = analyze(SourceFile.from_text(PL + KERNELS + textwrap.dedent(code)))
    return {kernel_name(site.function) for site in analysis.sites}


def launch(expr: str) -> str:
    return f"pl.pallas_call({expr}, out_shape=s)(x)\n"


CASES = {
    # A loop whose body returns (or breaks) straight away reads its first element only.
    "loop-returning-in-its-first-iteration": (
        "CANDIDATES = [good, bad]\ndef tune():\n    for k in CANDIDATES:\n        return k\n" + launch("tune()"),
        {"good"},
    ),
    "loop-returning-only-under-an-if": (
        "CANDIDATES = [good, bad]\ndef tune():\n    for k in CANDIDATES:\n        if c:\n            return k\n"
        + launch("tune()"),
        {"good", "bad"},
    ),
    # A starred target binds a list of what the other targets leave.
    "starred-rest": ("FNS = [good, bad, good]\nfirst, *rest = FNS\n" + launch("rest[0]"), {"bad"}),
    "starred-middle": ("FNS = [good, bad, good]\na, *mid, b = FNS\n" + launch("mid[-1]"), {"bad"}),
    "starred-init": ("FNS = [bad, good]\n*init, last = FNS\n" + launch("last"), {"good"}),
    "starred-in-a-loop-target": ("for h, *t in [[good, good, bad]]:\n    " + launch("t[-1]"), {"bad"}),
    # A default is the object the def evaluated: a list named there grows with later appends.
    "default-list-grown-after-the-def": (
        "C = [good]\ndef pick(chosen=C):\n    return chosen[-1]\nC.append(bad)\n" + launch("pick()"),
        {"bad"},
    ),
    "default-list-grown-at-its-front": (
        "C = [good]\ndef pick(chosen=C):\n    return chosen[-1]\nC.insert(0, bad)\n" + launch("pick()"),
        {"good"},
    ),
    "default-list-name-rebound-after-the-def": (
        "C = [good]\ndef pick(chosen=C):\n    return chosen[-1]\nC = [bad]\n" + launch("pick()"),
        {"good"},
    ),
    "default-dict-stored-into-after-the-def": (
        "C = {'k': good}\ndef pick(*, d=C):\n    return d['k']\nC['k'] = bad\n" + launch("pick()"),
        {"bad"},
    ),
    # A store in a function is evaluated in the calls that get to it: the metaclass's `if` skips
    # the base class, which has no key (its store would go to a field every read sees).
    "store-under-an-if-decided-per-call": (
        "REG = {}\nclass Meta(type):\n    def __init__(cls, name, bases, ns):\n        super().__init__(name, bases, ns)\n"
        "        if 'key' in ns:\n            REG[ns['key']] = ns['kernel']\nclass Base(metaclass=Meta):\n    pass\n"
        "class A(Base):\n    key = 'a'\n    kernel = staticmethod(good)\nclass B(Base):\n    key = 'b'\n"
        "    kernel = staticmethod(bad)\n" + launch("REG['a']"),
        {"good"},
    ),
    # dict(pairs) keeps keys that are defs (an inverted table: kernel -> name).
    "dict-of-pairs-keyed-by-functions": (
        "KS = {'g': good, 'b': bad}\ninv = dict(zip(KS.values(), KS.keys()))\n"
        + launch("next(f for f, n in inv.items() if n == 'b')"),
        {"bad"},
    ),
    # A module-level list read in a function called at import is read at that call.
    "list-read-by-a-function-called-before-an-append": (
        "C = [good]\ndef pick():\n    return C[-1]\n" + launch("pick()") + "C.append(bad)\n",
        {"good"},
    ),
    "list-read-by-a-function-called-before-and-after-an-append": (
        "C = [good]\ndef pick():\n    return C[-1]\n" + launch("pick()") + "C.append(bad)\n" + launch("pick()"),
        {"good", "bad"},
    ),
    # `del L[i]` and `L[i:j] = seq` in the list's straight-line code; mixed with other changes
    # (applied kind by kind, not in order) its elements are no longer known.
    "del-list-item-shifts-the-rest": ("L = [bad, good]\ndel L[0]\n" + launch("L[0]"), {"good"}),
    "slice-assignment-replaces-the-head": ("L = [good, good]\nL[:1] = [bad]\n" + launch("L[0]"), {"bad"}),
    "del-list-tail": ("L = [good, bad, good]\ndel L[1:]\n" + launch("L[-1]"), {"good"}),
    "del-list-item-after-an-append": ("L = [good, bad]\nL.append(good)\ndel L[0]\n" + launch("L[0]"), {"good", "bad"}),
    # Unpacking stores (`L[0], L[1] = L[1], L[0]`) are stores of each element, values first.
    "unpacked-item-stores-swap": ("L = [good, bad]\nL[0], L[1] = L[1], L[0]\n" + launch("L[0]"), {"bad"}),
    "unpacked-item-stores-into-a-dict": (
        "D = {'a': good, 'b': good}\nD['a'], D['b'] = good, bad\n" + launch("D['b']"),
        {"bad"},
    ),
    "dict-popitem-takes-the-last": ("D = {'a': good, 'b': bad}\n" + launch("D.popitem()[1]"), {"bad"}),
    "dict-after-popitem": ("D = {'a': good, 'b': bad}\nD.popitem()\n" + launch("list(D.values())[-1]"), {"good"}),
    # A function import-time code calls may store into a class (a classmethod setting its
    # default): a classmethod only the module's call statements name stores there, replacing the
    # class body's value; called otherwise too, what it stores joins it; `with` at import enters
    # its manager.
    "class-attribute-stored-by-a-classmethod-at-import": (
        "class Op:\n    k = good\n    @classmethod\n    def use(cls, fn):\n        cls.k = fn\nOp.use(bad)\n"
        + launch("Op.k"),
        {"bad"},
    ),
    "class-attribute-stored-by-a-classmethod-at-import-and-passed-on": (
        "class Op:\n    k = good\n    @classmethod\n    def use(cls, fn):\n        cls.k = fn\nOp.use(bad)\n"
        "HOOKS = [Op.use]\n" + launch("Op.k"),
        {"good", "bad"},
    ),
    "class-attribute-set-by-a-contextmanager-entered-at-import": (
        "KS = {'g': good, 'b': bad}\nclass Config:\n    kernel = good\n@contextlib.contextmanager\n"
        "def using(name):\n    Config.kernel = KS[name]\n    yield\nwith using('g'):\n    " + launch("Config.kernel"),
        {"good"},
    ),
    "setattr-after-construction-replaces": (
        "class Op:\n    def __init__(self):\n        self.k = bad\nop = Op()\nsetattr(op, 'k', good)\n"
        + launch("op.k"),
        {"good"},
    ),
    "unpacked-attribute-stores": (
        "class Op:\n    pass\nop = Op()\nop.a, op.b = good, bad\n" + launch("op.b"),
        {"bad"},
    ),
    # Stores through an object's namespace are attribute stores; a deleted class attribute
    # joins the next class's along the MRO.
    "instance-dict-item-store": ("class Op:\n    pass\nop = Op()\nop.__dict__['k'] = bad\n" + launch("op.k"), {"bad"}),
    "vars-update-store": ("class Op:\n    pass\nop = Op()\nvars(op).update(k=bad)\n" + launch("op.k"), {"bad"}),
    "deleted-override-falls-back-to-the-base": (
        "class Base:\n    k = staticmethod(bad)\nclass Sub(Base):\n    k = staticmethod(good)\ndel Sub.k\n"
        + launch("Sub.k"),
        {"bad"},
    ),
    # next() on a generator expression over a known sequence takes its elements in order.
    "next-of-a-generator-expression-twice": (
        "FNS = [good, bad, good]\ng = (f for f in FNS)\nnext(g)\n" + launch("next(g)"),
        {"bad"},
    ),
    "next-of-reversed": ("T = {'a': bad, 'b': good}\n" + launch("next(reversed(T.values()))"), {"good"}),
    # `x += v` straight in a loop over a known sequence, read after it: accumulated per iteration.
    "key-accumulated-in-a-loop": (
        "KS = {'good': good, 'bad': bad}\nname = ''\nfor c in 'good':\n    name += c\n" + launch("KS[name]"),
        {"good"},
    ),
    "count-accumulated-in-a-loop": (
        "FNS = [bad, bad, good]\nn = 0\nfor s in ('a', 'b'):\n    n += 1\n" + launch("FNS[n]"),
        {"good"},
    ),
    "count-accumulated-under-an-if": (
        "FNS = [bad, good, bad]\nn = 0\nfor s in ('a', 'b'):\n    if c:\n        n += 1\n" + launch("FNS[n]"),
        {"good", "bad"},
    ),
    # Tuples of constants compare as Python compares them (`VERSION >= (3, 0)`).
    "tuple-comparison": ("VERSION = (2, 1)\n" + launch("bad if VERSION >= (3, 0) else good"), {"good"}),
    # A module-level loop's calls run once per element: each registration with its own pair.
    "registration-in-a-module-loop": (
        "REG = {}\ndef register(name):\n    def deco(fn):\n        REG[name] = fn\n        return fn\n    return deco\n"
        "for n, f in (('good', good), ('bad', bad)):\n    register(n)(f)\n" + launch("REG['good']"),
        {"good"},
    ),
    # A metaclass's `__call__` decides what calling the class gives.
    "metaclass-call": (
        "class Meta(type):\n    def __call__(cls):\n        return cls.k\nclass Op(metaclass=Meta):\n"
        "    k = staticmethod(good)\n" + launch("Op()"),
        {"good"},
    ),
    # `__new__` may return an instance of another class.
    "new-returns-another-class": (
        "class Fast:\n    k = staticmethod(bad)\nclass Op:\n    k = staticmethod(good)\n"
        "    def __new__(cls, fast):\n        if fast:\n            return Fast()\n        return super().__new__(cls)\n"
        + launch("Op(False).k"),
        {"good"},
    ),
    "new-returns-another-class-when-asked": (
        "class Fast:\n    k = staticmethod(good)\nclass Op:\n    k = staticmethod(bad)\n"
        "    def __new__(cls, fast):\n        if fast:\n            return Fast()\n        return super().__new__(cls)\n"
        + launch("Op(True).k"),
        {"good"},
    ),
    # Members of one enum with different constant values are different objects.
    "enum-member-identity": (
        "import enum\nclass M(enum.Enum):\n    A = 1\n    B = 2\n    def k(self):\n"
        "        return bad if self is M.A else good\n" + launch("M.B.k()"),
        {"good"},
    ),
    "vars-of-self-item-store": (
        "class Op:\n    def __init__(self, k):\n        vars(self)['k'] = k\n" + launch("Op(good).k"),
        {"good"},
    ),
    # `i += 1` folds constants; a `while` body whose test fails on entry never runs.
    "while-counter-runs-once": (
        "FNS = [bad, good]\ni = 0\nwhile i < 1:\n    i += 1\n" + launch("FNS[i]"),
        {"good"},  # run as Python runs it (engine/values/simple_loops.py): one round leaves i at 1
    ),
    "while-body-never-runs": ("FNS = [good, bad]\ni = 0\nwhile i < 0:\n    i += 1\n" + launch("FNS[i]"), {"good"}),
    "augmented-assignment-folds": ("FNS = [bad, good]\ni = 0\ni += 1\n" + launch("FNS[i]"), {"good"}),
    # An enum class subscripted by a member's name is that member.
    "enum-member-by-name": (
        "import enum\nclass Mode(enum.Enum):\n    A = 'good'\n    B = 'bad'\nKS = {'good': good, 'bad': bad}\n"
        + launch("KS[Mode['a'.upper()].value]"),
        {"good"},
    ),
    "dataclass-fields-in-order": (
        "@dataclasses.dataclass\nclass C:\n    a: object = good\n    b: object = bad\nc = C()\n"
        + launch("[getattr(c, f.name) for f in dataclasses.fields(c)][0]"),
        {"good"},
    ),
    "sum-of-lists": (launch("sum([[bad], [good]], [])[1]"), {"good"}),
    # An array's size, itemsize and dtype name are constants when its shape and dtype are known.
    "array-itemsize-and-size": (
        "import jax.numpy as jnp\nimport math\nx = jnp.ones((8, 128), jnp.float32)\n"
        + launch("good if x.dtype.itemsize == 4 and x.size == math.prod(x.shape) == 1024 else bad"),
        {"good"},
    ),
    "str-of-a-dtype": (
        "import jax.numpy as jnp\nx = jnp.ones((8, 128), jnp.bfloat16)\n"
        + launch("{'float32': bad, 'bfloat16': good}[str(x.dtype)]"),
        {"good"},
    ),
    "bisect-a-constant-list": ("import bisect\n" + launch("[bad, good][bisect.bisect([512], 1024)]"), {"good"}),
    "bisect-an-unsorted-list": ("import bisect\n" + launch("[bad, good][bisect.bisect([9, 1], 5)]"), {"good", "bad"}),
    # `xs.index(v)` decided by identity for functions, by value for constants.
    "index-of-a-function": ("FNS = (bad, good)\n" + launch("FNS[FNS.index(good)]"), {"good"}),
    # `setattr(self, "k", v)` / `object.__setattr__` in a method set the instance's field.
    "object-setattr-in-post-init": (
        "KS = {'good': good, 'bad': bad}\n@dataclasses.dataclass(frozen=True)\nclass Op:\n    name: str\n"
        "    kernel: typing.Any = None\n    def __post_init__(self):\n"
        "        object.__setattr__(self, 'kernel', KS[self.name])\n" + launch("Op('good').kernel"),
        {"good"},
    ),
    "setattr-self-in-init": (
        "KS = {'good': good, 'bad': bad}\nclass Op:\n    def __init__(self, name):\n"
        "        setattr(self, 'kernel', KS[name])\n" + launch("Op('good').kernel"),
        {"good"},
    ),
    # A deque (without maxlen) is a list made at its call; `appendleft` / `popleft` work its left end.
    "deque-appendleft": ("d = collections.deque([bad])\nd.appendleft(good)\n" + launch("d[0]"), {"good"}),
    "deque-popleft": ("d = collections.deque([bad, good])\nd.popleft()\n" + launch("d[0]"), {"good"}),
    "deque-made-and-grown-in-a-function": (
        "def f():\n    d = collections.deque([bad])\n    d.appendleft(good)\n    return d[0]\n" + launch("f()"),
        {"good"},
    ),
    "deque-appended-in-a-function": (
        "d = collections.deque([good])\ndef f():\n    d.appendleft(bad)\nf()\n" + launch("d[0]"),
        {"good", "bad"},
    ),
    # A dict subclass's `__missing__` gives the value of a key it does not hold.
    "dict-subclass-missing": (
        "class T(dict):\n    def __missing__(self, key):\n        return bad\n" + launch("T(a=good)['b']"),
        {"bad"},
    ),
    # `configure("good")` at module level stores `global K` in its call's context, not its generic one.
    "global-stored-by-a-module-level-call": (
        "K = bad\nKS = {'good': good, 'bad': bad}\ndef configure(n):\n    global K\n    K = KS[n]\n"
        "configure('good')\n" + launch("K"),
        {"good"},
    ),
    "global-stored-by-a-conditional-call-after": (
        "KS = {'good': good, 'bad': bad}\ndef configure(n):\n    global K\n    K = KS[n]\n"
        "configure('good')\nif c:\n    configure('bad')\n" + launch("K"),
        {"good", "bad"},
    ),
    # `typing.TYPE_CHECKING` is False and `__debug__` True when a program runs; a loop's target
    # read after a loop without break is its last element.
    "type-checking-branch": ("if typing.TYPE_CHECKING:\n    k = bad\nelse:\n    k = good\n" + launch("k"), {"good"}),
    "dunder-debug": ("k = bad\nif __debug__:\n    k = good\n" + launch("k"), {"good"}),
    "loop-target-after-the-loop": ("for k in (bad, good):\n    pass\n" + launch("k"), {"good"}),
    "loop-target-after-a-loop-with-break": (
        "for k in (bad, good):\n    if c:\n        break\n" + launch("k"),
        {"good", "bad"},
    ),
    # An IntEnum member indexes a sequence as its int value.
    "int-enum-index": (
        "import enum\nclass Mode(enum.IntEnum):\n    GOOD = 0\n    BAD = 1\nKS = [good, bad]\n"
        + launch("KS[Mode.GOOD]"),
        {"good"},
    ),
    # `t["k"] = good` after `t = {"k": bad}` in the same straight-line code replaces the display's.
    "item-assigned-after-the-display": ("t = {'k': bad}\nt['k'] = good\n" + launch("t['k']"), {"good"}),
    "item-assigned-in-a-branch": ("t = {'k': bad}\nif c:\n    t['k'] = good\n" + launch("t['k']"), {"good", "bad"}),
    # `key in d` of a dict whose keys no store adds to or removes from is decided.
    "key-in-a-dict-display": ("d = {'k': 1}\n" + launch("good if 'k' in d else bad"), {"good"}),
    "key-a-function-may-add": (
        "d = {'k': 1}\ndef add():\n    d['j'] = 1\ndef run():\n    " + launch("bad if 'j' in d else good"),
        {"good", "bad"},  # run() may be called after add()
    ),
    "key-a-function-never-called-at-import-has-not-added": (
        "d = {'k': 1}\ndef add():\n    d['j'] = 1\n" + launch("bad if 'j' in d else good"),
        {"good"},  # the launch runs at import, before anyone can call add()
    ),
    # A first-match loop returns at the first element whose test is surely true.
    "first-match-loop": (
        "def pick(name):\n    for k in (good, bad):\n        if k.__name__ == name:\n            return k\n"
        "    raise KeyError(name)\n" + launch("pick('good')"),
        {"good"},
    ),
    "chainmap-first-map-wins": ("m = collections.ChainMap({'k': good}, {'k': bad})\n" + launch("m['k']"), {"good"}),
    "max-by-len": ("t = {'long_name': good, 'short': bad}\n" + launch("t[max(t, key=len)]"), {"good"}),
    # `op.k = good` after `op = Op()` (whose __init__ stored bad), in the same straight-line code,
    # replaces it; not past a call that may change op, in a branch, or through a property.
    "attribute-assigned-after-construction": (
        "class Op:\n    def __init__(self):\n        self.k = bad\nop = Op()\nop.k = good\n" + launch("op.k"),
        {"good"},
    ),
    "attribute-assigned-in-a-function": (
        "class Op:\n    def __init__(self):\n        self.k = bad\ndef f():\n    op = Op()\n    op.k = good\n    "
        + launch("op.k")
        + "f()\n",
        {"good"},
    ),
    "attribute-assigned-then-a-method-call": (
        "class Op:\n    def __init__(self):\n        self.k = bad\nop = Op()\nop.k = good\nop.reset()\n"
        + launch("op.k"),
        {"good", "bad"},
    ),
    "attribute-assigned-in-a-branch": (
        "class Op:\n    def __init__(self):\n        self.k = good\nop = Op()\nif c:\n    op.k = bad\n"
        + launch("op.k"),
        {"good", "bad"},
    ),
    "attribute-assigned-through-a-property": (
        "class Op:\n    def __init__(self):\n        self._k = bad\n    @property\n    def k(self):\n        return self._k\n"
        "    @k.setter\n    def k(self, v):\n        self._k = v\nop = Op()\nop.k = good\n" + launch("op.k"),
        {"good"},  # the setter ran after __init__ (instance_changes)
    ),
    # An instance as the straight-line code after its construction leaves it.
    "method-reconfigures-after-construction": (
        "KS = {'g': good, 'b': bad}\nclass Op:\n    def __init__(self):\n        self.k = bad\n"
        "    def use(self, name):\n        self.k = KS[name]\nop = Op()\nop.use('g')\n" + launch("op.k"),
        {"good"},
    ),
    "method-storing-in-a-branch-is-not-followed": (
        "KS = {'g': good, 'b': bad}\nclass Op:\n    def __init__(self):\n        self.k = bad\n"
        "    def use(self, name):\n        if name:\n            self.k = KS[name]\nop = Op()\nop.use('g')\n"
        + launch("op.k"),
        {"good", "bad"},
    ),
    "instance-handed-to-a-function-is-not-followed": (
        "class Op:\n    def __init__(self):\n        self.k = bad\ndef fix(o):\n    o.k = good\nop = Op()\nop.k = good\n"
        "fix(op)\n" + launch("op.k"),
        {"good", "bad"},
    ),
    "instance-a-function-reads-as-a-global-is-not-followed": (
        "class Op:\n    def __init__(self):\n        self.k = good\ndef spoil():\n    op.k = bad\nop = Op()\n"
        "op.k = good\nspoil()\n" + launch("op.k"),
        {"good", "bad"},
    ),
    # A module-level list filled by a registrar, read in the module's straight-line code.
    "registrar-decorators-in-order": (
        "REG = []\ndef reg(f):\n    REG.append(f)\n    return f\n@reg\ndef first(x, o):\n    o[...] = x[...]\n"
        "@reg\ndef second(x, o):\n    return x[...]\n" + launch("REG[0]"),
        {"first"},
    ),
    "registrar-calls-before-the-read-only": (
        "REG = []\ndef reg(f):\n    REG.append(f)\n    return f\nreg(bad)\nreg(good)\nk = REG[-1]\nreg(bad)\n"
        + launch("k"),
        {"good"},
    ),
    "registrar-factory-with-a-priority": (
        "REG = []\ndef reg(p):\n    def add(f):\n        REG.append((p, f))\n        return f\n    return add\n"
        "reg(2)(good)\n@reg(1)\ndef low(x, o):\n    return x[...]\n" + launch("sorted(REG, key=lambda e: e[0])[-1][1]"),
        {"good"},
    ),
    "registrar-called-by-a-setup-function-after-a-direct-call": (
        "REG = []\ndef reg(f):\n    REG.append(f)\n    return f\ndef setup():\n    reg(bad)\nreg(good)\nsetup()\n"
        + launch("REG[-1]"),
        {"bad"},  # not [good], as the module's own calls alone would say
    ),
    "registrar-called-from-a-function-called-in-a-branch-is-not-followed": (
        "REG = []\ndef reg(f):\n    REG.append(f)\n    return f\ndef setup():\n    reg(bad)\nreg(good)\n"
        "if flag:\n    setup()\n" + launch("REG[-1]"),
        {"good", "bad"},
    ),
    # A call statement at import runs the calls its function makes (for the heap), nested too.
    "registrar-called-by-a-setup-function-at-import": (
        "REG = []\ndef reg(f):\n    REG.append(f)\n    return f\ndef setup():\n    reg(bad)\ndef main():\n    setup()\n"
        "main()\n" + launch("REG[0]"),
        {"bad"},
    ),
    "registrar-called-in-a-module-level-loop": (
        "REG = []\ndef reg(f):\n    REG.append(f)\n    return f\nfor f in (bad, good):\n    reg(f)\n"
        + launch("REG[-1]"),
        {"good"},
    ),
    "registrar-loop-that-breaks-is-not-followed": (
        "REG = []\ndef reg(f):\n    REG.append(f)\n    return f\nfor f in (bad, good):\n    reg(f)\n    break\n"
        + launch("REG[-1]"),
        {"bad"},  # not [bad, good]: the loop breaks in its first iteration
    ),
    "dict-registrar-factory-overwrites-a-key": (
        "REG = {}\ndef reg(name):\n    def add(f):\n        REG[name] = f\n        return f\n    return add\n"
        "reg('k')(bad)\n@reg('k')\ndef last(x, o):\n    o[...] = x[...]\n" + launch("REG['k']"),
        {"last"},
    ),
    "dict-registrar-with-a-computed-key-is-not-followed": (
        "REG = {}\ndef reg(f):\n    REG[f.__module__] = f\n    return f\nreg(bad)\nreg(good)\n" + launch("REG['x']"),
        {"good", "bad"},
    ),
    "method-called-in-a-module-level-loop": (
        "KS = {'g': good, 'b': bad}\nclass Op:\n    def __init__(self):\n        self.k = bad\n"
        "    def use(self, name):\n        self.k = KS[name]\nop = Op()\nfor n in ('b', 'g'):\n    op.use(n)\n"
        + launch("op.k"),
        {"good"},
    ),
    # `__new__` returning no instance of its class: the call's value is what it returns.
    "new-returns-a-function": (
        "KS = {'g': good, 'b': bad}\nclass Pick:\n    def __new__(cls, name):\n        return KS[name]\n"
        + launch("Pick('g')"),
        {"good"},
    ),
    # A dtype is a dict key (`jnp.float32`, a type, is another key: looked up by a dtype, a KeyError).
    "dict-keyed-by-dtypes": (
        "import jax.numpy as jnp\nT = {jnp.dtype('float32'): good, jnp.dtype('bfloat16'): bad}\n"
        "a = jnp.ones((8, 128), jnp.float32)\n" + launch("T[a.dtype]"),
        {"good"},
    ),
    # A key that is one of a few known keys reads those items, not every item.
    "item-of-one-of-two-keys": (
        "T = {'a': good, 'b': bad, 'c': good}\nfor n in ('a', 'c'):\n    " + launch("T[n]"),
        {"good"},
    ),
    # An instance with a launching __call__, called under any name (a loop target, an item).
    "instance-called-as-a-loop-target": (
        "class Layer:\n    def __init__(self, k):\n        self.k = k\n    def __call__(self, v):\n"
        "        return pl.pallas_call(self.k, out_shape=s)(v)\nfor layer in [Layer(good), Layer(bad)]:\n    layer(x)\n",
        {"good", "bad"},
    ),
    "registrar-calls-of-a-setup-function-in-order": (
        "REG = []\ndef reg(f):\n    REG.append(f)\n    return f\ndef setup(first):\n    reg(first)\n    reg(good)\n"
        "setup(bad)\n" + launch("REG[-1]"),
        {"good"},
    ),
    "registrar-that-may-return-before-appending-is-not-followed": (
        "REG = [good]\ndef reg(f):\n    if f is bad:\n        return f\n    REG.append(f)\n    return f\nreg(bad)\n"
        + launch("REG[-1]"),
        {"good"},  # the append is skipped (not [good, bad] as a replay of every append would say)
    ),
    "registrar-list-changed-by-the-module-is-not-followed": (
        "REG = []\ndef reg(f):\n    REG.append(f)\n    return f\nreg(good)\nREG.insert(0, bad)\n" + launch("REG[0]"),
        {"good", "bad"},
    ),
    "builder-storing-keywords-with-setattr-in-a-loop": (
        "class B:\n    def __init__(self):\n        self.k = bad\n    def set(self, **kw):\n        for n, v in kw.items():\n"
        "            setattr(self, n, v)\n        return self\n" + launch("B().set(k=good).k"),
        {"good"},
    ),
    "method-storing-in-a-loop-that-breaks-is-not-followed": (
        "class B:\n    def __init__(self):\n        self.k = bad\n    def set(self, **kw):\n        for n, v in kw.items():\n"
        "            setattr(self, n, v)\n            break\n        return self\n"
        + launch("B().set(j=bad, k=good).k"),
        {"good", "bad"},  # (bad, in fact: the loop stops after j)
    ),
    "registrar-with-a-plugin-import-between-is-not-followed": (
        "REG = []\ndef reg(f):\n    REG.append(f)\n    return f\nreg(bad)\nimport my_plugins\nreg(good)\n"
        + launch("REG[0]"),
        {"good", "bad"},  # the plugin may register first-come entries of its own
    ),
    "instance-with-a-plugin-import-between-is-not-followed": (
        "class Op:\n    k = staticmethod(bad)\nop = Op()\nop.k = good\nfrom . import plugins\n" + launch("op.k"),
        {"good", "bad"},
    ),
    "fluent-builder-chain": (
        "KS = {'g': good, 'b': bad}\nclass B:\n    def __init__(self):\n        self.k = bad\n"
        "    def use(self, name):\n        self.k = KS[name]\n        return self\n    def build(self):\n"
        "        return self.k\n" + launch("B().use('g').build()"),
        {"good"},
    ),
    "setattr-after-construction-then-a-method-reads-it": (
        "class Op:\n    k = staticmethod(bad)\n    def get(self):\n        return self.k\nop = Op()\n"
        "setattr(op, 'k', good)\n" + launch("op.get()"),
        {"good"},
    ),
    # A launcher is checked in the contexts its seen calls give it; generic (parameters unknown)
    # only while none is seen or one binds nothing known.
    "seen-calls-decide": ("KS = {'g': good, 'b': bad}\ndef run(n='g'):\n    " + launch("KS[n]") + "run()\n", {"good"}),
    "launcher-nobody-calls": ("KS = {'g': good, 'b': bad}\ndef run(n='g'):\n    " + launch("KS[n]"), {"good", "bad"}),
    "caller-binding-nothing-known": (
        "KS = {'g': good, 'b': bad}\ndef run(n):\n    " + launch("KS[n]") + "def main(m):\n    run(m)\nrun('g')\n",
        {"good", "bad"},
    ),
    "caller-explored-in-its-own-call": (
        "KS = {'g': good, 'b': bad}\ndef run(n):\n    " + launch("KS[n]") + "def main(m):\n    run(m)\nmain('g')\n",
        {"good"},
    ),
    # map / starmap / reduce call a launcher at once: their calls are calls seen, in the contexts
    # their elements give (unknown elements: the generic context stands).
    "launcher-mapped-over-known-names": (
        "KS = {'g': good, 'b': bad}\ndef run(n):\n    " + launch("KS[n]") + "run('g')\nlist(map(run, ['g']))\n",
        {"good"},
    ),
    "launcher-starmapped-over-known-tuples": (
        "KS = {'g': good, 'b': bad}\ndef run(n):\n    " + launch("KS[n]") + "list(itertools.starmap(run, [('g',)]))\n",
        {"good"},
    ),
    "launcher-called-by-a-reduced-lambda": (
        "KS = {'g': good, 'b': bad}\ndef run(n):\n    "
        + launch("KS[n]")
        + "functools.reduce(lambda acc, n: run(n), ['g', 'g'], None)\n",
        {"good"},
    ),
    # Constructing a class calls its `__init__`: a launch there runs in the constructor call's context.
    "launch-in-init-explored-in-the-constructor-call": (
        "KS = {'g': good, 'b': bad}\nclass Layer:\n    def __init__(self, n):\n        self.out = "
        + launch("KS[n]")
        + "Layer('g')\n",
        {"good"},
    ),
    # A launcher read other than as a callee may be called where no call is written.
    "escaping-launcher-keeps-its-generic-context": (
        "KS = {'g': good, 'b': bad}\ndef run(n):\n    " + launch("KS[n]") + "run('g')\nlist(map(run, names))\n",
        {"good", "bad"},
    ),
    # A closure returned by a factory holds the factory call's arguments: the factory's seen calls
    # decide it (its generic context stands while a factory call is unseen or unknown).
    "closure-launcher-decided-by-its-factory-calls": (
        "KS = {'g': good, 'b': bad}\ndef make(n):\n    def run(x):\n        "
        + launch("KS[n]")
        + "    return run\nmake('g')(x)\n",
        {"good"},
    ),
    "closure-launcher-of-an-unknown-factory-argument": (
        "KS = {'g': good, 'b': bad}\ndef make(n):\n    def run(x):\n        "
        + launch("KS[n]")
        + "    return run\nmake('g')(x)\nmake(m)(x)\n",
        {"good", "bad"},
    ),
    "closure-launcher-of-an-escaping-factory": (
        "KS = {'g': good, 'b': bad}\ndef make(n):\n    def run(x):\n        "
        + launch("KS[n]")
        + "    return run\nmake('g')(x)\nhooks.append(make)\n",
        {"good", "bad"},
    ),
    "launcher-named-by-a-string": (
        "KS = {'g': good, 'b': bad}\ndef run(n):\n    " + launch("KS[n]") + "run('g')\nglobals()['run'](m)\n",
        {"good", "bad"},
    ),
    "launcher-called-through-a-table": (
        "KS = {'g': good, 'b': bad}\ndef run(n):\n    " + launch("KS[n]") + "IMPLS = {'p': run}\n"
        "def op(m):\n    return IMPLS['p'](m)\nop('g')\n",
        {"good"},
    ),
    "method-of-the-instances-made": (
        "class Op:\n    def __init__(self, mode):\n        self.impls = {'p': good, 'f': bad}\n        self.mode = mode\n"
        "    def __call__(self):\n        " + launch("self.impls[self.mode]") + "Op('p')()\n",
        {"good"},
    ),
    # A module made at run time holds its attributes as an instance's fields, one object per call.
    "module-type": (
        "import types\nops = types.ModuleType('ops')\nops.k = bad\nother = types.ModuleType('o')\nother.k = good\n"
        + launch("getattr(other, 'k')"),
        {"good"},
    ),
    "attrgetter": ("class K:\n    f = staticmethod(bad)\n" + launch('operator.attrgetter("f")(K)'), {"bad"}),
    # A dotted name reads one attribute per part; attrgetter of several names gives a tuple.
    "attrgetter-dotted": (
        "class Ops:\n    fused = staticmethod(bad)\n    plain = staticmethod(good)\nclass K:\n    ops = Ops\n"
        + launch('operator.attrgetter("ops.plain")(K)'),
        {"good"},
    ),
    "attrgetter-dotted-tuple": (
        "class Ops:\n    fused = staticmethod(bad)\nclass K:\n    ops = Ops\n"
        + launch('operator.attrgetter("ops", "ops.fused")(K)[1]'),
        {"bad"},
    ),
    # range with constant bounds is a known sequence: indexes and map over it select by position.
    "range-map": (launch("list(map(lambda i: (good, bad)[i], range(1, 2)))[0]"), {"bad"}),
    "range-index": (launch("(good, bad)[range(3)[1]]"), {"bad"}),
    "itemgetter": ('T = {"a": good, "b": bad}\n' + launch('operator.itemgetter("b")(T)'), {"bad"}),
    "methodcaller": (
        "class K:\n    def pick(self, n):\n        return {'g': good}[n]\n"
        + launch('operator.methodcaller("pick", "g")(K())'),
        {"good"},
    ),
    "chainmap-layers": ('M = collections.ChainMap({"a": good}, {"b": bad})\n' + launch("M[name]"), {"good", "bad"}),
    "chainmap-get": ('M = collections.ChainMap({"a": good})\n' + launch("M.get(name, bad)"), {"good", "bad"}),
    "contextmanager": (
        "@contextlib.contextmanager\ndef scope(k):\n    yield k\nwith scope(bad) as k:\n    " + launch("k"),
        {"bad"},
    ),
    "nullcontext": ("with contextlib.nullcontext(good) as k:\n    " + launch("k"), {"good"}),
    "instance-enter": (
        "class C:\n    def __enter__(self):\n        return bad\nwith C() as k:\n    " + launch("k"),
        {"bad"},
    ),
    "instance-getitem": (
        "class T:\n    def __getitem__(self, key):\n        return good\n" + launch("T()['x']"),
        {"good"},
    ),
    "instance-iter": (
        "class T:\n    def __iter__(self):\n        return iter([good, bad])\nfor k in T():\n    " + launch("k"),
        {"good", "bad"},
    ),
    # An iterator is advanced by each `next` of its straight-line code; elsewhere, undecided.
    "next-after-next": ("it = iter([good, bad])\nnext(it)\n" + launch("next(it)"), {"bad"}),
    "next-first": ("it = iter([good, bad])\n" + launch("next(it)"), {"good"}),
    "next-in-a-loop": (
        "it = iter([good, bad])\nfor _ in range(n):\n    next(it)\n" + launch("next(it)"),
        {"good", "bad"},
    ),
    "next-after-a-call": ("it = iter([good, bad])\nconsume(it)\n" + launch("next(it)"), {"good", "bad"}),
    "next-exhausted-default": ("it = iter([bad])\nnext(it)\n" + launch("next(it, good)"), {"good"}),
    "for-after-next": ("it = iter([bad, good])\nnext(it)\nfor k in it:\n    " + launch("k"), {"good"}),
    "for-over-a-fresh-iterator": ("it = iter([bad, good])\nfor k in it:\n    " + launch("k"), {"good", "bad"}),
    "enum-by-value": (
        "import enum\nclass Op(enum.Enum):\n    A = 1\n    B = 2\nT = {Op.A: good, Op.B: bad}\n" + launch("T[Op(2)]"),
        {"bad"},
    ),
    "enum-by-unknown-value": (
        "import enum\nclass Op(enum.Enum):\n    A = 1\n    B = 2\nT = {Op.A: good, Op.B: bad}\n" + launch("T[Op(n)]"),
        {"good", "bad"},
    ),
    "vars-values": (
        "class P:\n    def __init__(self):\n        self.a = good\n        self.b = bad\n"
        + launch("list(vars(P()).values())[1]"),
        {"bad"},
    ),
    # An attribute set in a branch may be missing: the dict of attributes is not known.
    "vars-values-conditional": (
        "class P:\n    def __init__(self):\n        self.a = good\n        if n:\n            self.b = bad\n"
        + launch("list(vars(P()).values())[1]"),
        set(),
    ),
    "modulo-index": (launch("[good, bad][7 % 2]"), {"bad"}),
    # A flag stored on some functions at module level: the others lack it.
    "function-flag": (
        "good.fast = True\n" + launch('next(k for k in (bad, good) if getattr(k, "fast", False))'),
        {"good"},
    ),
    # Stored by a decorator on what it is given: other calls may flag `bad` too.
    "function-flag-by-decorator": (
        "def mark(f):\n    f.fast = True\n    return f\nmark(good)\n"
        + launch('next(k for k in (bad, good) if getattr(k, "fast", False))'),
        {"good", "bad"},
    ),
    "generator": (
        "def gen():\n    yield good\n    yield from (bad,)\nfor k in gen():\n    " + launch("k"),
        {"good", "bad"},
    ),
    "next-iter": (launch("next(iter([bad]))"), {"bad"}),
    "next-default": ("def gen():\n    yield good\n" + launch("next(gen(), bad)"), {"good"}),  # it yields
    "next-default-of-an-empty-generator": (
        "def gen():\n    return\n    yield good\n" + launch("next(gen(), bad)"),
        {"bad"},
    ),
    "zip-keeps-pairs": ('T = dict(zip(("a", "b"), (good, bad)))\n' + launch('T["a"]'), {"good"}),
    "enumerate-keeps-pairs": ("T = dict(enumerate([good, bad]))\n" + launch("T[1]"), {"bad"}),
    "dataclass-replace": (
        "@dataclasses.dataclass\nclass C:\n    k: object = good\n" + launch("dataclasses.replace(C(), k=bad).k"),
        {"bad"},
    ),
    "class-decorator-registry": (
        "R = {}\ndef reg(cls):\n    R[cls.__name__] = cls\n    return cls\n@reg\nclass A:\n    k = staticmethod(bad)\n"
        + launch("R[n].k"),
        {"bad"},
    ),
    "init-subclass-registry": (
        "class B:\n    R = {}\n    def __init_subclass__(cls, key, **kw):\n        B.R[key] = cls\n"
        "class C(B, key='c'):\n    k = staticmethod(bad)\n" + launch("B.R[n].k"),
        {"bad"},
    ),
    "metaclass-new-registry": (
        "R = {}\nclass M(type):\n    def __new__(mcs, name, bases, ns):\n        R[name] = ns['k']\n"
        "        return super().__new__(mcs, name, bases, ns)\nclass A(metaclass=M):\n    k = staticmethod(bad)\n"
        + launch("R[n]"),
        {"bad"},
    ),
    "super-init-stores-on-the-instance": (
        "class B:\n    def __init__(self, k):\n        self.k = k\nclass C(B):\n    def __init__(self):\n"
        "        super().__init__(bad)\n" + launch("C().k"),
        {"bad"},
    ),
    "partialmethod": (
        "class C:\n    def run(self, k, x):\n        return pl.pallas_call(k, out_shape=s)(x)\n"
        "    go = functools.partialmethod(run, bad)\nC().go(x)\n",
        {"bad"},
    ),
    "comprehension-launch": ("[pl.pallas_call(k, out_shape=s)(x) for k in (good, bad)]\n", {"good", "bad"}),
    "star-unpack": ("first, *rest = [bad, good, good]\n" + launch("first"), {"bad"}),
    "fstring-getattr": (
        "class C:\n    _a_k = staticmethod(bad)\n    _b_k = staticmethod(good)\n    def helper(self, x, o):\n"
        "        return x\ndef pick(m):\n    return getattr(C, f'_{m}_k')\n" + launch("pick('a')"),
        {"bad"},
    ),
    "cached-property": (
        "class C:\n    @functools.cached_property\n    def k(self):\n        return bad\n" + launch("C().k"),
        {"bad"},
    ),
    "functools-reduce": (
        "def tag(f):\n    return f\n" + launch("functools.reduce(lambda f, d: d(f), [tag, tag], bad)"),
        {"bad"},
    ),
    "sorted": ('T = [("b", bad), ("a", good)]\n' + launch("sorted(T)[0][1]"), {"good"}),
    "sorted-unknown-keys": ("T = [(k1, bad), (k2, good)]\n" + launch("sorted(T)[0][1]"), {"good", "bad"}),
    "reversed-known": ("T = [good, bad]\n" + launch("list(reversed(T))[0]"), {"bad"}),
    "min-key": ("T = [(2, good), (1, bad)]\n" + launch("min(T, key=lambda p: p[0])[1]"), {"bad"}),
    "max-key-first-of-equals": ("T = [(2, good), (2, bad)]\n" + launch("max(T, key=lambda p: p[0])[1]"), {"good"}),
    "metaclass-getitem": (
        "class M(type):\n    def __getitem__(cls, name):\n        return cls.T[name]\n"
        "class Ops(metaclass=M):\n    T = {'g': good, 'b': bad}\n" + launch("Ops['g']"),
        {"good"},
    ),
    "type-of-instance": (
        "class A:\n    K = staticmethod(good)\nclass B(A):\n    K = staticmethod(bad)\n" + launch("type(B()).K"),
        {"bad"},
    ),
    "custom-descriptor": (
        "class Slot:\n    def __set_name__(self, owner, name):\n        self.name = name\n"
        "    def __get__(self, obj, owner):\n        return getattr(owner, '_' + self.name)\n"
        "class Op:\n    k = Slot()\n    _k = staticmethod(bad)\n" + launch("Op().k"),
        {"bad"},
    ),
    "type-made-class": ('S = type("S", (), {"k": staticmethod(bad), "n": 2})\n' + launch("S.k"), {"bad"}),
    "type-made-class-base": (
        'class Base:\n    k = staticmethod(good)\nS = type("S", (Base,), {})\n' + launch("S.k"),
        {"good"},
    ),
    "enum-member-value": (
        "import enum\nclass Op(enum.Enum):\n    A = functools.partial(good)\n    B = functools.partial(bad)\n"
        + launch("Op.B.value"),
        {"bad"},
    ),
    "enum-members-iterated": (
        "import enum\nclass Op(enum.Enum):\n    A = 1\n    B = 2\nT = {Op.A: good, Op.B: bad}\nfor op in Op:\n    "
        + launch("T[op]"),
        {"good", "bad"},
    ),
    "enum-member-key": (
        "import enum\nclass Op(enum.Enum):\n    A = 1\n    B = 2\nT = {Op.A: good, Op.B: bad}\n" + launch("T[Op.A]"),
        {"good"},
    ),
    "list-pop-last": ("T = [good, bad]\n" + launch("T.pop()"), {"bad"}),
    "list-pop-first": ("T = [good, bad]\n" + launch("T.pop(0)"), {"good"}),
    "dict-update-keywords": ("T = {}\nT.update(a=good, b=bad)\n" + launch('T["b"]'), {"bad"}),
    "nonlocal-rebinding": (
        "def make():\n    k = good\n    def swap():\n        nonlocal k\n        k = bad\n    swap()\n    return k\n"
        + launch("make()"),
        {"good", "bad"},
    ),
    "subclasses": (
        "class Base:\n    k = staticmethod(good)\nclass Sub(Base):\n    k = staticmethod(bad)\n"
        "for c in Base.__subclasses__():\n    " + launch("c.k"),
        {"bad"},
    ),
    "dict-comprehension-unrolled": (
        'T = {name: k for name, k in (("g", good), ("b", bad))}\n' + launch('T["g"]'),
        {"good"},
    ),
    "class-getattr-hook": (
        "class Table:\n    def __getattr__(self, name):\n        return {'k': bad}[name]\n" + launch("Table().k"),
        {"bad"},
    ),
    "instance-class-attribute": (
        "class A:\n    K = staticmethod(good)\nclass B(A):\n    K = staticmethod(bad)\n" + launch("B().__class__.K"),
        {"bad"},
    ),
    "instance-dict": (
        "class P:\n    def __init__(self, k):\n        self.k = k\n" + launch('P(bad).__dict__["k"]'),
        {"bad"},
    ),
    "dict-fromkeys": ('T = dict.fromkeys(["a", "b"], bad)\n' + launch('T["a"]'), {"bad"}),
    "comparison-selects-branch": (
        "def pick(mode):\n    if mode == 'fast':\n        return good\n    return bad\n" + launch("pick('fast')"),
        {"good"},
    ),
    "membership-selects-branch": (
        "def pick(mode):\n    if mode in ('a', 'b'):\n        return good\n    return bad\n" + launch("pick('c')"),
        {"bad"},
    ),
    "is-none-selects-branch": (
        "def pick(k=None):\n    if k is None:\n        return good\n    return k\n" + launch("pick(bad)"),
        {"bad"},
    ),
    "property-setter-is-not-a-kernel": (
        "class C:\n    def __init__(self):\n        self._k = good\n    @property\n    def k(self):\n        return self._k\n"
        "    @k.setter\n    def k(self, v):\n        self._k = v\n" + launch("C().k"),
        {"good"},
    ),
    "classmethod-binds-the-subclass": (
        "class A:\n    K = staticmethod(good)\n    @classmethod\n    def get(cls):\n        return cls.K\n"
        "class B(A):\n    K = staticmethod(bad)\n" + launch("B.get()"),
        {"bad"},
    ),
    "itertools-starmap": (launch("list(itertools.starmap(lambda a, b: b, [(good, bad)]))[0]"), {"bad"}),
    "itertools-product": ("for k, n in itertools.product([bad], [1, 2]):\n    " + launch("k"), {"bad"}),
    # Comprehensions with several `for`s unroll over known sequences, in order.
    "nested-comprehension-order": (launch("[k for g in [[good], [bad, good]] for k in g][1]"), {"bad"}),
    "nested-comprehension-filtered": (
        launch("[k for g in [[good], [bad]] for k in g if k is not good][0]"),
        {"bad"},
    ),
    "chain-from-iterable-order": (launch("list(itertools.chain.from_iterable([[bad], [good]]))[-1]"), {"good"}),
    "itertools-zip-longest": ("for k, n in itertools.zip_longest([bad], [1]):\n    " + launch("k"), {"bad"}),
    "itertools-chain-from-iterable": ("for k in itertools.chain.from_iterable([[bad]]):\n    " + launch("k"), {"bad"}),
    "dict-key-deleted-then-stored-again-is-not-first": (
        "d = {'a': good, 'b': bad}\ndel d['a']\nd['a'] = good\n" + launch("d[list(d)[0]]"),
        {"good", "bad"},
    ),
    "list-grown-through-an-alias-augmented": (
        "chain = [good]\nalias = chain\nalias += [bad]\n" + launch("chain[-1]"),
        {"good", "bad"},
    ),
    "list-alias-rebound-by-plus-is-another-list": (
        "chain = [good]\nalias = chain\nalias = alias + [bad]\n" + launch("chain[-1]"),
        {"good"},
    ),
    "lambdas-collected-by-a-comprehension-see-the-last-value": (
        "fns = [lambda: k for k in (good, bad)]\n" + launch("fns[0]()"),
        {"bad"},
    ),
    "lambda-default-taken-per-iteration": (
        "fns = [lambda k=k: k for k in (good, bad)]\n" + launch("fns[0]()"),
        {"good"},
    ),
    "lambda-called-in-the-comprehension-is-not-read-as-the-last": (
        # called during its own iteration (good for the first): not the last value; which
        # iteration is not followed
        "firsts = [(lambda: k)() for k in (good, bad)]\n" + launch("firsts[0]"),
        {"good", "bad"},
    ),
    "list-parameter-appended-to-in-its-function-is-not-read-as-handed": (
        "def add(fn, acc=[]):\n    acc.append(fn)\n    return acc\n" + launch("bad if len(add(good)) == 0 else good"),
        {"good", "bad"},
    ),
    "deleted-instance-attribute-reads-the-class": (
        "class Op:\n    k = staticmethod(good)\nop = Op()\nop.k = bad\ndel op.k\n" + launch("op.k"),
        {"good"},
    ),
    "try-body-of-folded-builtin-calls-cannot-raise": (
        "try:\n    int('12')\n    k = good\nexcept ValueError:\n    k = bad\n" + launch("k"),
        {"good"},
    ),
    "try-body-of-a-call-that-may-raise": (
        "try:\n    int(name)\n    k = good\nexcept ValueError:\n    k = bad\n" + launch("k"),
        {"good", "bad"},
    ),
    "registry-with-a-getter-keeps-its-order": (
        "REG = {}\ndef register(name):\n    def add(fn):\n        REG[name] = fn\n        return fn\n    return add\n"
        "def get(name):\n    return REG[name]\nregister('k')(bad)\nregister('k')(good)\n" + launch("REG['k']"),
        {"good"},
    ),
    "registry-handed-out-by-a-function-is-not-ordered": (
        "REG = {}\ndef register(name):\n    def add(fn):\n        REG[name] = fn\n        return fn\n    return add\n"
        "def table():\n    return REG\nregister('k')(bad)\nregister('k')(good)\n" + launch("REG['k']"),
        {"good", "bad"},
    ),
    "chained-assignment-names-one-list": (
        "a = b = [good]\nb.append(bad)\n" + launch("a[-1]"),
        {"bad"},
    ),
    "wraps-copies-the-wrapped-name": (
        "def traced(fn):\n    @functools.wraps(fn)\n    def inner(*a):\n        return fn(*a)\n    return inner\n"
        "TABLE = {'good': good, 'bad': bad, 'inner': good}\n" + launch("TABLE[traced(bad).__name__]"),
        {"bad"},
    ),
    "functools-singledispatch-annotated-register": (
        "@functools.singledispatch\ndef pick(x):\n    return good\n@pick.register\ndef _(x: int):\n    return bad\n"
        + launch("pick('name')"),
        {"good"},
    ),
    "functools-singledispatch-annotated-register-taken": (
        "@functools.singledispatch\ndef pick(x):\n    return good\n@pick.register\ndef _(x: int):\n    return bad\n"
        + launch("pick(3)"),
        {"bad"},
    ),
    "function-annotations": (
        "def f(a: 'good', b: bad):\n    pass\n" + launch("list(f.__annotations__.values())[0]"),
        {"good"},
    ),
    "hasattr-of-a-class-without-the-name": (
        "class C:\n    slow = 1\n" + launch("bad if hasattr(C, 'fast') else good"),
        {"good"},
    ),
    "hasattr-of-a-base-class-name": (
        "class B:\n    fast = 1\nclass C(B):\n    pass\n" + launch("bad if hasattr(C, 'fast') else good"),
        {"bad"},
    ),
    "hasattr-of-a-class-with-a-metaclass-is-not-decided": (
        "class M(type):\n    fast = 1\nclass C(metaclass=M):\n    pass\n"
        + launch("bad if hasattr(C, 'fast') else good"),
        {"bad", "good"},
    ),
    "deque-rotate": ("ring = collections.deque([good, bad])\nring.rotate(1)\n" + launch("ring[0]"), {"bad"}),
    "deque-rotate-back": (
        "ring = collections.deque([good, bad, good])\nring.rotate(-1)\n" + launch("ring[0]"),
        {"bad"},
    ),
    "functools-singledispatch": (
        "@functools.singledispatch\ndef pick(x):\n    return good\n@pick.register(int)\ndef _(x):\n    return bad\n"
        + launch("pick(1)"),
        {"bad"},
    ),
    "str-join-names-an-attribute": (
        "class M:\n    bad_kernel = staticmethod(bad)\n" + launch("getattr(M, '_'.join(['bad', 'kernel']))"),
        {"bad"},
    ),
    "str-format-names-an-attribute": (
        "class M:\n    bad_kernel = staticmethod(bad)\n" + launch("getattr(M, '{}_kernel'.format('bad'))"),
        {"bad"},
    ),
    "percent-names-an-attribute": (
        "class M:\n    bad_kernel = staticmethod(bad)\n" + launch("getattr(M, '%s_kernel' % 'bad')"),
        {"bad"},
    ),
    "slice-of-a-known-list": ("T = [good, bad, good]\n" + launch("T[1:2][0]"), {"bad"}),
    "copy-of-an-instance": (
        "import copy\nclass C:\n    def __init__(self):\n        self.k = bad\n" + launch("copy.copy(C()).k"),
        {"bad"},
    ),
    # A module-level call of a def whose own body assigns `global K` overwrites K for what follows;
    # under an `if` it may not.
    "global-rebound-in-a-function": (
        "K = good\ndef setup():\n    global K\n    K = bad\nsetup()\n" + launch("K"),
        {"bad"},
    ),
    "global-maybe-rebound-in-a-function": (
        "K = good\ndef setup(f):\n    global K\n    if f:\n        K = bad\nsetup(flag)\n" + launch("K"),
        {"good", "bad"},
    ),
    # Python calls `__class_getitem__` for `C[key]` (a classmethod without the decorator), and the
    # `__set_name__` of each object a class body makes, when the class is made.
    # isinstance / issubclass decided when the types are the program's classes or builtins.
    "isinstance-dispatch": (
        "class A:\n    pass\nclass B(A):\n    pass\nclass C:\n    pass\n"
        "def pick(cfg):\n    if isinstance(cfg, A):\n        return bad\n    return good\n" + launch("pick(C())"),
        {"good"},
    ),
    "isinstance-subclass-instance": (
        "class A:\n    pass\nclass B(A):\n    pass\n" + launch("bad if isinstance(B(), (int, A)) else good"),
        {"bad"},
    ),
    "isinstance-constant": (launch("bad if isinstance(8, str) else good"), {"good"}),
    "isinstance-undecided-library-base": (
        "import abc\nclass A(abc.ABC):\n    pass\nclass C:\n    pass\n" + launch("bad if isinstance(C(), A) else good"),
        {"good", "bad"},
    ),
    "issubclass-filter": (
        "class A:\n    k = staticmethod(good)\nclass B(A):\n    k = staticmethod(bad)\nclass C:\n    k = staticmethod(bad)\n"
        + launch("[c for c in (A, C) if issubclass(c, A)][-1].k"),
        {"good"},
    ),
    # A class is a known dict key (`{Fast: fused}[type(cfg)]`); vars(cls) lists its body in order.
    "class-keyed-table": (
        "class A:\n    pass\nclass B:\n    pass\nT = {A: bad, B: good}\n" + launch("T[type(B())]"),
        {"good"},
    ),
    "vars-of-a-class-items": (
        "class Ops:\n    k_first = staticmethod(bad)\n    k_second = staticmethod(good)\n"
        + launch("next(f for n, f in vars(Ops).items() if n.startswith('k_'))"),
        {"bad"},
    ),
    "dataclass-asdict": (
        "@dataclasses.dataclass\nclass Cfg:\n    k: typing.Any\n    n: int = 1\n"
        + launch("dataclasses.asdict(Cfg(bad))['k']"),
        {"bad"},
    ),
    # Attributes and super() follow the C3 MRO: in a diamond the second base comes before the
    # shared root.
    "diamond-mro": (
        "class A:\n    k = staticmethod(good)\nclass B(A):\n    pass\nclass C(A):\n    k = staticmethod(bad)\n"
        "class D(B, C):\n    pass\n" + launch("D.k"),
        {"bad"},
    ),
    "diamond-super": (
        "class A:\n    def pick(self):\n        return good\nclass B(A):\n    def pick(self):\n        return super().pick()\n"
        "class C(A):\n    def pick(self):\n        return bad\nclass D(B, C):\n    pass\n" + launch("D().pick()"),
        {"bad"},
    ),
    "super-of-a-plain-chain": (
        "class A:\n    def pick(self):\n        return bad\nclass B(A):\n    def pick(self):\n        return super().pick()\n"
        + launch("B().pick()"),
        {"bad"},
    ),
    "enum-members-by-name": (
        "import enum\nclass M(enum.Enum):\n    A = 'a'\n    B = 'b'\nT = {'a': good, 'b': bad}\n"
        + launch("next(T[m.value] for n, m in M.__members__.items() if n == 'B')"),
        {"bad"},
    ),
    # A generator's yields are known in order through decided ifs and loops over known sequences.
    "generator-loop-filter-dict": (
        "T = [('g', good), ('b', bad), ('n', None)]\ndef usable():\n    for n, f in T:\n        if f is not None:\n"
        "            yield n, f\n" + launch("dict(usable())['g']"),
        {"good"},
    ),
    "generator-loop-list-order": (
        "def ks():\n    for k in (good, bad):\n        yield k\n" + launch("list(ks())[1]"),
        {"bad"},
    ),
    "generator-undecided-if": (
        "def ks(f):\n    for k in (good, bad):\n        if f:\n            yield k\n" + launch("list(ks(flag))[0]"),
        {"good", "bad"},
    ),
    # `self.__dict__.update(options)` stores an attribute per item.
    "dict-update-attributes": (
        "class C:\n    def __init__(self, **kw):\n        self.__dict__.update(kw)\n" + launch("C(k=bad, n=1).k"),
        {"bad"},
    ),
    # `d.setdefault(k, v)` stores nothing once a module-level statement surely stored k.
    "setdefault-keeps-the-first": (
        "R = {}\nR.setdefault('m', good)\nk = R.setdefault('m', bad)\n" + launch("k"),
        {"good"},
    ),
    "setdefault-after-a-pop": (
        "R = {}\nR.setdefault('m', good)\nR.pop('m')\nk = R.setdefault('m', bad)\n" + launch("k"),
        {"good", "bad"},
    ),
    "get-after-a-pop": ("R = {}\nR['m'] = good\nR.pop('m')\n" + launch("R.get('m', bad)"), {"good", "bad"}),
    # add() runs at its two calls, in order: the first setdefault stores, the second finds 'm'.
    "setdefault-in-a-function": (
        "R = {}\ndef add(f):\n    R.setdefault('m', f)\nadd(good)\nadd(bad)\n" + launch("R['m']"),
        {"good"},
    ),
    "setdefault-in-a-function-read-in-a-function": (
        "R = {}\ndef add(f):\n    R.setdefault('m', f)\nadd(good)\nadd(bad)\ndef run():\n    " + launch("R['m']"),
        {"good", "bad"},
    ),
    # `global step; step += 1` in a def only the module's call statements name: the calls add in order.
    "global-counter-advanced-by-two-calls": (
        "FNS = [bad, bad, good]\nstep = 0\ndef advance():\n    global step\n    step += 1\nadvance()\nadvance()\n"
        + launch("FNS[step]"),
        {"good"},
    ),
    "global-counter-reset-between-calls": (
        "FNS = [bad, good, bad]\nstep = 0\ndef advance(by):\n    global step\n    step += by\nadvance(1)\n"
        "step = 0\nadvance(1)\n" + launch("FNS[step]"),
        {"good"},
    ),
    "global-counter-also-advanced-through-a-function": (
        "FNS = [bad, good, bad]\nstep = 0\ndef advance():\n    global step\n    step += 1\n"
        "def again():\n    advance()\nadvance()\nagain()\n" + launch("FNS[step]"),
        {"good", "bad"},  # (Python: bad) how many times a call of again() added is not followed
    ),
    # `del Sub.k` at import: a read after it finds the base's value, one before it the class's own.
    "class-attribute-deleted-before-the-read": (
        "class Base:\n    k = good\nclass Sub(Base):\n    k = bad\ndel Sub.k\n" + launch("Sub.k"),
        {"good"},
    ),
    "class-attribute-deleted-after-the-read": (
        "class Base:\n    k = bad\nclass Sub(Base):\n    k = good\n" + launch("Sub.k") + "del Sub.k\n",
        {"good"},
    ),
    "class-attribute-deleted-in-a-function": (
        "class Base:\n    k = good\nclass Sub(Base):\n    k = bad\ndef drop():\n    del Sub.k\ndrop()\n"
        + launch("Sub.k"),
        {"good", "bad"},
    ),
    # A def made in a loop whose default reads the loop's target keeps each iteration's value.
    "loop-def-default-appended": (
        "makers = []\nfor fn in (good, bad):\n    def make(f=fn):\n        return f\n    makers.append(make)\n"
        + launch("makers[0]()"),
        {"good"},
    ),
    "loop-def-closure-appended-reads-late": (
        "makers = []\nfor fn in (good, bad):\n    def make():\n        return fn\n    makers.append(make)\n"
        + launch("makers[0]()"),
        {"bad"},
    ),
    # A classmethod only the module's call statements name rebinds a global at those calls.
    "global-set-by-a-classmethod-at-import": (
        "ACTIVE = bad\nclass Config:\n    @classmethod\n    def activate(cls, fn):\n        global ACTIVE\n"
        "        ACTIVE = fn\nConfig.activate(good)\n" + launch("ACTIVE"),
        {"good"},
    ),
    "global-set-by-a-staticmethod-after-the-read": (
        "ACTIVE = good\nclass Config:\n    @staticmethod\n    def activate(fn):\n        global ACTIVE\n"
        "        ACTIVE = fn\n" + launch("ACTIVE") + "Config.activate(bad)\n",
        {"good"},
    ),
    "global-flag-toggled-twice": (
        "FAST = False\ndef toggle():\n    global FAST\n    FAST = not FAST\ntoggle()\ntoggle()\n"
        + launch("bad if FAST else good"),
        {"good"},
    ),
    "global-flag-toggled-once": (
        "FAST = False\ndef toggle():\n    global FAST\n    FAST = not FAST\ntoggle()\n"
        + launch("good if FAST else bad"),
        {"good"},
    ),
    # A class body runs when its class statement does: a name it reads has its value there.
    "class-body-reads-at-its-statement": (
        "K = bad\nclass Op:\n    k = staticmethod(K)\nK = good\n" + launch("Op.k"),
        {"bad"},
    ),
    # A parameter's default is one object for every call: stores through it fill it.
    "default-dict-filled-through-a-parameter": (
        "R = {}\ndef register(fn, registry=R):\n    registry[fn.__name__] = fn\nregister(bad)\n" + launch("R['bad']"),
        {"bad"},
    ),
    "default-dict-handed-back": (
        "def register(fn, registry={}):\n    registry[fn.__name__] = fn\n    return registry\nregister(good)\n"
        + launch("register(bad)['good']"),
        {"good"},
    ),
    # Reflection: dir() sorted, inspect.getmembers with a predicate, locals(), a descriptor's __func__.
    "dir-of-a-class-sorted": (
        "class Ops:\n    k_b = staticmethod(good)\n    k_a = staticmethod(bad)\n"
        + launch("getattr(Ops, [n for n in dir(Ops) if n.startswith('k_')][0])"),
        {"bad"},
    ),
    "inspect-getmembers-functions": (
        "import inspect\nclass Ops:\n    zed = staticmethod(good)\n    abc = staticmethod(bad)\n"
        + launch("inspect.getmembers(Ops, inspect.isfunction)[0][1]"),
        {"bad"},
    ),
    "locals-of-a-function": (
        "def pick():\n    plain = good\n    fused = bad\n    return locals()['plain']\n" + launch("pick()"),
        {"good"},
    ),
    "staticmethod-func": (
        "class Ops:\n    k = staticmethod(bad)\n" + launch("vars(Ops)['k'].__func__"),
        {"bad"},
    ),
    "class-getitem": (
        "class T:\n    def __class_getitem__(cls, key):\n        return {'g': good, 'b': bad}[key]\n"
        + launch("T['g']"),
        {"good"},
    ),
    "set-name-registry": (
        "R = {}\nclass Slot:\n    def __init__(self, fn):\n        self.fn = fn\n"
        "    def __set_name__(self, owner, name):\n        R[name] = self.fn\n"
        "class Ops:\n    fast = Slot(bad)\n    plain = Slot(good)\n" + launch("R['fast']"),
        {"bad"},
    ),
    "match-mapping-capture": (
        "def pick(spec):\n    match spec:\n        case {'kernel': k}:\n            return k\n    return good\n"
        + launch("pick({'kernel': bad})"),
        {"bad"},  # the pattern surely matches: the return after the match never runs
    ),
    "match-class-capture": (
        "class S:\n    def __init__(self, k):\n        self.k = k\n"
        "def pick(spec):\n    match spec:\n        case S(k=k):\n            return k\n    return good\n"
        + launch("pick(S(bad))"),
        {"bad"},  # the pattern surely matches: the return after the match never runs
    ),
    "namedtuple-field": ("Spec = collections.namedtuple('Spec', 'k n')\n" + launch("Spec(bad, 1).k"), {"bad"}),
    "namedtuple-replace": (
        "Spec = collections.namedtuple('Spec', ['k', 'n'])\n" + launch("Spec(good, 1)._replace(k=bad).k"),
        {"bad"},
    ),
    "function-attribute": ("def op(x):\n    return x\nop.kernel = bad\n" + launch("op.kernel"), {"bad"}),
    "dataclass-field-default-factory": (
        "@dataclasses.dataclass\nclass P:\n    k: object = dataclasses.field(default_factory=lambda: bad)\n"
        + launch("P().k"),
        {"bad"},
    ),
    "dataclass-field-default": (
        "@dataclasses.dataclass\nclass P:\n    k: object = dataclasses.field(default=bad)\n" + launch("P().k"),
        {"bad"},
    ),
    "zip-strict": ('T = dict(zip(("g", "b"), (good, bad), strict=True))\n' + launch('T["b"]'), {"bad"}),
    "filtered-comprehension": (
        "SAFE = [k for k in [good, bad] if k is not bad]\nfor k in SAFE:\n    " + launch("k"),
        {"good"},
    ),
    "filtered-generator-next": (launch("next(k for k in [good, bad] if k is bad)"), {"bad"}),
    "setdefault-list-append": ("T = {}\nT.setdefault('a', []).append(bad)\n" + launch("T['a'][0]"), {"bad"}),
    "table-keyed-by-function-names": (
        "T = {f.__name__: f for f in (good, bad)}\n" + launch("T[f\"{'GOOD'.lower()}\"]"),
        {"good"},
    ),
    "class-name": (
        "class Good:\n    k = staticmethod(good)\nT = {Good.__name__: Good}\n" + launch("T['Good'].k"),
        {"good"},
    ),
    "vars-of-instance": (
        "class P:\n    def __init__(self, k):\n        self.k = k\n" + launch('vars(P(bad))["k"]'),
        {"bad"},
    ),
    "filter-by-name": (launch('next(filter(lambda k: k.__name__.startswith("go"), [good, bad]))'), {"good"}),
    "filter-none-drops-falsy": (launch("filter(None, [None, bad])[0]"), {"bad"}),
    "named-tuple-index": (
        "class Spec(typing.NamedTuple):\n    kernel: object\n    other: object\n"
        + launch("Spec(bad, good)[0]")
        + launch("[k for k in Spec(good, good)][1]"),
        {"bad", "good"},
    ),
    "subclass-name-is-its-own": (
        "class Base:\n    pass\nclass Sub(Base):\n    pass\n" + launch('{"Sub": good, "Base": bad}[Sub.__name__]'),
        {"good"},
    ),
    "class-store-overrides-base": (
        "class Base:\n    k = staticmethod(bad)\nclass Sub(Base):\n    pass\nSub.k = staticmethod(good)\n"
        + launch("Sub.k"),
        {"good"},
    ),
    "match-selector-for-a-constant": (
        "def pick(mode):\n    match mode:\n        case 'a' | 'b':\n            return good\n"
        "        case None:\n            return bad\n        case _:\n            raise ValueError(mode)\n"
        + launch("pick('b')"),
        {"good"},
    ),
    "match-selector-unknown-subject": (
        "def pick(mode):\n    match mode:\n        case 'a':\n            return good\n        case _:\n            return bad\n"
        + launch("pick(m)"),
        {"good", "bad"},
    ),
    "dict-union-operator": ('A = {"k": bad}\nB = {"k": good}\n' + launch('(A | B)["k"]'), {"good"}),
    "dict-spread-sees-stores": ('A = {}\nA["k"] = bad\n' + launch('{**A}["k"]'), {"bad"}),
    "dunder-getitem-of-a-dict": ('T = {"a": good, "b": bad}\n' + launch('T.__getitem__("b")'), {"bad"}),
    "mapping-proxy": ('T = {"a": good, "b": bad}\nV = types.MappingProxyType(T)\n' + launch('V["a"]'), {"good"}),
    "partial-func": ("p = functools.partial(bad, 1)\n" + launch("p.func"), {"bad"}),
    "class-decorator-forwarding": (
        "class wrap:\n    def __init__(self, fn):\n        self.fn = fn\n"
        "    def __call__(self, *args):\n        return self.fn(*args)\n" + launch("wrap(bad)"),
        {"bad"},
    ),
    "loop-search-with-break": (
        "chosen = None\nfor c in [good, bad]:\n    if c.__name__ == 'good':\n        chosen = c\n        break\n"
        + launch("chosen"),
        {"good"},
    ),
    "loop-assignment-under-an-undecided-test": (
        "chosen = None\nfor c in [good, bad]:\n    if flag(c):\n        chosen = c\n" + launch("chosen"),
        {"good", "bad"},
    ),
    "itertools-compress": (launch("next(itertools.compress([good, bad], [0, 1]))"), {"bad"}),
    "list-index": ('N = ["g", "b"]\nK = [good, bad]\n' + launch('K[N.index("g")]'), {"good"}),
    "getattr-default-unused": (
        "class C:\n    k = staticmethod(good)\n" + launch('getattr(C, "k", bad)') + launch('getattr(C, "other", bad)'),
        {"good", "bad"},
    ),
    "getattr-default-of-an-existing-attribute": (
        "class C:\n    k = staticmethod(good)\n" + launch('getattr(C, "k", bad)'),
        {"good"},
    ),
    "str-split-of-a-constant": ('T = {"good": good, "bad": bad}\n' + launch('T["ops.good".split(".")[-1]]'), {"good"}),
    "sorted-reverse": (launch("sorted([good, bad], key=lambda k: k.__name__, reverse=True)[0]"), {"good"}),
    "sorted-reverse-not-known": (
        launch("sorted([good, bad], key=lambda k: k.__name__, reverse=r)[0]"),
        {"good", "bad"},
    ),
    "method-type": ("class C:\n    pass\n" + launch("types.MethodType(bad, C())"), {"bad"}),
    # A branch of an `if` whose test is decided does not run, and a taken one overwrites.
    "if-decided-false": ("FAST = False\nif FAST:\n    k = bad\nelse:\n    k = good\n" + launch("k"), {"good"}),
    "if-decided-true-overwrites": ("k = good\nif 2 > 1:\n    k = bad\n" + launch("k"), {"bad"}),
    "if-undecided": ("if flag:\n    k = bad\nelse:\n    k = good\n" + launch("k"), {"good", "bad"}),
    "if-decided-by-the-argument": (
        "def pick(fast):\n    if fast:\n        k = bad\n    else:\n        k = good\n    return k\n"
        + launch("pick(False)"),
        {"good"},
    ),
    "if-imported-name": (
        "FAST = True\nif not FAST:\n    k = bad\nelse:\n    k = good\ndef f():\n    " + launch("k"),
        {"good"},
    ),
    "dict-copy-with-keywords": (
        launch('dict({"a": good, "b": good}, a=bad)["a"]') + launch('dict({"a": good, "b": good}, a=bad)["b"]'),
        {"good", "bad"},
    ),
    "dict-copy-keyword-kept": (launch('dict({"a": bad, "b": bad}, a=good)["a"]'), {"good"}),
    # An except block runs only if its try body can raise what it catches.
    "except-after-a-present-key": (
        'T = {"a": good}\ntry:\n    k = T["a"]\nexcept KeyError:\n    k = bad\n' + launch("k"),
        {"good"},
    ),
    "except-after-a-missing-key": (
        'T = {"a": good}\ntry:\n    k = T["b"]\nexcept KeyError:\n    k = bad\n' + launch("k"),
        {"bad"},
    ),
    "except-after-a-call": (
        'T = {"a": good}\ntry:\n    k = f(T["a"])\nexcept KeyError:\n    k = bad\n' + launch("k"),
        {"bad"},
    ),
    "except-of-another-error": (
        'T = {"a": good}\ntry:\n    k = T["a"]\nexcept Exception:\n    k = bad\n' + launch("k"),
        {"good", "bad"},
    ),
    "tuple-stores-on-self": (
        "class P:\n    def __init__(self, a, b):\n        self.a, self.b = a, b\n" + launch("P(good, bad).b"),
        {"bad"},
    ),
    "generator-iter-spread": (
        "class P:\n    def __iter__(self):\n        yield good\n        yield bad\n"
        "def pick(first, second):\n    return second\n" + launch("pick(*P())"),
        {"bad"},
    ),
    "globals-items": (launch('next(v for n, v in globals().items() if n == "bad")'), {"bad"}),
    # Containers changed in place before the use, in straight-line code.
    "list-pop": ("ks = [good, bad]\nks.pop()\n" + launch("ks[-1]"), {"good"}),
    "list-pop-in-a-branch": ("ks = [good, bad]\nif flag:\n    ks.pop()\n" + launch("ks[-1]"), {"good", "bad"}),
    "list-remove": ("ks = [good, bad]\nks.remove(good)\n" + launch("ks[0]"), {"bad"}),
    "list-remove-unknown": ("ks = [good, bad]\nks.remove(k)\n" + launch("ks[0]"), {"good", "bad"}),
    "dict-del": ('t = {"g": good, "b": bad}\ndel t["b"]\nfor k in t.values():\n    ' + launch("k"), {"good"}),
    "dict-pop": ('t = {"g": good, "b": bad}\nt.pop("b")\nfor k in t.values():\n    ' + launch("k"), {"good"}),
    # Loop filters before the use in the loop's body.
    "loop-continue": ("for k in (good, bad):\n    if k is bad:\n        continue\n    " + launch("k"), {"good"}),
    "loop-break": ("for k in (good, bad):\n    if k is bad:\n        break\n    " + launch("k"), {"good"}),
    "loop-break-first": ("for k in (bad, good):\n    if k is bad:\n        break\n    " + launch("k"), set()),
    "loop-filter-undecided": (
        "for k in (good, bad):\n    if flag(k):\n        continue\n    " + launch("k"),
        {"good", "bad"},
    ),
    # JAX runs on Python 3.10 or later.
    "version-check": (
        "import sys\nif sys.version_info >= (3, 9):\n    k = good\nelse:\n    k = bad\n" + launch("k"),
        {"good"},
    ),
    "version-check-below": (
        "import sys\nif sys.version_info < (3, 10):\n    k = bad\nelse:\n    k = good\n" + launch("k"),
        {"good"},
    ),
    "version-check-undecided": (
        "import sys\nif sys.version_info >= (3, 12):\n    k = good\nelse:\n    k = bad\n" + launch("k"),
        {"good", "bad"},
    ),
    "reduce-folds-in-order": (
        'L = [{"k": bad}, {"k": good}]\n' + launch('functools.reduce(operator.or_, L)["k"]'),
        {"good"},
    ),
    "reduce-with-initial": (launch("functools.reduce(lambda a, b: a, [bad], good)"), {"good"}),
    "reduce-unknown-sequence": (launch("functools.reduce(lambda a, b: b, ks)"), set()),
    "tuple-keys": ("T = {(128, 128): good, (64, 64): bad}\nbm = 128\n" + launch("T[(bm, bm)]"), {"good"}),
    "tuple-keys-unknown-part": ("T = {(128, 128): good, (64, 64): bad}\n" + launch("T[(bm, 128)]"), {"good", "bad"}),
    "tuple-keys-get": ("T = {(1, 'a'): bad, (1, 'b'): good}\n" + launch("T.get((1, 'b'))"), {"good"}),
    # A few constants on a side: decided when every combination agrees.
    "each-constant-folded": (
        "def pick(n):\n    return good if n % 2 == 0 else bad\nfor n in (2, 4):\n    " + launch("pick(n)"),
        {"good"},
    ),
    "each-constant-disagrees": (
        "def pick(n):\n    return good if n % 2 == 0 else bad\nfor n in (2, 3):\n    " + launch("pick(n)"),
        {"good", "bad"},
    ),
    # `or` / `and` as Python evaluates them, and `in` a set of constants.
    "or-default": (
        "MODE = 'g'\nT = {'g': good, 'b': bad}\ndef pick(mode=None):\n    return T[mode or MODE]\n" + launch("pick()"),
        {"good"},
    ),
    "or-unknown-left": ("T = {'g': good, 'b': bad}\n" + launch("T[m or 'g']"), {"good", "bad"}),
    "and-false-left": (launch("(0 and bad) or good"), {"good"}),
    "in-a-set": (
        "ON = {'good'}\nfor k in (good, bad):\n    if k.__name__ not in ON:\n        continue\n    " + launch("k"),
        {"good"},
    ),
    "contextmanager-yields-a-launch": (
        "@contextlib.contextmanager\ndef launching(k):\n    yield pl.pallas_call(k, out_shape=s)\n"
        "with launching(bad) as run:\n    run(x)\n",
        {"bad"},
    ),
    # A bool is an int where a sequence is indexed.
    "bool-index": ("FUSED = False\n" + launch("(good, bad)[FUSED]"), {"good"}),
    "bool-index-true": ("FUSED = True\n" + launch("[good, bad][FUSED]"), {"bad"}),
    # `pl.pallas_call(**spec)`: the kernel is one of the dict's keywords.
    "splatted-kernel": ("spec = dict(kernel=bad, out_shape=s)\npl.pallas_call(**spec)(x)\n", {"bad"}),
    "splatted-unknown": ("pl.pallas_call(**spec)(x)\n", set()),
    # A defaultdict's factory gives what a key it lacks reads; its initial items are known.
    "defaultdict-present": ("T = collections.defaultdict(lambda: bad, {'g': good})\n" + launch("T['g']"), {"good"}),
    "defaultdict-missing": ("T = collections.defaultdict(lambda: bad, g=good)\n" + launch("T['b']"), {"bad"}),
    "defaultdict-empty-missing": (
        "T = collections.defaultdict(lambda: good)\ndef put(k, f):\n    T[k] = f\nput('b', bad)\n" + launch("T['g']"),
        {"good"},
    ),
    "defaultdict-empty-stored": (
        "T = collections.defaultdict(lambda: good)\ndef put(k, f):\n    T[k] = f\nput('b', bad)\n" + launch("T['b']"),
        {"bad"},
    ),
    "defaultdict-stored": (
        "T = collections.defaultdict(lambda: good, {'g': good})\nT['b'] = bad\n" + launch("T['b']"),
        {"bad"},
    ),
    "dict-of-pairs-stored": ("T = dict([('g', good)])\nT['b'] = bad\n" + launch("T['b']"), {"bad"}),
    # A metaclass's `super().__new__(mcs, name, bases, ns)` makes the class it registers.
    "metaclass-super-new-makes-the-class": (
        "R = {}\nclass Meta(type):\n    def __new__(mcs, name, bases, ns):\n"
        "        cls = super().__new__(mcs, name, bases, ns)\n        R[name.lower()] = cls\n        return cls\n"
        "class Good(metaclass=Meta):\n    k = staticmethod(good)\nclass Bad(metaclass=Meta):\n    k = staticmethod(bad)\n"
        + launch("R['good'].k"),
        {"good"},
    ),
    # `list(gen())` of a generator that yields a straight run of values: those values, in order.
    "list-of-a-generator": ("def gen():\n    yield good\n    yield bad\n" + launch("list(gen())[0]"), {"good"}),
    "tuple-of-a-generator": ("def gen():\n    yield good\n    yield bad\n" + launch("tuple(gen())[-1]"), {"bad"}),
    # A launcher explored with an argument it returns early for does not reach its launch.
    "guard-returns-before-launch": (
        "def run(k):\n    if k is bad:\n        return None\n    " + launch("k") + "run(good)\nrun(bad)\n",
        {"good"},
    ),
    "guard-raises-before-launch": (
        "def run(k):\n    if k.__name__ == 'good':\n        raise ValueError\n    "
        + launch("k")
        + "run(good)\nrun(bad)\n",
        {"bad"},
    ),
    # `cls` in a classmethod or `__init_subclass__` is the class: a store through it fills the class.
    "classmethod-decorator-appends": (
        "class S:\n    ks = []\n    @classmethod\n    def add(cls, fn):\n        cls.ks.append(fn)\n        return fn\n"
        "@S.add\ndef k1(x, o):\n    o[...] = x[...]\n" + launch("S.ks[0]"),
        {"k1"},
    ),
    "init-subclass-sets-the-kernel": (
        "class B:\n    k = staticmethod(bad)\n    def __init_subclass__(cls, **kw):\n        cls.k = staticmethod(good)\n"
        "class C(B):\n    pass\n" + launch("C.k"),
        {"good"},
    ),
    # `map(f, xs)` of a known sequence: f of each element, in order.
    "map-of-a-known-list": ("ks = list(map(lambda k: k, [good, bad]))\n" + launch("ks[0]"), {"good"}),
    "map-unpacked": ("a, b = map(lambda k: k, [bad, good])\n" + launch("b"), {"good"}),
    # itertools.zip_longest of known sequences pads the shorter ones with `fillvalue`.
    "zip-longest-fill": (
        "T = dict(itertools.zip_longest(['g', 'b'], [good], fillvalue=bad))\n" + launch("T['b']"),
        {"bad"},
    ),
    "zip-longest-present": (
        "T = dict(itertools.zip_longest(['g', 'b'], [good], fillvalue=bad))\n" + launch("T['g']"),
        {"good"},
    ),
    # Selection helpers: the first of a dict's values, a dict's keys sorted, a dtype's name.
    "next-of-iter-values": ("T = {'g': good, 'b': bad}\n" + launch("next(iter(T.values()))"), {"good"}),
    "sorted-keys-of-a-dict": ("T = {'z': bad, 'a': good}\n" + launch("T[sorted(T)[0]]"), {"good"}),
    "dtype-name-key": (
        "import jax.numpy as jnp\nxs = jnp.ones((8, 128), jnp.bfloat16)\nT = {'float32': good, 'bfloat16': bad}\n"
        + launch("T[xs.dtype.name]"),
        {"bad"},
    ),
    # A loop over (name, fn) pairs, each iteration with both targets bound; enumerate's start.
    "loop-over-items-by-name": (
        "T = {'g': good, 'b': bad}\nk = None\nfor name, fn in T.items():\n    if name == 'g':\n        k = fn\n"
        + launch("k"),
        {"good"},
    ),
    "enumerate-start": ("T = dict(enumerate([good, bad], start=1))\n" + launch("T[2]"), {"bad"}),
    # Models: ExitStack.enter_context, functools.update_wrapper, typing.cast.
    "exitstack-enter-context": (
        "with contextlib.ExitStack() as st:\n    k = st.enter_context(contextlib.nullcontext(bad))\n" + launch("k"),
        {"bad"},
    ),
    "update-wrapper": (launch("functools.update_wrapper(lambda x, o: good(x, o), good)"), {"<lambda>"}),
    "typing-cast": (launch("typing.cast(typing.Callable, bad)"), {"bad"}),
    # `copy.copy(cfg)` is a new object: a store into the copy is not the original's.
    "copy-keeps-the-original-apart": (
        "import copy\nclass C:\n    def __init__(self, k):\n        self.k = k\n"
        "c = C(good)\nd = copy.copy(c)\nd.k = bad\n" + launch("c.k"),
        {"good"},
    ),
    "copy-holds-the-original-fields": (
        "import copy\nclass C:\n    def __init__(self, k):\n        self.k = k\n"
        "c = C(bad)\nd = copy.copy(c)\n" + launch("d.k"),
        {"bad"},
    ),
    # Pure builtins of constants, `any` / `all` of known truths (a comprehension's elements too).
    "any-of-a-comparison-per-element": (
        "SHAPE = (8, 128)\n" + launch("bad if any(d > 200 for d in SHAPE) else good"),
        {"good"},
    ),
    "all-of-a-comparison-per-element": (
        "SHAPE = (8, 128)\n" + launch("good if all(d >= 8 for d in SHAPE) else bad"),
        {"good"},
    ),
    "divmod-of-constants": ("FNS = [good, bad]\n_, r = divmod(256, 128)\n" + launch("FNS[r]"), {"good"}),
    "slice-with-none-bound": ("FNS = [bad, good]\n" + launch("FNS[1:None][0]"), {"good"}),
    # itertools.islice of a cycle: position i holds element i mod n.
    "islice-of-a-cycle": (
        launch("list(itertools.islice(itertools.cycle([bad, good]), 4))[3]"),
        {"good"},
    ),
    "next-of-an-endless-islice-of-a-cycle": (
        launch("next(itertools.islice(itertools.cycle([bad, good]), 3, None))"),
        {"good"},
    ),
    "islice-of-a-list": (launch("list(itertools.islice([bad, good, bad], 1, None))[0]"), {"good"}),
    # An enum class iterates its members in body order (no aliases among constant values).
    "enum-iterated-in-order": (
        "import enum\nclass M(enum.Enum):\n    A = 'good'\n    B = 'bad'\nT = {'good': good, 'bad': bad}\n"
        + launch("T[list(M)[0].value]"),
        {"good"},
    ),
    "enum-members-table": (
        "import enum\nclass M(enum.Enum):\n    A = 'good'\n    B = 'bad'\nT = {'good': good, 'bad': bad}\n"
        "BY = {m: T[m.value] for m in M}\n" + launch("BY[M.A]"),
        {"good"},
    ),
    "enum-with-an-alias-is-not-ordered": (
        "import enum\nclass M(enum.Enum):\n    A = 'good'\n    B = 'good'\n    C = 'bad'\nT = {'good': good, 'bad': bad}\n"
        + launch("T[list(M)[1].value]"),
        {"good", "bad"},
    ),
    # A `match` case runs when its pattern matches and no earlier one did.
    "match-class-pattern": (
        "class A: pass\nclass B: pass\ncfg = B()\nmatch cfg:\n    case A():\n        k = bad\n"
        "    case _:\n        k = good\n" + launch("k"),
        {"good"},
    ),
    "match-value-pattern-undecided": (
        "match mode:\n    case 'a':\n        k = bad\n    case _:\n        k = good\n" + launch("k"),
        {"good", "bad"},
    ),
    # A dtype object equals what names its dtype (numpy's ==): scalar types, strings, dtypes.
    "dtype-equals-a-scalar-type": (
        "import jax.numpy as jnp\nxs = jnp.ones((8, 128), jnp.float32)\n"
        + launch("bad if xs.dtype == jnp.bfloat16 else good"),
        {"good"},
    ),
    "dtype-in-a-tuple-of-types": (
        "import jax.numpy as jnp\nxs = jnp.ones((8, 128), jnp.bfloat16)\n"
        + launch("bad if xs.dtype in (jnp.bfloat16, jnp.float16) else good"),
        {"bad"},
    ),
    "dtype-against-builtin-float-undecided": (  # numpy reads `float` as float64
        "import jax.numpy as jnp\nxs = jnp.ones((8, 128), jnp.float32)\n"
        + launch("bad if xs.dtype == float else good"),
        {"good", "bad"},
    ),
    "issubdtype-of-a-known-dtype": (
        "import jax.numpy as jnp\nxs = jnp.ones((8, 128), jnp.int8)\n"
        + launch("good if jnp.issubdtype(xs.dtype, jnp.integer) else bad"),
        {"good"},
    ),
    "numpy-dtype-by-name": (
        "import numpy as np\nT = {'bfloat16': bad, 'float32': good}\n" + launch("T[np.dtype('float32').name]"),
        {"good"},
    ),
    # math and pl.cdiv of constants: block arithmetic.
    "cdiv-of-constants": ("FNS = [bad, bad, good]\n" + launch("FNS[pl.cdiv(9, 4) - 1]"), {"good"}),
    "int-of-log2": ("import math\nFNS = [bad] * 7 + [good]\n" + launch("FNS[int(math.log2(128))]"), {"good"}),
    # min / max of their arguments; a ShapeDtypeStruct's dtype; arithmetic of constants.
    "min-of-arguments": ("T = {8: good, 16: bad}\n" + launch("T[min(16, 8)]"), {"good"}),
    "shape-struct-dtype": (
        "import jax.numpy as jnp\nout = jax.ShapeDtypeStruct((8, 128), jnp.float32)\n"
        + launch("bad if out.dtype == jnp.bfloat16 else good"),
        {"good"},
    ),
    "invert-of-an-int": ("FNS = [good, bad]\n" + launch("FNS[~1]"), {"good"}),
    "shift-and-mask": ("FNS = [bad, good, bad, bad]\n" + launch("FNS[(1 << 3) >> 3 & 1]"), {"good"}),
    "percent-format-of-a-tuple": (
        "T = {'good_2': good, 'bad_2': bad}\n" + launch("T['%s_%d' % ('good', 2)]"),
        {"good"},
    ),
    "sum-of-a-shape": ("FNS = [bad] * 10 + [good]\nSHAPE = (4, 6)\n" + launch("FNS[sum(SHAPE)]"), {"good"}),
    "bool-of-a-known-sequence": ("FNS = []\n" + launch("good if not bool(FNS) else bad"), {"good"}),
    # jax.vmap(f)(xs) calls f on slices along the leading axis (partial keywords kept).
    "vmap-of-a-partial": (
        "def op(v, impl):\n    "
        + launch("{'g': good, 'b': bad}[impl]")
        + "jax.vmap(functools.partial(op, impl='g'))(xs)\n",
        {"good"},
    ),
    "vmap-slices-the-leading-axis": (
        "import jax.numpy as jnp\ndef op(v):\n    "
        + launch("good if v.shape == (8, 128) else bad")
        + "jax.vmap(op)(jnp.ones((4, 8, 128)))\n",
        {"good"},
    ),
    "enum-auto-in-order": (
        "import enum\nclass M(enum.Enum):\n    A = enum.auto()\n    B = enum.auto()\n"
        + launch("{M.A: good, M.B: bad}[list(M)[0]]"),
        {"good"},
    ),
    # A nested function rebinding a `nonlocal` runs only if its function reads its name.
    "nonlocal-setter-never-called": (
        "def build():\n    k = good\n    def use_bad():\n        nonlocal k\n        k = bad\n    return k\n"
        + launch("build()"),
        {"good"},
    ),
    "nonlocal-setter-called": (
        "def build():\n    k = good\n    def use_bad():\n        nonlocal k\n        k = bad\n    use_bad()\n    return k\n"
        + launch("build()"),
        {"good", "bad"},
    ),
    # Module-level statements of their own store in order: the last store of a key replaces.
    "update-twice": ("REG = {}\nREG.update(k=bad)\nREG.update(k=good)\n" + launch("REG['k']"), {"good"}),
    "item-stored-twice": ("REG = {'k': bad}\nREG['k'] = bad\nREG['k'] = good\n" + launch("REG['k']"), {"good"}),
    # A function nothing has called when the module-level launch runs has stored nothing yet.
    "item-stored-in-a-function-not-called-before-the-read": (
        "REG = {}\nREG['k'] = good\ndef use_bad():\n    REG['k'] = bad\n" + launch("REG['k']"),
        {"good"},
    ),
    "item-stored-in-a-function-called-before-the-read": (
        "REG = {}\nREG['k'] = good\ndef use_bad():\n    REG['k'] = bad\nuse_bad()\n" + launch("REG['k']"),
        {"bad"},
    ),
    "item-stored-in-a-function-a-called-one-calls": (
        "REG = {}\nREG['k'] = good\ndef use_bad():\n    REG['k'] = bad\ndef setup():\n    use_bad()\n"
        "setup()\n" + launch("REG['k']"),
        {"good", "bad"},
    ),
    "item-stored-in-a-function-the-module-reaches-through-globals": (
        "REG = {}\nREG['k'] = good\ndef use_bad():\n    REG['k'] = bad\nglobals()['use_' + 'bad']()\n"
        + launch("REG['k']"),
        {"good", "bad"},
    ),
    "item-read-in-a-function-sees-every-store": (
        "REG = {}\nREG['k'] = good\ndef use_bad():\n    REG['k'] = bad\ndef run():\n    " + launch("REG['k']"),
        {"good", "bad"},
    ),
    "list-item-replaced": ("L = [bad]\nL[0] = good\n" + launch("L[0]"), {"good"}),
    "class-attribute-reassigned": (
        "class Op:\n    k = staticmethod(bad)\n    def run(self):\n        "
        + launch("self.k")
        + "Op.k = staticmethod(good)\nOp().run()\n",
        {"good"},
    ),
    "startswith-a-tuple": ("NAME = 'cpu'\n" + launch("bad if NAME.startswith(('tpu', 'gpu')) else good"), {"good"}),
    "str-index-of-a-constant": ("FNS = [bad, bad, good]\n" + launch("FNS['abc'.index('c')]"), {"good"}),
    "numpy-prod-of-a-shape": (
        "import numpy as np\nT = {1024: good, 512: bad}\n" + launch("T[int(np.prod((8, 128)))]"),
        {"good"},
    ),
    "promote-types-of-floats": (
        "import jax.numpy as jnp\n"
        + launch("good if jnp.promote_types(jnp.bfloat16, jnp.float16) == jnp.float32 else bad"),
        {"good"},
    ),
    # The protocol methods Python calls: __bool__ / __len__ (truth), __contains__, __eq__, __len__,
    # __index__, __iter__.
    "dunder-bool": (
        "class C:\n    def __bool__(self):\n        return False\n" + launch("bad if C() else good"),
        {"good"},
    ),
    "plain-instance-is-true": ("class C:\n    pass\n" + launch("good if C() else bad"), {"good"}),
    "dunder-contains": (
        "class R:\n    def __contains__(self, k):\n        return k in ('a',)\n"
        + launch("bad if 'b' in R() else good"),
        {"good"},
    ),
    "dunder-eq": (
        "class M:\n    def __init__(self, n):\n        self.n = n\n    def __eq__(self, o):\n        return self.n == o.n\n"
        + launch("bad if M(1) == M(2) else good"),
        {"good"},
    ),
    "dunder-len": ("class R:\n    def __len__(self):\n        return 1\n" + launch("[bad, good][len(R())]"), {"good"}),
    "dunder-index": ("class I:\n    def __index__(self):\n        return 1\n" + launch("[bad, good][I()]"), {"good"}),
    "dunder-iter-first": (
        "class B:\n    def __iter__(self):\n        return iter([good, bad])\n" + launch("next(iter(B()))"),
        {"good"},
    ),
    "takewhile-in-order": (
        launch("list(itertools.takewhile(lambda k: k is not None, [good, None, bad]))[-1]"),
        {"good"},
    ),
    # next() of an itertools iterator made in place: its first item (the models give lists in order).
    "next-of-an-itertools-iterator": (
        launch("next(itertools.dropwhile(lambda k: k is bad, [bad, good, bad]))"),
        {"good"},
    ),
    # A name bound later in a loop's body reaches the body's earlier reads in the next round.
    "loop-carried-through-a-while-loop": (
        "def f():\n    i = 0\n    k = good\n    while n:\n        k = [good, bad][i]\n        i = 1\n    return k\n"
        + launch("f()"),
        {"good", "bad"},
    ),
    "loop-carried-through-a-for-loop": (
        "i = 0\nfor _ in range(n):\n    " + launch("[good, bad][i]") + "    i = 1\n",
        {"good", "bad"},
    ),
    "loop-carried-counter-of-a-generator": (
        "def gen():\n    i = 0\n    while True:\n        yield [good, bad][i % 2]\n        i += 1\n"
        + "for k in gen():\n    "
        + launch("k"),
        {"good", "bad"},
    ),
    "loop-of-one-round-has-no-next-round": (
        "current = good\nfor _ in range(1):\n    " + launch("current") + "    current = bad\n",
        {"good"},
    ),
    # A simple loop's tuple assignment (`a, b = b, a`) is run round by round.
    "swap-in-a-simple-loop": ("a, b = good, bad\nfor _ in range(2):\n    a, b = b, a\n" + launch("a"), {"good"}),
    # An `except ValueError` handler runs only when the call can raise it with the arguments given.
    "value-error-handler-of-a-call-that-cannot-raise": (
        'def pick(mode):\n    if mode not in ("a", "b"):\n        raise ValueError(mode)\n    return good\n'
        + 'try:\n    k = pick("a")\nexcept ValueError:\n    k = bad\n'
        + launch("k"),
        {"good"},
    ),
    "value-error-handler-of-a-call-that-may-raise": (
        'def pick(mode):\n    if mode not in ("a", "b"):\n        raise ValueError(mode)\n    return good\n'
        + "try:\n    k = pick(m)\nexcept ValueError:\n    k = bad\n"
        + launch("k"),
        {"good", "bad"},
    ),
    "value-error-handler-of-a-call-that-calls": (
        'def pick(mode):\n    return int(mode) and good\ntry:\n    k = pick("a")\nexcept ValueError:\n    k = bad\n'
        + launch("k"),
        {"good", "bad"},
    ),
    # A closure rebinding its maker's cell from its own value (`fast = not fast`), called at import.
    "closure-toggle-first-call": (
        "def make():\n    fast = False\n    def toggle():\n        nonlocal fast\n        fast = not fast\n"
        + "        return bad if fast else good\n    return toggle\nt = make()\n"
        + launch("t()"),
        {"bad"},
    ),
    "closure-toggle-second-call": (
        "def make():\n    fast = False\n    def toggle():\n        nonlocal fast\n        fast = not fast\n"
        + "        return bad if fast else good\n    return toggle\nt = make()\nt()\n"
        + launch("t()"),
        {"good"},
    ),
    # The test of a conditional expression always runs: the closure's call there is ordered.
    "closure-called-in-a-conditional-test": (
        "def make():\n    flag = False\n    def toggle():\n        nonlocal flag\n        flag = not flag\n"
        + "        return flag\n    return toggle\nt = make()\nt()\n"
        + launch("bad if t() else good"),
        {"good"},
    ),
    "closure-called-in-a-later-operand-of-and": (
        "def make():\n    flag = False\n    def toggle():\n        nonlocal flag\n        flag = not flag\n"
        + "        return flag\n    return toggle\nt = make()\nt()\n"
        + launch("bad if (True and t()) else good"),
        {"good", "bad"},
    ),
    # An instance's augmented stores (`r.n += 1`, a method's `self.n += 1`): followed in order on
    # an instance its own `__init__` made, never read as the value before them.
    "instance-augmented-at-module-level": (
        "class R:\n    def __init__(self):\n        self.n = 0\n    def step(self):\n        self.n += 1\n        return self.n\nr = R()\nr.n += 1\n"
        + launch("[bad, good][r.n]"),
        {"good"},
    ),
    "instance-augmented-by-a-method": (
        "class R:\n    def __init__(self):\n        self.n = 0\n    def step(self):\n        self.n += 1\n        return self.n\nr = R()\nr.step()\n"
        + launch("[bad, good][r.n]"),
        {"good"},
    ),
    "method-reads-what-it-stored": (
        "class R:\n    def __init__(self):\n        self.n = 0\n    def step(self):\n        self.n += 1\n        return self.n\nr = R()\n"
        + launch("[bad, good][r.step()]"),
        {"good"},
    ),
    "method-stores-then-returns-a-field": (
        "class Op:\n    def __init__(self):\n        self.k = good\n    def switch(self):\n        self.k = bad\n"
        + "        return self.k\nop = Op()\nop.k = good\n"
        + launch("op.switch()"),
        {"bad"},
    ),
    "instance-augmented-in-a-function": (
        "class R:\n    def __init__(self):\n        self.n = 0\n    def step(self):\n        self.n += 1\n        return self.n\nr = R()\ndef f():\n    r.n += 1\nf()\n"
        + launch("[bad, good][r.n]"),
        {"bad", "good"},
    ),
    # A class attribute counter: the class body's value, then each change at import in order.
    "class-counter-in-init": (
        "class T:\n    n = 0\n    def __init__(self):\n        T.n += 1\nT()\nT()\n" + launch("[bad, bad, good][T.n]"),
        {"good"},
    ),
    "class-counter-in-a-classmethod": (
        "class T:\n    n = 0\n    @classmethod\n    def take(cls):\n        cls.n += 1\nT.take()\n"
        + launch("[bad, good][T.n]"),
        {"good"},
    ),
    "class-counter-read-before-a-later-change": (
        "class T:\n    n = 0\nT.n += 1\nk = [bad, good][T.n]\nT.n += 1\n" + launch("k"),
        {"good"},
    ),
    "class-counter-of-a-class-made-in-a-function-too": (
        "class T:\n    n = 0\n    def __init__(self):\n        T.n += 1\ndef f():\n    T()\nT()\n"
        + launch("[bad, good][T.n]"),
        {"bad", "good"},
    ),
    # Changes of a list or dict in place: followed (clear, heapq, bisect, an item's `+=`), or
    # leaving its contents unknown when they are not (`random.shuffle`), never as they were.
    "dict-cleared-then-a-default": ("T = {'k': bad}\nT.clear()\n" + launch("T.get('k', good)"), {"good"}),
    "heapify-puts-the-least-first": (
        "import heapq\nP = [(2, 'g'), (1, 'b')]\nheapq.heapify(P)\n" + launch("{'g': good, 'b': bad}[P[0][1]]"),
        {"bad"},
    ),
    "insort-keeps-the-order": (
        "import bisect\nP = [(1, 'g'), (3, 'g')]\nbisect.insort(P, (0, 'b'))\n"
        + launch("{'g': good, 'b': bad}[P[0][1]]"),
        {"bad"},
    ),
    "list-item-incremented": ("S = [0]\nS[0] += 1\n" + launch("[good, bad][S[0]]"), {"bad"}),
    "dict-item-counter": ("C = {'n': 0}\nC['n'] += 1\nC['n'] += 1\n" + launch("[bad, bad, good][C['n']]"), {"good"}),
    "dict-item-counter-after-a-plain-store": (
        "C = {'n': 0}\nC['n'] = 5\nC['n'] -= 4\n" + launch("[bad, good][C['n']]"),
        {"good"},
    ),
    "dict-item-counter-changed-after-the-read": (
        "C = {'n': 0}\nk = [good, bad][C['n']]\nC['n'] += 1\n" + launch("k"),
        {"good"},
    ),
    "typed-dict-call": (
        "import typing\nclass C(typing.TypedDict):\n    fn: object\nc = C(fn=bad)\n" + launch("c['fn']"),
        {"bad"},
    ),
    "typed-dict-subclass-call": (
        "import typing\nclass C(typing.TypedDict):\n    fn: object\nclass D(C):\n    n: int\n"
        "d = D(fn=bad, n=1)\n" + launch("d['fn']"),
        {"bad"},
    ),
    "new-returning-a-dict": (
        "class C:\n    def __new__(cls, **kw):\n        return dict(kw)\n" + launch("C(fn=good)['fn']"),
        {"good"},
    ),
    "dataclass-init-var-to-post-init": (
        "import dataclasses\n@dataclasses.dataclass\nclass S:\n    fast: dataclasses.InitVar[bool]\n"
        "    fn: object = None\n    def __post_init__(self, fast):\n        self.fn = bad if fast else good\n"
        + launch("S(False).fn"),
        {"good"},
    ),
    "singledispatchmethod-by-annotation": (
        "import functools\nclass P:\n    @functools.singledispatchmethod\n    def pick(self, arg):\n        return good\n"
        "    @pick.register\n    def _(self, arg: int):\n        return bad\n" + launch("P().pick(3)"),
        {"bad"},
    ),
    "closing-calls-close-on-leaving": (
        "import contextlib\nclass T:\n    def __init__(self):\n        self.fn = bad\n    def close(self):\n"
        "        self.fn = good\nwith contextlib.closing(T()) as t:\n    inside = t.fn\n" + launch("t.fn"),
        {"good"},
    ),
    "closing-inside-the-block": (
        "import contextlib\nclass T:\n    def __init__(self):\n        self.fn = bad\n    def close(self):\n"
        "        self.fn = good\nwith contextlib.closing(T()) as t:\n    k = t.fn\n" + launch("k"),
        {"bad"},
    ),
    "own-exit-runs-on-leaving": (
        "class T:\n    def __init__(self):\n        self.fn = bad\n    def __enter__(self):\n        return self\n"
        "    def __exit__(self, *exc):\n        self.fn = good\nwith T() as t:\n    pass\n" + launch("t.fn"),
        {"good"},
    ),
    "json-loads-of-a-constant": (
        "import json\nC = json.loads('{\"v\": 1}')\n" + launch("[bad, good][C['v']]"),
        {"good"},
    ),
    "json-loads-then-a-store": (
        "import json\nC = json.loads('{\"n\": {\"a\": 1}}')\nC['n']['a'] = 0\n" + launch("[good, bad][C['n']['a']]"),
        {"good"},
    ),
    "json-loads-that-fails-is-not-known": (
        "import json\nC = json.loads('{oops')\n" + launch("[good, bad][C['v']]"),
        {"good", "bad"},
    ),
    "delattr-falls-back-to-the-base": (
        "class B:\n    fn = staticmethod(good)\nclass C(B):\n    fn = staticmethod(bad)\ndelattr(C, 'fn')\n"
        + launch("C.fn"),
        {"good"},
    ),
    "min-by-a-user-lt": (
        "class E:\n    def __init__(self, r, fn):\n        self.r, self.fn = r, fn\n    def __lt__(self, o):\n"
        "        return self.r < o.r\n" + launch("min([E(2, bad), E(1, good)]).fn"),
        {"good"},
    ),
    "max-by-a-user-lt-reflected": (
        "class E:\n    def __init__(self, r, fn):\n        self.r, self.fn = r, fn\n    def __lt__(self, o):\n"
        "        return self.r < o.r\n" + launch("max([E(2, good), E(1, bad)]).fn"),
        {"good"},
    ),
    "tee-iterators-advance-apart": (
        "import itertools\na, b = itertools.tee([good, bad])\nnext(a)\n" + launch("next(b)"),
        {"good"},
    ),
    "tee-iterator-advanced": (
        "import itertools\na, b = itertools.tee([good, bad])\nnext(a)\n" + launch("next(a)"),
        {"bad"},
    ),
    "fstring-format-spec": (
        "N = 1\nT = {'k_01': good, 'k_02': bad}\n" + launch("T[f'k_{N:02d}']"),
        {"good"},
    ),
    "fstring-conversion": (
        "N = 'a'\nT = {\"k_'a'\": good, 'k_a': bad}\n" + launch("T[f'k_{N!r}']"),
        {"good"},
    ),
    "class-mro-indexed": (
        "class B:\n    k = staticmethod(good)\nclass C(B):\n    k = staticmethod(bad)\n"
        + launch("type(C()).__mro__[1].k"),
        {"good"},
    ),
    "ordered-dict-popitem-first": (
        "import collections\nT = collections.OrderedDict([('a', good), ('b', bad)])\n_, k = T.popitem(last=False)\n"
        + launch("k"),
        {"good"},
    ),
    "ordered-dict-popitem-first-then-last": (
        "import collections\nT = collections.OrderedDict([('a', bad), ('b', bad), ('c', good)])\nT.popitem(False)\n"
        + launch("T.popitem()[1]"),
        {"good"},
    ),
    "heappop-of-priority-pairs": (
        "import heapq\nh = []\nheapq.heappush(h, (2, bad))\nheapq.heappush(h, (1, good))\n"
        + launch("heapq.heappop(h)[1]"),
        {"good"},
    ),
    "heappop-of-a-priority-tie-is-not-known": (
        "import heapq\nh = []\nheapq.heappush(h, (1, bad))\nheapq.heappush(h, (1, good))\n"
        + launch("heapq.heappop(h)[1]"),
        {"good", "bad"},
    ),
    "heappop-twice": (
        "import heapq\nh = [(3, bad), (1, good), (2, bad)]\nheapq.heapify(h)\nheapq.heappop(h)\n"
        + launch("heapq.heappop(h)[1]"),
        {"good", "bad"},
    ),
    "itertools-count-zipped": (
        "import itertools\nFNS = [bad, good]\n" + launch("dict(zip(itertools.count(5, 2), FNS))[7]"),
        {"good"},
    ),
    "mutable-default-list-accumulates": (
        "def add(k, acc=[]):\n    acc.append(k)\n    return acc\nadd(good)\nkernel = add(bad)[0]\n" + launch("kernel"),
        {"good"},
    ),
    "mutable-default-list-last": (
        "def add(k, acc=[]):\n    acc.append(k)\n    return acc\nadd(bad)\nkernel = add(good)[-1]\n" + launch("kernel"),
        {"good"},
    ),
    "mutable-default-list-kept-by-a-name-is-not-followed": (
        "def add(k, acc=[]):\n    acc.append(k)\n    return acc\nlst = add(bad)\nadd(good)\n" + launch("lst[-1]"),
        set(),
    ),
    "mutable-default-list-called-in-a-function-is-not-followed": (
        "def add(k, acc=[]):\n    acc.append(k)\n    return acc\ndef f():\n    add(bad)\nadd(good)\n"
        "kernel = add(good)[0]\n" + launch("kernel"),
        set(),
    ),
    "operator-setitem-is-a-store": (
        "import operator\nT = {'k': good}\noperator.setitem(T, 'k', bad)\n" + launch("T['k']"),
        {"bad"},
    ),
    "operator-setitem-then-a-store": (
        "import operator\nT = {'k': bad}\noperator.setitem(T, 'k', bad)\nT['k'] = good\n" + launch("T['k']"),
        {"good"},
    ),
    "operator-setitem-in-a-called-function": (
        "import operator\nT = {'k': good}\ndef f():\n    operator.setitem(T, 'k', bad)\nf()\n" + launch("T['k']"),
        {"bad"},
    ),
    "alias-read-after-the-original-grows": (
        "FNS = [good]\nsnap = FNS\nFNS.append(bad)\n" + launch("snap[-1]"),
        {"bad"},
    ),
    "copy-read-after-the-original-grows": (
        "FNS = [good]\nsnap = list(FNS)\nFNS.append(bad)\n" + launch("snap[-1]"),
        {"good"},
    ),
    "alias-of-a-name-rebound-later": (
        "FNS = [good]\nsnap = FNS\nFNS = [bad]\nFNS.append(bad)\nFNS += [bad]\n" + launch("snap[-1]"),
        {"good"},
    ),
    "alias-read-after-the-original-is-extended-by-plus-equals": (
        "FNS = [good]\nALIAS = FNS\nFNS += [bad]\n" + launch("ALIAS[-1]"),
        {"good", "bad"},
    ),
    "store-through-type-of-self": (
        "class Op:\n    fn = staticmethod(good)\n    def use(self, f):\n        type(self).fn = staticmethod(f)\n"
        "class Sub(Op):\n    pass\nSub().use(bad)\n" + launch("Sub.fn"),
        {"bad"},
    ),
    "while-test-assignment-expression": (
        "FNS = [bad, good, bad]\ni = 0\nwhile (i := i + 1) < 1:\n    pass\n" + launch("FNS[i]"),
        {"good"},
    ),
    "while-test-assignment-expression-and-body": (
        "FNS = [bad, bad, good]\ni = 0\nn = 0\nwhile (i := i + 1) < 3:\n    n += 1\n" + launch("FNS[n]"),
        {"good"},
    ),
    "while-test-assignment-expression-from-an-unknown-start": (
        "FNS = [bad, good]\ni = q\nwhile (i := i + 1) < 2:\n    pass\n" + launch("FNS[i]"),
        {"good", "bad"},
    ),
    "list-append-of-its-own-element": (
        "FNS = [bad, good]\nFNS.append(FNS[-1])\n" + launch("FNS[2]"),
        {"good"},
    ),
    "list-extend-by-itself": (
        "FNS = [good]\nFNS.extend(FNS)\nFNS.append(bad)\n" + launch("FNS[1]"),
        {"good"},
    ),
    "slice-object-subscript": (
        "SEL = slice(1, None)\n" + launch("[bad, good][SEL][0]"),
        {"good"},
    ),
    "slice-object-reversed": (
        "SEL = slice(None, None, -1)\n" + launch("[bad, good][SEL][0]"),
        {"good"},
    ),
    "slice-object-of-an-unknown-bound": (
        "SEL = slice(n, None)\n" + launch("[bad, good][SEL][0]"),
        set(),
    ),
    "globals-subscript-store-binds-the-name": (
        "KERNEL = bad\nglobals()['KERNEL'] = good\n" + launch("KERNEL"),
        {"good"},
    ),
    "globals-update-binds-the-name": (
        "KERNEL = bad\nglobals().update(KERNEL=good)\n" + launch("KERNEL"),
        {"good"},
    ),
    "globals-store-before-a-plain-binding": (
        "globals()['KERNEL'] = bad\nKERNEL = good\n" + launch("KERNEL"),
        {"good"},
    ),
    # A function reads a module-level list as the module's straight-line stores left it (it had
    # read the display's element); called at import before a store, it reads the list as it stood.
    "list-item-replaced-read-in-a-function": (
        "L = [bad]\nL[0] = good\ndef get():\n    return L[0]\n" + launch("get()"),
        {"good"},
    ),
    "list-item-replaced-through-an-alias-read-in-a-function": (
        "L = [good]\nM = L\nM[0] = bad\ndef get():\n    return L[0]\n" + launch("get()"),
        {"bad"},
    ),
    "list-item-read-by-a-call-before-the-store": (
        "L = [bad]\ndef get():\n    return L[0]\nK = get()\nL[0] = good\n" + launch("K"),
        {"bad"},
    ),
    "list-item-store-before-the-name-is-rebound": (
        "L = [bad]\nL[0] = good\nL = [bad]\ndef get():\n    return L[0]\n" + launch("get()"),
        {"bad"},
    ),
    # `got = yield from inner()` is what the generator inner returns (None when it runs off its end).
    "yield-from-gives-the-generator-return-value": (
        "def inner():\n    yield 1\n    return bad\ndef outer():\n    got = yield from inner()\n    yield got\n"
        + launch("list(outer())[-1]"),
        {"bad"},
    ),
    "yield-from-straight-run-keeps-the-inner-yields-first": (
        "def inner():\n    yield good\n    return bad\ndef outer():\n    got = yield from inner()\n    yield got\n"
        + launch("next(outer())"),
        {"good"},
    ),
    "yield-from-a-generator-returning-by-a-branch": (
        "def inner():\n    yield 1\n    if c:\n        return bad\n    return good\n"
        "def outer():\n    got = yield from inner()\n    yield got\n" + launch("list(outer())[-1]"),
        {"good", "bad"},
    ),
    # A dict view used up where it is made shows the dict as it is then; one kept stays live.
    "keys-copied-by-list-before-a-store": (
        "T = {'plain': good}\nnames = list(T.keys())\nT['fast'] = bad\n" + launch("T[names[-1]]"),
        {"good"},
    ),
    "keys-iterated-by-a-comprehension-before-a-store": (
        "T = {'plain': good}\nnames = [n for n in T.keys()]\nT['fast'] = bad\n" + launch("T[names[-1]]"),
        {"good"},
    ),
    "keys-view-kept-is-live": (
        "T = {'plain': good}\nnames = T.keys()\nT['fast'] = bad\n" + launch("T[list(names)[-1]]"),
        {"bad"},
    ),
    # Set operations between a keys view and a set of constants; a one-element set's pop().
    "keys-view-minus-a-set-popped": (
        "KS = {'a': good, 'b': bad}\n" + launch("KS[(KS.keys() - {'b'}).pop()]"),
        {"good"},
    ),
    "keys-view-and-a-set-popped": ("KS = {'a': good, 'b': bad}\n" + launch("KS[(KS.keys() & {'b'}).pop()]"), {"bad"}),
    "pop-of-a-set-of-two-is-not-known": (
        "KS = {'a': good, 'b': bad, 'c': good}\n" + launch("KS[(KS.keys() - {'b'}).pop()]"),
        {"good", "bad"},
    ),
    "list-item-stored-under-an-if": (
        "L = [good]\nif flag:\n    L[0] = bad\n" + launch("L[0]"),
        {"good", "bad"},
    ),
    "list-item-stored-by-a-called-function": (
        "L = [good]\ndef f():\n    L[0] = bad\nf()\n" + launch("L[0]"),
        {"good", "bad"},
    ),
    "list-item-set-by-operator-setitem-in-a-loop": (
        "import operator\nL = [good, good]\nfor i in range(2):\n    operator.setitem(L, i, bad)\n" + launch("L[0]"),
        {"good", "bad"},
    ),
    "shuffled-list-is-not-known": (
        "import random\nF = [bad, good]\nrandom.shuffle(F)\n" + launch("F[0]"),
        {"good", "bad"},
    ),
    # `v is True` of a bool the interpreter does not know may hold; of a number it never does.
    "is-true-of-an-unknown-bool": (
        "import random\nv = random.random() > 0.5\n" + launch("bad if v is True else good"),
        {"good", "bad"},
    ),
    "is-true-of-a-number": ("v = 1\n" + launch("bad if v is True else good"), {"good"}),
    "closure-reads-its-cell-before-storing": (
        "def make():\n    n = 0\n    def step():\n        nonlocal n\n        old = n\n        n += 1\n"
        + "        return old\n    return step\nstep = make()\nstep()\n"
        + launch("[good, bad, good][step()]"),
        {"good", "bad"},
    ),
    # An `except NameError` handler of a try body reading only names bound on every path never runs.
    "name-error-handler-of-a-bound-name": (
        "k = good\ntry:\n    k\nexcept NameError:\n    k = bad\n" + launch("k"),
        {"good"},
    ),
    "name-error-handler-of-a-name-bound-under-an-if": (
        "if c:\n    k = good\ntry:\n    k\nexcept NameError:\n    k = bad\n" + launch("k"),
        {"good", "bad"},
    ),
    "name-error-handler-of-a-deleted-name": (
        "k = good\ndel k\ntry:\n    k\nexcept NameError:\n    k = bad\n" + launch("k"),
        {"good", "bad"},
    ),
    "rebound-in-each-round-before-the-read": (
        "for _ in range(n):\n    i = 0\n    " + launch("[good, bad][i]") + "    i = 1\n",
        {"good"},
    ),
    "loop-target-rebound-in-each-round": ("for k in [good, good]:\n    " + launch("k") + "    k = bad\n", {"good"}),
    # A function storing a global, called only under an `if` never taken, or after the read.
    "global-store-under-a-branch-never-taken": (
        "K = good\nDEBUG = False\ndef choose():\n    global K\n    K = bad\nif DEBUG:\n    choose()\n" + launch("K"),
        {"good"},
    ),
    "global-store-by-a-later-call": (
        "K = good\ndef choose():\n    global K\n    K = bad\n" + launch("K") + "choose()\n",
        {"good"},
    ),
    "dropwhile-in-order": (launch("next(iter(itertools.dropwhile(lambda k: k is bad, [bad, good])))"), {"good"}),
    "generator-return-ends-it": (
        "def gen():\n    yield good\n    return\n    yield bad\n" + launch("list(gen())[-1]"),
        {"good"},
    ),
    "next-of-a-generator-call": (
        "def gen():\n    yield from [good]\n    yield from [bad]\n" + launch("next(gen())"),
        {"good"},
    ),
    # Sets of constants: a display, set() and frozenset() of known strings; one changed in place
    # (`add`, `update`, ... on its name or on what may be it) is no constant.
    "frozenset-membership": ("B = 'tpu'\n" + launch("bad if B in frozenset({'tpu', 'gpu'}) else good"), {"bad"}),
    "set-of-a-tuple": ("NAMES = set(('a', 'b'))\n" + launch("bad if 'c' in NAMES else good"), {"good"}),
    "set-display-added-to": ("S = {'a'}\nS.add('b')\n" + launch("bad if 'b' in S else good"), {"good", "bad"}),
    "set-call-updated": ("S = set(['a'])\nS.update(['b'])\n" + launch("bad if 'b' in S else good"), {"good", "bad"}),
    "set-in-a-dict-added-to": (
        "D = {'k': {'a'}}\nD['k'].add('b')\n" + launch("bad if 'b' in D['k'] else good"),
        {"good", "bad"},
    ),
    # Arrays: `len` is the leading dimension; a jax array is a `jax.Array` (and `jnp.ndarray`), a
    # numpy array of known shape an `np.ndarray`; a numpy value of unknown shape may be a scalar.
    "len-of-an-array": ("x = jax.numpy.ones((8, 128))\n" + launch("bad if len(x) == 8 else good"), {"bad"}),
    "isinstance-jax-array": (
        "x = jax.numpy.ones((8,))\n" + launch("bad if isinstance(x, jax.Array) else good"),
        {"bad"},
    ),
    "isinstance-numpy-of-a-jax-array": (
        "import numpy as np\nx = jax.numpy.ones((8,))\n" + launch("bad if isinstance(x, np.ndarray) else good"),
        {"good"},
    ),
    "isinstance-of-a-numpy-scalar-undecided": (
        "import numpy as np\n" + launch("bad if isinstance(np.float32(1), np.ndarray) else good"),
        {"good", "bad"},
    ),
    # An instance's own attribute, stored surely by the `__init__` its class runs, hides a class
    # attribute that is no data descriptor (a property wins; a subclass's `__init__` may not store).
    "instance-attribute-hides-class-attribute": (
        "class Op:\n    k = staticmethod(bad)\n    def __init__(self):\n        self.k = good\n" + launch("Op().k"),
        {"good"},
    ),
    "instance-attribute-stored-under-an-if": (
        "class Op:\n    k = staticmethod(bad)\n    def __init__(self, f):\n        if f:\n            self.k = good\n"
        + launch("Op(g).k"),
        {"good", "bad"},
    ),
    "subclass-init-does-not-store": (
        "class Op:\n    k = staticmethod(bad)\n    def __init__(self):\n        self.k = good\n"
        "class Sub(Op):\n    def __init__(self):\n        pass\n" + launch("Sub().k"),
        {"bad"},
    ),
    # IntEnum members compute as their values; Enum(value) with no such member asks `_missing_`.
    "int-enum-arithmetic": (
        "import enum\nclass L(enum.IntEnum):\n    LO = 1\n    HI = 2\n" + launch("[bad, good, bad][L.HI - L.LO]"),
        {"good"},
    ),
    "int-enum-compared-with-an-int": (
        "import enum\nclass L(enum.IntEnum):\n    LO = 1\n" + launch("good if L.LO == 1 else bad"),
        {"good"},
    ),
    "enum-missing-hook": (
        "import enum\nclass M(enum.Enum):\n    A = 'a'\n    B = 'b'\n"
        "    @classmethod\n    def _missing_(cls, value):\n        return cls.B\n"
        + launch("{'a': bad, 'b': good}[M('zzz').value]"),
        {"good"},
    ),
    "typing-namedtuple-replace": (
        "class Cfg(typing.NamedTuple):\n    k: typing.Any\n    n: int = 1\n" + launch("Cfg(bad)._replace(k=good).k"),
        {"good"},
    ),
    # `next` of a fresh map/filter/zip/enumerate iterator over a known sequence: its first element.
    "next-of-map": (launch("next(map(lambda f: f, [good, bad]))"), {"good"}),
    "next-of-filter": (launch("next(filter(lambda f: f is not bad, [bad, good]))"), {"good"}),
    "next-of-zip": (launch("next(zip([good, bad], [1, 2]))[0]"), {"good"}),
    # Blocks that run after a statement's body: a `for` loop's `else:` when no element breaks, a
    # `finally:` always, a `try`'s `else:` when its body cannot raise.
    "for-else-never-breaks": (
        "for n in ('a', 'b'):\n    if n == 'z':\n        k = bad\n        break\nelse:\n    k = good\n" + launch("k"),
        {"good"},
    ),
    "for-else-after-a-break": (
        "for f in (good, bad):\n    if f is good:\n        k = f\n        break\nelse:\n    k = bad\n" + launch("k"),
        {"good"},
    ),
    "for-else-break-undecided": (
        "for f in (good, bad):\n    if c:\n        k = f\n        break\nelse:\n    k = bad\n" + launch("k"),
        {"good", "bad"},
    ),
    "for-else-decided-by-a-calling-argument": (
        "T = {4: good, 2: bad}\ndef pick(rows):\n    for limit, k in sorted(T.items()):\n        if rows <= limit:\n"
        "            break\n    else:\n        k = good\n    return k\n" + launch("pick(8)"),
        {"good"},
    ),
    "finally-overwrites": ("try:\n    k = bad\nfinally:\n    k = good\n" + launch("k"), {"good"}),
    "try-else-of-a-body-that-cannot-raise": (
        "try:\n    n = 1\nexcept ValueError:\n    k = bad\nelse:\n    k = good\n" + launch("k"),
        {"good"},
    ),
    "try-else-of-a-body-that-may-raise": (
        "k = bad\ntry:\n    n = f()\nexcept ValueError:\n    pass\nelse:\n    k = good\n" + launch("k"),
        {"good", "bad"},
    ),
    # A `while` loop that only rebinds names runs as Python runs it, read after the loop.
    "while-halving-a-block": (
        "M = 384\nbm = 512\nwhile M % bm:\n    bm //= 2\n" + launch("{128: good}.get(bm, bad)"),
        {"good"},
    ),
    "while-counter-in-a-function": (
        "def pick(k):\n    j = 1\n    while j < k:\n        j *= 2\n    return [bad, bad, good][j // 4]\n"
        + launch("pick(5)"),
        {"good"},
    ),
    "while-two-names": (
        "n, a = 0, 0\nwhile n < 3:\n    n += 1\n    a = a + n\n" + launch("{6: good}.get(a, bad)"),
        {"good"},
    ),
    "while-test-undecided": ("i = 0\nwhile c:\n    i += 1\n" + launch("[good, bad][i]"), {"good", "bad"}),
    "while-with-a-break-followed": (
        "i = 0\nwhile i < 3:\n    i += 1\n    if i == 1:\n        break\n" + launch("[good, bad, bad, bad][i]"),
        {"bad"},
    ),
    # Aliases and copies: a list grown through another name bound to it is one list; a copy is
    # another object (a deep copy's inner dicts too), so a store into it leaves the original.
    "list-grown-through-an-alias": ("A = [bad]\nB = A\nB.append(good)\n" + launch("A[-1]"), {"good"}),
    "list-copy-grown": ("A = [good]\nB = A[:]\nB.append(bad)\n" + launch("A[-1]"), {"good"}),
    "deepcopy-inner-store": (
        "import copy\nC = {'o': {'k': good}}\nD = copy.deepcopy(C)\nD['o']['k'] = bad\n" + launch("C['o']['k']"),
        {"good"},
    ),
    "copy-store": ("import copy\nC = {'k': good}\nD = copy.copy(C)\nD['k'] = bad\n" + launch("C['k']"), {"good"}),
    "shallow-copy-inner-store": (
        "import copy\nC = {'o': {'k': bad}}\nD = copy.copy(C)\nD['o']['k'] = good\n" + launch("C['o']['k']"),
        {"good"},
    ),
    "list-sorted-in-place": (
        "FNS = [bad, good]\nFNS.sort(key=lambda f: f.__name__, reverse=True)\n" + launch("FNS[0]"),
        {"good"},
    ),
    # `type()` of a constant, tuple, list or dict is its builtin type: compared, or a dict key.
    "dispatch-on-a-builtin-type": ("N = 3\n" + launch("{int: good, str: bad}[type(N)]"), {"good"}),
    "builtin-type-compared": ("N = 'a'\n" + launch("bad if type(N) is int else good"), {"good"}),
    "next-power-of-2": ("N = 200\n" + launch("good if pl.next_power_of_2(N) == 256 else bad"), {"good"}),
    # A class body reads a name it binds only later from the enclosing scope (LOAD_NAME).
    "class-body-rebinds-a-global": (
        "class Ops:\n    good = staticmethod(good)\n" + launch("Ops.__dict__['good'].__func__"),
        {"good"},
    ),
    "attribute-stored-through-an-alias": (
        "class Box:\n    def __init__(self):\n        self.k = bad\nb = Box()\nb2 = b\nb2.k = good\n" + launch("b.k"),
        {"good"},
    ),
    # itertools in order: each element where Python puts it (the models once gave only the first).
    "accumulate-folds-prefixes": (launch("[bad, bad, good][list(itertools.accumulate([1, 1]))[-1]]"), {"good"}),
    "product-last-pair": (launch("list(itertools.product((1, 2), (bad, good)))[-1][1]"), {"good"}),
    "zip-longest-fills": (launch("list(itertools.zip_longest([bad], [], fillvalue=good))[0][1]"), {"good"}),
    "pairwise-second-item": (launch("list(itertools.pairwise([bad, good, bad]))[0][1]"), {"good"}),
    "filterfalse-keeps-rejected": (launch("list(itertools.filterfalse(lambda f: f is bad, [bad, good]))[0]"), {"good"}),
    "counter-most-common": (
        "KS = {'good': good, 'bad': bad}\n"
        + launch("KS[collections.Counter(['bad', 'good', 'good']).most_common(1)[0][0]]"),
        {"good"},
    ),
    "bool-without-arguments": (launch("bad if bool() else good"), {"good", "bad"}),  # undecided, not a crash
    "guard-undecided": (
        "def run(k, f):\n    if f:\n        return None\n    " + launch("k") + "run(good, g)\nrun(bad, h)\n",
        {"good", "bad"},
    ),
    # Constants computed as Python computes them: string slices and methods with keywords, int
    # methods, bools in arithmetic, three-argument pow, sums of comparisons.
    "string-reversed-by-a-slice": ("KS = {'good': good, 'bad': bad}\n" + launch("KS['doog'[::-1]]"), {"good"}),
    "string-method-with-a-keyword": (
        "KS = {'good': good, 'bad': bad}\n" + launch("KS['bad good'.rsplit(maxsplit=1)[-1]]"),
        {"good"},
    ),
    "int-bit-length": ("FNS = [good, bad]\n" + launch("FNS[(4).bit_length() - 3]"), {"good"}),
    "bools-added": ("FAST, DEBUG = False, False\nFNS = [good, bad]\n" + launch("FNS[FAST + DEBUG]"), {"good"}),
    "bools-anded-stay-bools": ("FNS = [good, bad]\n" + launch("FNS[True & False]"), {"good"}),
    "pow-with-a-modulus": ("FNS = [good, bad]\n" + launch("FNS[pow(2, 2, 4)]"), {"good"}),
    "sum-of-comparisons": ("FNS = [good, bad]\n" + launch("FNS[sum(v > 2 for v in (1, 2))]"), {"good"}),
    "flag-is-true": ("class C:\n    fast = False\n" + launch("bad if C.fast is True else good"), {"good"}),
    "one-is-not-true": (launch("bad if 1 is True else good"), {"good"}),
    # dataclasses: astuple, fields' defaults, order=True comparisons.
    "dataclass-astuple": (
        "@dataclasses.dataclass\nclass P:\n    a: object\n    b: object\n"
        + launch("dataclasses.astuple(P(good, bad))[0]"),
        {"good"},
    ),
    "dataclass-fields-default-value": (
        "@dataclasses.dataclass\nclass C:\n    n: int = 1\n    k: object = good\n"
        + launch("dataclasses.fields(C)[1].default"),
        {"good"},
    ),
    "dataclass-order-min": (
        "@dataclasses.dataclass(order=True)\nclass I:\n    p: int\n    k: str\n"
        "KS = {'good': good, 'bad': bad}\nIMPLS = [I(2, 'bad'), I(1, 'good')]\n" + launch("KS[min(IMPLS).k]"),
        {"good"},
    ),
    # A `for` loop that only rebinds names under `if`s, run element by element.
    "for-loop-selection-run-round-by-round": (
        "R = {int: bad, str: good}\ndef call(arg):\n    chosen = bad\n    for cls, f in R.items():\n"
        "        if isinstance(arg, cls):\n            chosen = f\n    return chosen\n" + launch("call('s')"),
        {"good"},
    ),
    "for-loop-selection-no-match-keeps-the-start": (
        "R = {int: bad}\ndef call(arg):\n    chosen = good\n    for cls, f in R.items():\n"
        "        if isinstance(arg, cls):\n            chosen = f\n    return chosen\n" + launch("call('s')"),
        {"good"},
    ),
    # A method that stores into `self`'s dict, called at import: its store is seen.
    "registry-filled-by-a-method-at-import": (
        "class Reg:\n    def __init__(self):\n        self.d = {}\n    def add(self, k, f):\n        self.d[k] = f\n"
        "reg = Reg()\nreg.add('a', bad)\n" + launch("reg.d['a']"),
        {"bad"},
    ),
    # What a loop run during the import-time pass computed is not kept: the registry was half-filled
    # then (before: only the default, a missed kernel).
    "loop-over-a-registry-filled-at-import": (
        "class SD:\n    def __init__(self, f):\n        self.default = f\n        self.registry = {}\n"
        "    def register(self, cls, f=None):\n        if f is not None:\n            self.registry[cls] = f\n"
        "        return f\n    def __call__(self, arg):\n        chosen = self.default\n"
        "        for cls, f in self.registry.items():\n            if isinstance(arg, cls):\n"
        "                chosen = f\n        return chosen\npick = SD(good)\npick.register(int, bad)\n"
        + launch("pick(3)"),
        {"bad"},  # the registry holds int (keys stored by seen calls are known, as strings are): never just good
    ),
    # match statements: sequence, class and mapping patterns, guards reading the captures.
    "match-tuple-pattern": (
        "def pick(m):\n    match m:\n        case (1, _):\n            return bad\n        case _:\n            return good\n"
        + launch("pick((2, 8))"),
        {"good"},
    ),
    "match-star-pattern-capture-from-the-end": (
        "def pick(m):\n    match m:\n        case [*_, last]:\n            return last\n    return bad\n"
        + launch("pick([bad, good])"),
        {"good"},
    ),
    "match-class-keyword-pattern": (
        "class Cfg:\n    def __init__(self, fast):\n        self.fast = fast\n"
        "def pick(m):\n    match m:\n        case Cfg(fast=True):\n            return bad\n        case _:\n            return good\n"
        + launch("pick(Cfg(False))"),
        {"good"},
    ),
    "match-guard-reads-the-capture": (
        "def pick(m):\n    match m:\n        case int(n) if n > 3:\n            return bad\n        case _:\n            return good\n"
        + launch("pick(2)"),
        {"good"},
    ),
    # Enum members: a property runs its getter on the member; `index` finds members by identity.
    "enum-member-property": (
        "import enum\nclass Mode(enum.Enum):\n    FAST = 1\n    SAFE = 2\n    @property\n    def kernel(self):\n"
        "        return bad if self is Mode.FAST else good\n" + launch("Mode.SAFE.kernel"),
        {"good"},
    ),
    "enum-members-index": (
        "import enum\nclass Mode(enum.Enum):\n    A = 'a'\n    B = 'b'\nFNS = [good, bad]\n"
        + launch("FNS[list(Mode).index(Mode.A)]"),
        {"good"},
    ),
    "one-element-set-iterated": ("KS = {'good': good, 'bad': bad}\n" + launch("KS[next(iter({'good'}))]"), {"good"}),
    "unbound-str-method-mapped": (
        "KS = {'good': good, 'bad': bad}\n" + launch("KS[list(map(str.lower, ['GOOD', 'BAD']))[0]]"),
        {"good"},
    ),
    # Iterating vars() of a class: its namespace's names (Python's dunders first and last).
    "class-vars-iterated-and-filtered": (
        "class Impls:\n    plain = staticmethod(good)\n    fast = staticmethod(bad)\n"
        "T = {k: getattr(Impls, k) for k in vars(Impls) if not k.startswith('_')}\n" + launch("T['plain']"),
        {"good"},
    ),
    # A sentinel `object()` is never a constant: `name is _MISSING` of a string is False.
    "sentinel-default-given-a-name": (
        "KS = {'good': good}\n_MISSING = object()\ndef pick(name=_MISSING):\n    return bad if name is _MISSING else KS[name]\n"
        + launch("pick('good')"),
        {"good"},
    ),
    "sentinel-default-left-out": (
        "KS = {'good': good}\n_MISSING = object()\ndef pick(name=_MISSING):\n    return bad if name is _MISSING else KS[name]\n"
        + launch("pick()"),
        {"good", "bad"},  # (Python: bad) one object() read twice is not known to be one object
    ),
    # An `__init_subclass__` appending the new class runs at each subclass's class statement, in order.
    "init-subclass-list-registry-in-order": (
        "REG = []\nclass Impl:\n    def __init_subclass__(cls, **kw):\n        super().__init_subclass__(**kw)\n"
        "        REG.append(cls)\nclass A(Impl):\n    k = staticmethod(bad)\nclass B(Impl):\n    k = staticmethod(good)\n"
        + launch("REG[-1].k"),
        {"good"},
    ),
    "init-subclass-list-registry-a-grandchild-too": (
        "REG = []\nclass Impl:\n    def __init_subclass__(cls):\n        REG.append(cls)\nclass A(Impl):\n"
        "    k = staticmethod(bad)\nclass B(A):\n    k = staticmethod(good)\n" + launch("REG[1].k"),
        {"good"},
    ),
    "init-subclass-list-registry-read-before-a-later-class": (
        "REG = []\nclass Impl:\n    def __init_subclass__(cls):\n        REG.append(cls)\nclass A(Impl):\n"
        "    k = staticmethod(good)\n" + launch("REG[-1].k") + "class B(Impl):\n    k = staticmethod(bad)\n",
        {"good"},
    ),
    # A closure's nonlocal cell at import: the earlier calls' stores, in order (values/cells.py).
    "nonlocal-counter-called-before": (
        "FNS = [bad, good, bad]\ndef counter():\n    n = -1\n    def step():\n        nonlocal n\n        n += 1\n        return n\n    return step\nstep = counter()\nstep()\n"
        + launch("FNS[step()]"),
        {"good"},
    ),
    "nonlocal-counter-called-in-an-earlier-expression": (
        "FNS = [bad, good, bad]\ndef counter():\n    n = -1\n    def step():\n        nonlocal n\n        n += 1\n        return n\n    return step\nstep = counter()\nfirst = step()\n"
        + launch("FNS[step()]"),
        {"good"},
    ),
    "nonlocal-counter-called-under-an-if": (
        "import os\nFNS = [bad, good, bad]\ndef counter():\n    n = -1\n    def step():\n        nonlocal n\n        n += 1\n        return n\n    return step\nstep = counter()\nif os.environ.get('X'):\n    step()\n"
        + launch("FNS[step()]"),
        {"good", "bad"},
    ),
    "nonlocal-counter-called-in-a-conditional-expression": (
        "import os\nFNS = [bad, good, bad]\ndef counter():\n    n = -1\n    def step():\n        nonlocal n\n        n += 1\n        return n\n    return step\nstep = counter()\nfirst = step() if os.environ.get('X') else 0\n"
        + launch("FNS[step()]"),
        {"good", "bad"},
    ),
    "nonlocal-counter-handed-on": (
        "FNS = [bad, good, bad]\ndef counter():\n    n = -1\n    def step():\n        nonlocal n\n        n += 1\n        return n\n    return step\nstep = counter()\nstep()\nHOOKS = [step]\n"
        + launch("FNS[step()]"),
        {"good", "bad"},
    ),
    "nonlocal-counter-maker-called-twice": (
        "FNS = [bad, good, bad]\ndef counter():\n    n = -1\n    def step():\n        nonlocal n\n        n += 1\n        return n\n    return step\nstep = counter()\nother = counter()\nstep()\n"
        + launch("FNS[step()]"),
        {"good", "bad"},
    ),
    "nonlocal-setter-and-getter": (
        "def make():\n    k = bad\n    def set_(f):\n        nonlocal k\n        k = f\n    def get():\n        return k\n"
        "    return set_, get\nset_k, get_k = make()\nset_k(good)\n" + launch("get_k()"),
        {"good"},
    ),
    # enum.Flag members combine with | (auto() gives 1, 2, 4, ...); `in` tests their bits.
    "flag-membership-of-a-combination": (
        "import enum\nclass F(enum.Flag):\n    A = enum.auto()\n    B = enum.auto()\n    C = enum.auto()\n"
        "on = F.A | F.C\n" + launch("bad if F.B in on else good"),
        {"good"},
    ),
    "flag-and-is-true": (
        "import enum\nclass F(enum.Flag):\n    A = 1\n    B = 2\non = F.A | F.B\n"
        + launch("good if on & F.B else bad"),
        {"good"},
    ),
    # A loop that breaks: what the round that broke it left (simple_loops.py).
    "for-target-after-a-break": (
        "FNS = [bad, bad, good, bad]\nfor i, f in enumerate(FNS):\n    if i == 2:\n        break\n" + launch("f"),
        {"good"},
    ),
    "while-true-counter-to-a-break": (
        "FNS = [bad, good, bad]\ni = 0\nwhile True:\n    if FNS[i] is good:\n        break\n    i += 1\n"
        + launch("FNS[i]"),
        {"good"},
    ),
    "for-target-after-a-break-not-decided": (
        "import os\nFNS = [bad, good]\nfor f in FNS:\n    if os.environ.get('X'):\n        break\n" + launch("f"),
        {"good", "bad"},
    ),
    "max-of-nothing-is-its-default": (launch("max([], default=good, key=lambda f: f.__name__)"), {"good"}),
    "max-of-something-ignores-its-default": (launch("max([good], default=bad)"), {"good"}),
    "groupby-first-run": (
        "KS = {'good': good, 'bad': bad}\nROWS = [('good', 1), ('good', 2), ('bad', 3)]\n"
        "key, _ = next(itertools.groupby(ROWS, key=operator.itemgetter(0)))\n" + launch("KS[key]"),
        {"good"},
    ),
    # `with suppress(KeyError):` may leave its body at a failing lookup: what came before stays.
    "suppress-keeps-the-earlier-binding-when-a-lookup-fails": (
        "import contextlib\nKS = {'good': good}\nk = bad\nwith contextlib.suppress(KeyError):\n    k = KS['nope']\n"
        + launch("k"),
        {"bad"},
    ),
    "suppress-body-that-cannot-fail-overwrites": (
        "import contextlib\nKS = {'good': good}\nk = bad\nwith contextlib.suppress(KeyError):\n    k = KS['good']\n"
        + launch("k"),
        {"good"},
    ),
    "list-item-stored-through-an-alias": (
        "impls = [good]\nalias = impls\nalias[0] = bad\n" + launch("impls[0]"),
        {"bad"},
    ),
    # A dict filled in a module-level loop over an enum, keyed by the members.
    "dict-filled-by-enum-members-in-a-loop": (
        "import enum\nclass Mode(enum.Enum):\n    A = 'good'\n    B = 'bad'\nKS = {'good': good, 'bad': bad}\n"
        "TABLE = {}\nfor mode in Mode:\n    TABLE[mode] = KS[mode.value]\n" + launch("TABLE[Mode.A]"),
        {"good"},
    ),
    # A class statement inside a function: its body reads the call's names.
    "class-made-in-a-function-closes-over-its-arguments": (
        "def build(k):\n    class Op:\n        kernel = staticmethod(k)\n    return Op\n"
        + launch("build(good).kernel"),
        {"good"},
    ),
    "method-of-a-class-made-in-a-function": (
        "def build(flag):\n    class Op:\n        @staticmethod\n        def pick():\n            return bad if flag else good\n"
        "    return Op\n" + launch("build(False).pick()"),
        {"good"},
    ),
    # A walrus in a comprehension's condition, read by its element, through an assignment.
    "walrus-in-a-comprehension-condition": (
        "KS = {'good': good, 'bad': bad}\nnames = ['x', 'good']\nkernel = [k for n in names if (k := KS.get(n))][0]\n"
        + launch("kernel"),
        {"good"},
    ),
    "heapq-nsmallest": (
        "KS = {'good': good, 'bad': bad}\n" + launch("KS[heapq.nsmallest(1, [(3, 'bad'), (1, 'good')])[0][1]]"),
        {"good"},
    ),
    # An instance's own attribute hides a static method of its class (no data descriptor).
    "instance-attribute-hides-a-static-method": (
        "class Op:\n    k = staticmethod(bad)\nop = Op()\nop.k = good\n" + launch("op.k"),
        {"good"},
    ),
    "static-method-read-through-an-instance": (
        "class Op:\n    k = staticmethod(bad)\nop = Op()\nop.k = good\n" + launch("type(op).k"),
        {"bad"},
    ),
    # A class's own __getattribute__ answers every attribute read of its instances.
    "getattribute-of-the-program": (
        "KS = {'good': good, 'bad': bad}\nclass Ns:\n    def __getattribute__(self, name):\n        return KS[name]\n"
        + launch("Ns().good"),
        {"good"},
    ),
    # A function's __qualname__: the classes and functions around it.
    "qualname-of-a-static-method": (
        "class A:\n    @staticmethod\n    def good(x, o):\n        o[...] = x[...]\n    @staticmethod\n"
        "    def bad(x, o):\n        return x[...]\n"
        + launch("next(f for f in (A.good, A.bad) if f.__qualname__ == 'A.good')"),
        {"good"},
    ),
    "qualname-of-a-nested-def": (
        "def make():\n    def k(x, o):\n        o[...] = x[...]\n    return k\nKS = {'good': good, 'bad': bad}\n"
        + launch("KS['good' if make().__qualname__ == 'make.<locals>.k' else 'bad']"),
        {"good"},
    ),
    # A list appended to in a `for` loop over a known sequence holds each iteration's value, in order.
    "loop-appends-each-element-in-order": (
        "out = []\nfor f in (good, bad):\n    out.append(f)\n" + launch("out[0]"),
        {"good"},
    ),
    "loop-appends-in-a-function": (
        "def make():\n    out = []\n    for f in (bad, good):\n        out.append(f)\n    return out\n"
        + launch("make()[1]"),
        {"good"},
    ),
    "loop-appends-lambdas-with-a-default": (
        "out = []\nfor f in (bad, good):\n    out.append(lambda f=f: f)\n" + launch("out[1]()"),
        {"good"},
    ),
    # ... but a closure made in the loop reads the loop's variable late: called after the loop,
    # its last value, whichever closure it is.
    "loop-appends-closures-reading-the-loop-variable": (
        "out = []\nfor f in (bad, good):\n    out.append(lambda: f)\n" + launch("out[0]()"),
        {"good"},
    ),
    "loop-appends-defs-reading-the-loop-variable": (
        "def make():\n    out = []\n    for f in (bad, good):\n        def k():\n            return f\n"
        "        out.append(k)\n    return out\n" + launch("make()[0]()"),
        {"good"},
    ),
    "loop-appended-closure-run-through-the-list-in-the-loop": (
        "out = []\nran = []\nfor f in (bad, good):\n    out.append(lambda: f)\n    ran.append(out[-1]())\n"
        + launch("ran[0]"),
        {"bad", "good"},
    ),
    # A closure called in the loop reads the iteration's value: never only the last (here both:
    # the list's order is not followed when its elements close over the loop's names).
    "loop-closure-called-in-the-loop-reads-each-value": (
        "def run(g):\n    return g()\nout = []\nfor f in (bad, good):\n    out.append(run(lambda: f))\n"
        + launch("out[0]"),
        {"bad", "good"},
    ),
    "loop-two-appends-interleave": (
        "out = []\nfor f in (good, bad):\n    out.append(f)\n    out.append(good)\n" + launch("out[0]"),
        {"bad", "good"},
    ),
    # move_to_end moves an item to the end (last=False: to the front); popitem is not followed.
    "ordereddict-move-to-end": (
        "od = collections.OrderedDict(a=bad, b=good)\nod.move_to_end('a')\n" + launch("next(iter(od.values()))"),
        {"good"},
    ),
    "ordereddict-move-to-front": (
        "od = collections.OrderedDict(a=good, b=bad)\nod.move_to_end('b', last=False)\n"
        + launch("next(iter(od.values()))"),
        {"bad"},
    ),
    "ordereddict-moved-through-an-attribute-is-not-known": (
        "class H:\n    od = collections.OrderedDict(a=good, b=bad)\nH.od.move_to_end('a')\n"
        + launch("next(iter(H.od.values()))"),
        set(),
    ),
    # list(map(register, fns)) calls the registrar on each, in order; a bare map() is lazy.
    "registrar-mapped-over-a-list": (
        "T = {}\ndef register(fn):\n    T[fn.__name__] = fn\n    return fn\nlist(map(register, [good, bad]))\n"
        + launch("T['good']"),
        {"good"},
    ),
    "list-registrar-mapped-over-a-list": (  # (a KeyError in the engine before)
        "REG = []\ndef register(fn):\n    REG.append(fn)\n    return fn\nlist(map(register, [good, bad]))\n"
        + launch("REG[1]"),
        {"bad"},
    ),
    # A module-level store under an `if` whose condition folds to a constant runs or not as it says.
    "store-in-a-branch-not-taken": (
        "FAST = False\nT = {}\nT['k'] = good\nif FAST:\n    T['k'] = bad\ndef get():\n    return T['k']\n"
        + launch("get()"),
        {"good"},
    ),
    "store-in-an-else-not-taken": (
        "FAST = True\nT = {}\nif FAST:\n    T['k'] = bad\nelse:\n    T['k'] = good\ndef get():\n    return T['k']\n"
        + launch("get()"),
        {"bad"},
    ),
    "reversed-of-a-constant-string": (
        "KS = {'good': good, 'bad': bad}\n" + launch("KS[''.join(reversed('doog'))]"),
        {"good"},
    ),
    "set-union-of-constant-sets": (
        "FAST = frozenset({'a'}) | {'x'}\n" + launch("good if 'x' in FAST else bad"),
        {"good"},
    ),
    "set-difference-of-constant-sets": (
        "SLOW = {'a', 'x'} - {'x'}\n" + launch("bad if 'x' in SLOW else good"),
        {"good"},
    ),
    "set-intersection-decides": ("BOTH = {'a', 'x'} & {'x'}\n" + launch("good if 'x' in BOTH else bad"), {"good"}),
    # A namedtuple's _asdict() and its class's _fields.
    "namedtuple-asdict": (
        "Impl = collections.namedtuple('Impl', 'plain fast')\n" + launch("Impl(good, bad)._asdict()['plain']"),
        {"good"},
    ),
    "typed-namedtuple-fields": (
        "class Impl(typing.NamedTuple):\n    plain: typing.Any\n    fast: typing.Any\n"
        + launch("getattr(Impl(good, bad), Impl._fields[0])"),
        {"good"},
    ),
    # A store of a property runs its setter; the value stored never lands under the property's name.
    "property-setter-decides-what-is-stored": (
        "class Op:\n    def __init__(self):\n        self._k = good\n    @property\n    def k(self):\n"
        "        return self._k\n    @k.setter\n    def k(self, v):\n        self._k = good if v is bad else v\n"
        "op = Op()\nop.k = bad\n" + launch("op.k"),
        {"good"},
    ),
    "bytes-decoded-to-a-key": ("KS = {'good': good, 'bad': bad}\n" + launch("KS[b'good'.decode()]"), {"good"}),
    "len-of-a-set-of-constants": ("KS = [good, bad]\n" + launch("KS[len(set(['a', 'a'])) - 1]"), {"good"}),
    # functools.wraps records the function it wraps as __wrapped__.
    "wrapped-of-a-wraps-decorated-def": (
        "@functools.wraps(bad)\ndef safe(x, o):\n    good(x, o)\n" + launch("safe.__wrapped__"),
        {"bad"},
    ),
}


@pytest.mark.parametrize("name", CASES)
def test_kernels_through_models(name):
    code, expected = CASES[name]
    assert kernels(code) == expected


def test_a_dataclass_default_function_is_not_bound():
    """`kernel: Callable = good` is the instance's attribute: no `self` is bound, so the kernel's
    refs are all the launch's (a bound method would make PAL004 count one too few)."""
    code = (
        "@dataclasses.dataclass\nclass C:\n    k: object = good\n"
        "pl.pallas_call(C().k, out_shape=jax.ShapeDtypeStruct((8, 128), jax.numpy.float32))(x)\n"
    )
    assert [f.code for f in analyze_source(PL + KERNELS + code)] == []
    assert kernels(code) == {"good"}
    bound = code.replace("@dataclasses.dataclass\n", "")  # a plain class attribute IS bound
    assert [f.code for f in analyze_source(PL + KERNELS + bound)] == ["PAL004"]


def _public_names(module: str) -> set[str]:
    model = models.module_model(module)
    assert model is not None
    return {name for name in model.module_scope.bindings if not name.startswith("_") and name != "Any"}


def test_every_model_is_listed_in_the_readme():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("### What the interpreter models", 1)[1].split("\n## ", 1)[0]
    for module in sorted(models.MODELLED_MODULES):
        for name in sorted(_public_names(module)):
            assert f"`{module}.{name}`" in section or f"`{name}`" in section, (module, name)


def test_models_are_found_by_qualified_name_only_for_public_names():
    assert models.modelled("operator.attrgetter") is not None
    assert models.modelled("contextlib._GeneratorContextManager") is None
    assert models.modelled("operator.no_such_function") is None
    assert models.modelled("attrgetter") is None


def test_model_files_are_plain_python():
    for module in models.MODELLED_MODULES:
        ast.parse((ROOT / "pallas_ls" / "engine" / "values" / "models" / f"{module}.py").read_text(encoding="utf-8"))


TREE = "import jax.numpy as jnp\ns = jax.ShapeDtypeStruct((8, 128), jnp.float32)\nx = jnp.ones((8, 128))\n"


@pytest.mark.parametrize(
    ("tree", "codes"),
    [
        ("(x, x)", ["PAL004"]),  # two outputs for a kernel of one
        ("x", []),
        ("[x]", []),  # a list of one: one output
        ("[x, x, x]", ["PAL004"]),
        ("{'a': x, 'b': x}", []),  # a dict is ONE parameter
        ("unknown_tree", []),
    ],
)
def test_tree_map_keeps_the_structure_of_out_shape(tree, codes):
    """`jax.tree.map(f, tree)` has the tree's structure, `f` applied to each leaf."""
    code = TREE + f"shapes = jax.tree.map(lambda a: jax.ShapeDtypeStruct(a.shape, a.dtype), {tree})\n"
    code += "pl.pallas_call(good, out_shape=shapes)(x)\n"
    assert [f.code for f in analyze_source(PL + KERNELS + code)] == codes


def test_tree_map_of_arrays_gives_arrays_a_kernel_captures():
    code = TREE + 'P = jax.tree.map(lambda a: a * 2, {"w": x})\n'
    code += "def k(x_ref, o_ref):\n    o_ref[...] = x_ref[...] * P['w']\npl.pallas_call(k, out_shape=s)(x)\n"
    assert [f.code for f in analyze_source(PL + code)] == ["PAL003"]
    assert [f.code for f in analyze_source(PL + code.replace("* P['w']", "* len(P)"))] == []


@pytest.mark.parametrize(
    ("result", "codes"),
    [
        ("a * 2, a + 1", ["PAL004"]),  # a pair of shapes: two outputs for a kernel of one
        ("a * 2", []),
        ("[a]", []),
        ("{'y': a, 'z': a}", []),  # a dict is ONE parameter
        ("(a, 1.0)", ["PAL004"]),  # a Python number is a shape too
        ("helper(a)", []),  # a result not known: silence
    ],
)
def test_eval_shape_has_the_structure_of_the_function_result(result, codes):
    """`jax.eval_shape(f, x)` traces `f`: its result's tree, each array a ShapeDtypeStruct."""
    code = TREE + f"def reference(a):\n    return {result}\n"
    code += "pl.pallas_call(good, out_shape=jax.eval_shape(reference, x))(x)\n"
    assert [f.code for f in analyze_source(PL + KERNELS + code)] == codes


def test_eval_shape_results_are_shapes_not_arrays_a_kernel_captures():
    code = TREE + "def reference(a):\n    return a * 2\nOUT = jax.eval_shape(reference, x)\n"
    code += "def k(x_ref, o_ref):\n    o_ref[...] = x_ref[...] * OUT\npl.pallas_call(k, out_shape=s)(x)\n"
    assert [f.code for f in analyze_source(PL + code)] == []


@pytest.mark.parametrize(
    ("table", "expected"),
    [
        ("{bad: 9, good: 5}", {"bad"}),  # a def of the module's body is one object: a known key
        ("{bad: 1, good: 5}", {"good"}),
        # defs a factory makes are new objects at each call: not known keys, nothing is known
        ("{make(bad): 9, make(good): 5}", set()),
    ],
)
def test_functions_defined_once_are_dict_keys(table, expected):
    code = "def make(k):\n    def inner(x, o):\n        return k(x, o)\n    return inner\n"
    code += f"P = {table}\n" + launch("max(P, key=P.get)")
    assert kernels(code) == expected


@pytest.mark.parametrize(
    ("kernel", "codes"),
    [
        ("functools.partial(run, bad)", ["PAL001"]),  # the bound `impl` returns a value
        ("functools.partial(run, good)", []),
        ("types.MethodType(run_method, Op(bad))", ["PAL001"]),  # a method bound by hand
        ("types.MethodType(run_method, Op(good))", []),
        ("functools.partial(run, unknown)", []),
    ],
)
def test_a_partial_binds_the_positional_parameters_a_kernel_calls(kernel, codes):
    code = "def run(impl, x_ref, o_ref):\n    return impl(x_ref, o_ref)\n"
    code += "class Op:\n    def __init__(self, impl):\n        self.impl = impl\n"
    code += "def run_method(self, x_ref, o_ref):\n    return self.impl(x_ref, o_ref)\n"
    code += f"pl.pallas_call({kernel}, out_shape=s)(x)\n"
    assert [f.code for f in analyze_source(PL + KERNELS + code)] == codes


@pytest.mark.parametrize(("mode", "codes"), [('"fast"', ["PAL001"]), ('"plain"', []), ("unknown", ["PAL001"])])
def test_a_partialmethod_binds_the_keyword_a_method_kernel_branches_on(mode, codes):
    code = (
        "class Ops:\n    def _run(self, x_ref, o_ref, *, mode):\n        if mode == 'fast':\n"
        "            return x_ref[...]\n        o_ref[...] = x_ref[...]\n"
        f"    chosen = functools.partialmethod(_run, mode={mode})\n"
        "pl.pallas_call(Ops().chosen, out_shape=s)(x)\n"
    )
    assert [f.code for f in analyze_source(PL + code)] == codes


FLAGGED = "def body(x_ref, o_ref, fused=False, *, extra=False):\n    if fused or extra:\n        return x_ref[...]\n    o_ref[...] = x_ref[...]\n"


@pytest.mark.parametrize(
    ("kernel", "codes"),
    [
        ("body", []),  # both flags keep their False defaults
        ("functools.partial(body, fused=False)", []),
        ("functools.partial(body, fused=True)", ["PAL001"]),
        ("functools.partial(body, extra=True)", ["PAL001"]),
        ("functools.partial(body, fused=flag)", ["PAL001"]),  # not known: the return may run
    ],
)
def test_returns_under_flags_the_launch_decides(kernel, codes):
    """A return in a branch of a flag that a partial binds, or that keeps its default (the launch
    passes refs only), runs only when the flag says so."""
    code = FLAGGED + f"pl.pallas_call({kernel}, out_shape=jax.ShapeDtypeStruct((8, 128), 'f4'))(x)\n"
    assert [f.code for f in analyze_source(PL + code)] == codes


@pytest.mark.parametrize(
    ("spec", "codes"),
    [
        ("dict(out_shape=[s, s])", ["PAL004"]),  # two outputs for a kernel of one, read through **
        ("dict(out_shape=s)", []),
        ("{'out_shape': s, **more}", []),  # keys not all known: the splat hides the arguments
        ("unknown", []),
    ],
)
def test_a_splatted_dict_of_known_keys_is_read_as_keywords(spec, codes):
    code = f"spec = {spec}\npl.pallas_call(good, **spec)(x)\n"
    assert [f.code for f in analyze_source(PL + KERNELS + code)] == codes


@pytest.mark.parametrize(("fused", "codes"), [("False", []), ("True", ["PAL001"]), ("flag", ["PAL001"])])
def test_a_bound_method_kernel_sees_its_instance(fused, codes):
    """`pl.pallas_call(self._kernel, ...)`: the receiver is the kernel's `self`, so a branch on
    `self.fused` is decided by the instance launched (unknown `flag`: the return may run)."""
    code = (
        "class Double:\n    def __init__(self, fused):\n        self.fused = fused\n"
        "    def _kernel(self, x_ref, o_ref):\n        if self.fused:\n            return x_ref[...]\n"
        "        o_ref[...] = x_ref[...]\n"
        "    def __call__(self, x):\n        return pl.pallas_call(self._kernel, out_shape=s)(x)\n"
        f"Double({fused})(x)\n"
    )
    assert [f.code for f in analyze_source(PL + code)] == codes


@pytest.mark.parametrize(
    ("loop", "codes"),
    [
        ("for _ in range(2):\n    inputs.append(x)\n", ["PAL004"]),  # two inputs for a kernel of one
        ("for _ in range(1):\n    inputs.append(x)\n", []),
        ("for _ in (1, 2):\n    inputs.extend([x])\n", ["PAL004"]),
        ("for _ in range(2):\n    inputs.append(x)\n    if len(inputs) > 1:\n        break\n", []),  # not followed
        ("for _ in range(n):\n    inputs.append(x)\n", []),  # how many times: unknown
        # in a helper, the loop's bound is the call's argument
        (
            "def grow(k):\n    out = []\n    for _ in range(k):\n        out.append(x)\n    return out\ninputs += grow(2)\n",
            ["PAL004"],
        ),
        (
            "def grow(k):\n    out = []\n    for _ in range(k):\n        out.append(x)\n    return out\ninputs += grow(1)\n",
            [],
        ),
    ],
)
def test_a_list_grown_in_a_loop_over_a_known_sequence(loop, codes):
    """An append straight in a `for` loop over a known sequence runs once per element."""
    code = TREE + "inputs = []\n" + loop + "pl.pallas_call(good, out_shape=s)(*inputs)\n"
    assert [f.code for f in analyze_source(PL + KERNELS + code)] == codes


@pytest.mark.parametrize(
    ("replaced", "codes"),
    [
        ("", ["PAL001"]),
        ("pick.__defaults__ = (good,)\n", []),  # the def's default may no longer stand
        ("pick.__kwdefaults__ = {'f': good}\n", []),
    ],
)
def test_defaults_replaced_after_the_def_are_not_taken_for_the_defs(replaced, codes):
    code = TREE + "def pick(x, o, f=bad):\n    return f(x, o)\n" + replaced + "pl.pallas_call(pick, out_shape=s)(x)\n"
    assert [f.code for f in analyze_source(PL + KERNELS + code)] == codes


def test_a_list_copied_to_another_name_in_a_function_grows_through_it():
    grow = "def grow():\n    out = []\n    more = out\n    more.append(x)\n    more.append(x)\n    return out\n"
    code = TREE + grow + "pl.pallas_call(good, out_shape=s)(*grow())\n"
    assert [f.code for f in analyze_source(PL + KERNELS + code)] == ["PAL004"]


@pytest.mark.parametrize(("out_shape", "codes"), [("s", []), ("(s, s)", ["PAL001"])])
def test_a_star_parameter_holds_the_rest_of_the_refs(out_shape, codes):
    kernel = "def k(x_ref, *outs):\n    for o in outs:\n        o[...] = x_ref[...]\n    if len(outs) > 1:\n        return x_ref[...]\n"
    code = TREE + kernel + f"pl.pallas_call(k, out_shape={out_shape})(x)\n"
    assert [f.code for f in analyze_source(PL + code)] == codes


def test_setup_functions_calling_each_other_are_not_followed_round_and_round():
    """(Before, the replay recursed until the interpreter caught the RecursionError.)"""
    code = (
        "REG = []\ndef reg(f):\n    REG.append(f)\n    return f\ndef a():\n    reg(good)\n    b()\n"
        "def b():\n    a()\na()\n" + launch("REG[0]") + launch("bad")
    )
    assert [f.code for f in analyze_source(PL + KERNELS + TREE + code)] == ["PAL001"]


def test_a_when_decorator_bound_to_a_name_runs_its_body():
    code = (
        TREE + "def k(x_ref, o_ref):\n    first = pl.when(pl.program_id(0) == 0)\n    @first\n    def _():\n"
        "        return x_ref[...]\n    o_ref[...] = x_ref[...]\npl.pallas_call(k, out_shape=s, grid=(1,))(x)\n"
    )
    assert [f.code for f in analyze_source(PL + code)] == ["PAL007"]


def test_a_list_read_inside_the_loop_that_grows_it_is_not_counted():
    code = (
        TREE + "inputs = []\nfor _ in range(2):\n    inputs.append(x)\n    pl.pallas_call(good, out_shape=s)(*inputs)\n"
    )
    assert [f.code for f in analyze_source(PL + KERNELS + code)] == []


@pytest.mark.parametrize(("params", "codes"), [("x_ref, a_ref, b_ref", []), ("x_ref, o_ref", ["PAL004"])])
def test_a_named_tuple_out_shape_is_a_tuple_of_outputs(params, codes):
    code = TREE + "class Outs(typing.NamedTuple):\n    a: object\n    b: object\n"
    code += f"def k({params}):\n    pass\npl.pallas_call(k, out_shape=Outs(a=s, b=s))(x)\n"
    assert [f.code for f in analyze_source(PL + code)] == codes


@pytest.mark.parametrize(
    ("body", "codes"),
    [
        # The else of a loop over a non-empty sequence whose body always breaks never runs.
        ("    for _ in range(2):\n        o[...] = x[...]\n        break\n    else:\n        return o[...]\n", []),
        ("    for _ in range(0):\n        break\n    else:\n        return o[...]\n", ["PAL001"]),
        (
            "    for _ in range(2):\n        if x[0, 0] > 0:\n            continue\n        break\n"
            "    else:\n        return o[...]\n",
            ["PAL001"],
        ),
        ("    for _ in range(2):\n        o[...] = x[...]\n    else:\n        return o[...]\n", ["PAL001"]),
        # `while False:` never runs its body; `while True:` never runs its else.
        ("    while False:\n        return x[...]\n    o[...] = x[...]\n", []),
        ("    while True:\n        o[...] = x[...]\n        break\n    else:\n        return x[...]\n", []),
        ("    n = 0\n    while n < 1:\n        n += 1\n    else:\n        return x[...]\n", ["PAL001"]),
    ],
)
def test_returns_in_loop_blocks_that_never_run(body, codes):
    code = "import jax.numpy as jnp\ns = 1\nx = 1\ndef k(x, o):\n" + body + "pl.pallas_call(k, out_shape=s)(x)\n"
    assert [f.code for f in analyze_source(PL + code)] == codes

"""Qualified names: which local expressions denote which module-level objects.

`import jax.experimental.pallas as pl` makes `pl.pallas_call` mean
`jax.experimental.pallas.pallas_call`; a local `def pallas_call` means nothing of the kind.
Everything is resolved from bindings, never from the bare text.
"""

from __future__ import annotations

import ast
import re

from .model import Binding, Loc, ModuleModel

# How many assignments / partials we follow before giving up (cycles, absurd chains).
MAX_DEPTH = 8

# Entry points whose kernel must return None, by every public and private spelling.
ENTRY_POINTS: dict[str, str] = {
    "jax.experimental.pallas.pallas_call": "pallas_call",
    "jax._src.pallas.pallas_call.pallas_call": "pallas_call",
    "jax.experimental.pallas.kernel": "kernel",
    "jax._src.pallas.helpers.kernel": "kernel",
    "jax._src.pallas.mpmd.mpmd_map": "mpmd_map",
    "jax.experimental.pallas.core_map": "core_map",
    "jax._src.pallas.core.core_map": "core_map",
    "jax.experimental.pallas.mosaic_gpu.warp_map": "warp_map",
    "jax._src.pallas.mosaic_gpu.helpers.warp_map": "warp_map",
}

PARTIAL = "functools.partial"

# Module prefixes whose import makes a file worth analysing (the cheap prefilter).
# Namespaces never read as project source (they are not the user's code).
EXTERNAL_ROOTS = frozenset(
    {
        "jax",
        "jaxlib",
        "numpy",
        "np",
        "functools",
        "math",
        "typing",
        "dataclasses",
        "collections",
        "itertools",
        "os",
        "sys",
        "re",
        "abc",
        "enum",
        "contextlib",
        "operator",
        "types",
        "absl",
        "flax",
        "optax",
        "chex",
        "ml_dtypes",
        "einops",
        "__future__",
        "warnings",
        "logging",
        "time",
        "json",
        "pathlib",
        "inspect",
        "weakref",
        "copy",
        "importlib",
        "string",
        "textwrap",
        "pytest",
        "unittest",
        "typing_extensions",
        "builtins",
    }
)

PALLAS_MARKERS = ("pallas",)


def qualname(expr: ast.AST, loc: Loc, model: ModuleModel, depth: int = 0) -> str | None:
    """The dotted name an expression denotes through imports, or None when it is not one."""
    if depth > MAX_DEPTH:
        return None
    if isinstance(expr, ast.Name):
        bindings = model.lookup(expr.id, loc)
        if not bindings:
            return None
        names = {_binding_qualname(b, model, depth) for b in bindings}
        return names.pop() if len(names) == 1 else None
    if isinstance(expr, ast.Attribute):
        base = qualname(expr.value, loc, model, depth + 1)
        return f"{base}.{expr.attr}" if base else None
    return None


def _binding_qualname(binding: Binding, model: ModuleModel, depth: int) -> str | None:
    if binding.kind == "import":
        return binding.qualname
    if binding.kind == "assign" and isinstance(binding.value, (ast.Name, ast.Attribute)):
        return qualname(binding.value, Loc(binding.scope, binding.stmt), model, depth + 1)
    return None


def is_qualname(expr: ast.AST, loc: Loc, model: ModuleModel, *names: str) -> bool:
    return qualname(expr, loc, model) in names


def call_qualname(call: ast.Call, loc: Loc, model: ModuleModel) -> str | None:
    return qualname(call.func, loc, model)


def is_partial_call(node: ast.AST, loc: Loc, model: ModuleModel) -> bool:
    return isinstance(node, ast.Call) and bool(node.args) and qualname(node.func, loc, model) == PARTIAL


def single_assignment(expr: ast.AST, loc: Loc, model: ModuleModel) -> tuple[ast.expr, Loc] | None:
    """For a name bound by exactly one reaching `name = value`: (value, where value is evaluated)."""
    if not isinstance(expr, ast.Name):
        return None
    bindings = model.lookup(expr.id, loc)
    if len(bindings) != 1 or bindings[0].kind != "assign" or bindings[0].value is None:
        return None
    b = bindings[0]
    value = b.value
    return (value, Loc(b.scope, b.stmt)) if value is not None else None


def keyword_argument(call: ast.Call, name: str) -> ast.expr | None:
    """The value a call passes for keyword `name`, if written."""
    for keyword in call.keywords:
        if keyword.arg == name:
            return keyword.value
    return None


def callee_name(call: ast.Call) -> str | None:
    """The name a call's callee is written with: `f` of `f(x)`, `g` of `obj.g(x)` (None: another
    expression, `f()(x)`)."""
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def has_star_arguments(call: ast.Call) -> bool:
    """`f(*args)` or `f(**kwargs)`: arguments we cannot see."""
    return has_star_positionals(call) or any(k.arg is None for k in call.keywords)


def has_star_positionals(call: ast.Call) -> bool:
    """`f(*args)`: positional arguments we cannot count (a `**spec` splat may still be read)."""
    return any(isinstance(a, ast.Starred) for a in call.args)


def mentions(node: ast.AST, *names: str) -> bool:
    """Whether a node (a statement, an expression, a def) mentions one of `names` as a name."""
    return any(isinstance(sub, ast.Name) and sub.id in names for sub in ast.walk(node))


def mentions_pallas(text: str) -> bool:
    """Cheap prefilter: a file that never says "pallas" cannot import an entry point.

    It may still define kernels launched from another module; the project index handles that by
    asking for the files it needs explicitly.
    """
    return "pallas" in text


_IMPORT_LINE = re.compile(r"^\s*(?:from\s+([.\w]+)\s+import|import\s+([.\w]+))", re.MULTILINE)


def imported_modules(text: str) -> list[str]:
    """The dotted module names a text's import lines spell (a cheap scan, no parse): `from .a
    import b` gives `.a`, `import x.y as z` gives `x.y`.  Only lines saying "import" are matched:
    the pattern tried at every position of a whole text cost three times more (every cached file's
    key asks this, issue 33)."""
    found = []
    for line in text.split("\n"):
        if "import" in line:
            m = _IMPORT_LINE.match(line)
            if m is not None and (m.group(1) or m.group(2)):
                found.append(m.group(1) or m.group(2))
    return found


_IMPORT_STATEMENT = re.compile(
    r"^[ \t]*(?:from[ \t]+([.\w]+)[ \t]+import[ \t]*(\([^)]*\)|[^\n#;]*)|import[ \t]+([^\n#;]*))", re.MULTILINE
)


def import_statements(text: str) -> list[tuple[str, list[str]]]:
    """Each import line's module and the names it imports from it (a cheap scan, no parse):
    `from a.b import c, d as e` gives ("a.b", ["c", "d"]), `import x.y as z, w` gives ("x.y", [])
    and ("w", [])."""
    found: list[tuple[str, list[str]]] = []
    for m in _IMPORT_STATEMENT.finditer(text):
        if m.group(1):
            items = re.sub(r"#[^\n]*", "", m.group(2)).strip("()").replace("\\", " ").split(",")
            found.append((m.group(1), [words[0] for words in (i.split() for i in items) if words]))
        else:
            for item in m.group(3).replace("\\", " ").split(","):
                words = item.split()
                if words and re.fullmatch(r"[\w.]+", words[0]):
                    found.append((words[0], []))
    return found

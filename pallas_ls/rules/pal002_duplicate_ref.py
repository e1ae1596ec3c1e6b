"""PAL002 duplicate-ref-argument: one Ref object passed twice to one kernel call."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ..engine.analysis import ModuleAnalysis
from ..engine.findings import Applicability, Finding, Fix, Related, Severity
from ..engine.kernels import KernelSite, Launch, interpreter_for
from ..engine.layout import launch_layout, positional_parameters
from ..engine.model import Loc, ModuleModel
from ..engine.refs import RefArgument, duplicate_refs
from ..engine.rewrite import remove_argument, remove_parameter, rename_uses
from ..engine.values import flow
from ..engine.values.domain import EMPTY_ENV, Env, Param, Ref
from .base import Example

CODE = "PAL002"
NAME = "duplicate-ref-argument"
SEVERITY = Severity.ERROR
SUMMARY = "The same Ref is passed more than once to one call of a Pallas kernel"

DOCS = """
## What it does
Reports a Ref passed more than once to a single call of a callable made by `pl.kernel(...)`,
`mpmd_map(...)` or `pallas_call(...)`, counting tuples, lists, dicts and `*[...]` written in the
call, aliases (`v = r`, `a, b = r, r`) and `.at[...]` views of the same ref. A call inside a
function is also checked with the arguments of each call of that function seen in the project,
and a call inside a `for` loop over a known short sequence in each iteration (`bufs[i]` and
`bufs[(i + 2) % 2]`). Keyword arguments are not counted: JAX rejects a keyword argument to these
callables before it looks for duplicates.

## Why is this bad?
`pl.kernel` and `mpmd_map` flatten their arguments and refuse to alias one Ref with itself:

    NotImplementedError: Cannot pass the same ref into a mpmd map multiple times

`pallas_call` has no such check of its own, but the `jax.jit` it runs under rejects it:

    ValueError: only one reference to a mutable array may be passed as an argument to a function

## What is not reported
Only values that are provably Refs count: made by `jax.new_ref`, `jax.ref.new_ref`,
`jax.empty_ref` or `pl.empty_ref_like`, or a ref parameter of an enclosing kernel. The same *array*
twice is fine; two refs made from one array are distinct objects; a name assigned again is a new
object; the same ref in two separate calls is fine. One constructor call in a loop or a
comprehension makes a new Ref each time it runs (`src, dst = [jax.new_ref(v) for v in xs]` are two
objects); such a Ref counts as passed twice only when one name or attribute path is read twice in
the call (`f(r, r)` inside the loop).

## How to fix
For `pl.kernel` / `mpmd_map`: pass the ref once and use the one kernel parameter for both roles
(the quick fix does this when the kernel is launched only there, both arguments are whole refs
in every context (not only in one caller's or one iteration's)
and no binding in the kernel captures the renamed name; it is unsafe, applied only with
`--unsafe-fixes`: the kernel's signature changes and one buffer plays two roles), or make a second ref
(`jax.new_ref(x)` again) when two buffers are really meant. For `pallas_call`, whose inputs are
arrays: pass `jax.freeze(r)` or `r[...]` (in jax 0.10 a `pallas_call` takes no Ref argument at all,
so passing the ref once fails too); no fix is offered there.
"""

_MESH_PRELUDE = """\
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)


@pl.kernel(mesh=mesh, interpret=pltpu.InterpretParams())
def add(a_ref, b_ref):
    pltpu.sync_copy(a_ref, b_ref)


x = jnp.ones((8, 128), jnp.float32)
"""

_MPMD_ERROR = "Cannot pass the same ref into a mpmd map multiple times"

# The preferred fix merges the kernel's second parameter into its first.
_MERGED_PRELUDE = _MESH_PRELUDE.replace(
    "def add(a_ref, b_ref):\n    pltpu.sync_copy(a_ref, b_ref)", "def add(a_ref):\n    pltpu.sync_copy(a_ref, a_ref)"
)
_REF_UNCHANGED = "assert (jax.freeze(r) == x).all()\n"


def _kernel_program(body: str, call: str = "add(r, «r»)") -> str:
    """A pl.kernel `add(a_ref, b_ref)` with `body`, called with one ref twice."""
    return (
        _MESH_PRELUDE.replace("    pltpu.sync_copy(a_ref, b_ref)\n", body)
        + f"r = jax.new_ref(x)\n{call}\n"
        + _REF_UNCHANGED
    )


# Merging `b_ref` into `a_ref` renames `b_ref`; a binding of either name inside the kernel would
# capture the renamed uses, so no merge is offered (one example per binding form).
_BINDING_FORMS = {
    "def": "    if x.ndim == 0:\n        def a_ref():\n            pass\n",
    "import-as": "    if x.ndim == 0:\n        import os as a_ref\n",
    "except-as": "    try:\n        pass\n    except ValueError as a_ref:\n        pass\n",
    "case-pattern": "    match x.ndim:\n        case 0 as a_ref:\n            pass\n        case _:\n            pass\n",
    "lambda-parameter": "    unused = lambda b_ref: b_ref\n",
}
_NESTED_USE_BODY = "    @pl.when(True)\n    def _():\n        pltpu.sync_copy(a_ref, b_ref)\n"

EXAMPLES = [
    Example(
        "same-ref-twice",
        _MESH_PRELUDE + "r = jax.new_ref(x)\nadd(r, «r»)\n" + _REF_UNCHANGED,
        valid=False,
        jax_error=_MPMD_ERROR,
        fixed=_MERGED_PRELUDE + "r = jax.new_ref(x)\nadd(r)\n" + _REF_UNCHANGED,
        fix_applicability=Applicability.UNSAFE,
    ),
    Example(
        "through-an-alias",
        _MESH_PRELUDE + "r = jax.new_ref(x)\nv = r\nadd(r, «v»)\n" + _REF_UNCHANGED,
        valid=False,
        jax_error=_MPMD_ERROR,
        fixed=_MERGED_PRELUDE + "r = jax.new_ref(x)\nv = r\nadd(r)\n" + _REF_UNCHANGED,
        fix_applicability=Applicability.UNSAFE,
    ),
    Example(
        "nested-in-a-pytree",
        _MESH_PRELUDE.replace(
            "def add(a_ref, b_ref):\n    pltpu.sync_copy(a_ref, b_ref)",
            'def add(refs, more):\n    pltpu.sync_copy(refs[0], more["b"])',
        )
        # jax.empty_ref has no eager evaluation rule ("Evaluation rule for 'empty_ref' not
        # implemented"): it makes a Ref only under a trace, so this example runs under jit.
        + "\n\n@jax.jit\ndef run(x):\n    r = jax.empty_ref(jax.typeof(x))\n"
        '    add((r,), {"b": «r»})\n    return jax.freeze(r)\n\n\nrun(x)\n',
        valid=False,
        jax_error=_MPMD_ERROR,
    ),
    Example(
        "pallas-call-under-jit",
        """\
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def add(x_ref, y_ref, o_ref):
    o_ref[...] = x_ref[...] + y_ref[...]


r = jax.new_ref(jnp.ones((8, 128), jnp.float32))
out = pl.pallas_call(add, out_shape=jax.ShapeDtypeStruct((8, 128), jnp.float32), interpret=True)(r, «r»)
assert (out == 2).all()
""",
        valid=False,
        jax_error="only one reference to a mutable array may be passed",
    ),
    *[
        Example(
            f"no-merge-when-the-kernel-rebinds-a-name-by-{form}",
            _kernel_program(binding + "    pltpu.sync_copy(a_ref, b_ref)\n"),
            valid=False,
            jax_error=_MPMD_ERROR,
        )
        for form, binding in _BINDING_FORMS.items()
    ],
    Example(
        "merge-renames-uses-in-nested-scopes",
        _kernel_program(_NESTED_USE_BODY),
        valid=False,
        jax_error=_MPMD_ERROR,
        fixed=_MESH_PRELUDE.replace(
            "def add(a_ref, b_ref):\n    pltpu.sync_copy(a_ref, b_ref)\n",
            "def add(a_ref):\n" + _NESTED_USE_BODY.replace("b_ref", "a_ref"),
        )
        + "r = jax.new_ref(x)\nadd(r)\n"
        + _REF_UNCHANGED,
        fix_applicability=Applicability.UNSAFE,
    ),
    Example(
        "same-array-twice",
        _MESH_PRELUDE + "add(x, x)\n",
        valid=True,
    ),
    Example(
        "two-refs-from-one-array",
        _MESH_PRELUDE + "add(jax.new_ref(x), jax.new_ref(x))\nr = jax.new_ref(x)\ns = jax.new_ref(x)\nadd(r, s)\n",
        valid=True,
    ),
    Example(
        "name-assigned-again",
        _MESH_PRELUDE + "r = jax.new_ref(x)\nfirst = r\nr = jax.new_ref(x)\nadd(first, r)\n",
        valid=True,
    ),
    Example(
        "same-ref-in-separate-calls",
        _MESH_PRELUDE + "r = jax.new_ref(x)\ns = jax.new_ref(x)\nadd(r, s)\nadd(s, r)\n",
        valid=True,
    ),
]


# ---------------------------------------------------------------- forms of reaching the same Ref
# Refs are identified by allocation site through the value interpreter: aliases, containers and
# helpers; each program runs under JAX in the `jax` tier.
def _form(name: str, setup: str, call: str, merged_call: str) -> Example:
    """A form of reaching one Ref twice; its (unsafe) fix passes it once, as `same-ref-twice`."""
    return Example(
        name,
        _MESH_PRELUDE + setup + call,
        valid=False,
        jax_error=_MPMD_ERROR,
        fixed=_MERGED_PRELUDE + setup + merged_call,
        fix_applicability=Applicability.UNSAFE,
    )


FORMS = [
    _form("chained-assignment", "a = b = jax.new_ref(x)\n", "add(a, «b»)\n", "add(a)\n"),
    _form(
        "refs-held-in-a-tuple",
        "refs = (jax.new_ref(x), jax.new_ref(x))\n",
        "add(refs[0], «refs[0]»)\n",
        "add(refs[0])\n",
    ),
    _form(
        "refs-grown-in-a-list",
        "bufs = [jax.new_ref(x)]\nbufs.append(jax.new_ref(x))\n",
        "add(bufs[0], «bufs[0]»)\n",
        "add(bufs[0])\n",
    ),
    _form(
        "one-ref-returned-twice-by-a-helper",
        "\n\ndef pair(x):\n    r = jax.new_ref(x)\n    return r, r\n\n\na, b = pair(x)\n",
        "add(a, «b»)\n",
        "add(a)\n",
    ),
    Example(
        "a-helper-makes-a-new-ref-per-call",
        _MESH_PRELUDE + "\n\ndef buffer(x):\n    return jax.new_ref(x)\n\n\n"
        "add(buffer(x), buffer(x))\nrefs = [buffer(x), buffer(x)]\nadd(refs[0], refs[1])\n",
        valid=True,
    ),
    Example(
        "unpacked-distinct-refs",
        _MESH_PRELUDE + "a, b = jax.new_ref(x), jax.new_ref(x)\nadd(a, b)\n"
        "for r in (a, b):\n    add(r, jax.new_ref(x))\n",
        valid=True,
    ),
]

EXAMPLES += FORMS


def check(analysis: ModuleAnalysis) -> Iterator[Finding]:
    kernel_functions = analysis.kernel_functions
    model = analysis.model
    seen: set[int] = set()  # one invocation can belong to a launch seen in several contexts
    for launch in analysis.launches:
        if launch.kind not in ("kernel", "mpmd_map", "pallas_call"):
            continue
        for call in launch.invocations:
            if id(call) in seen:
                continue
            seen.add(id(call))
            partial = id(call) in launch.through_partial  # `functools.partial(run, r)(s)`
            places = launch.places if partial else None
            loc = launch.places[id(call)][0] if partial else model.loc(call)
            found, as_written = _duplicates_in_any_context(launch, call, loc, model, kernel_functions, places)
            for first, repeated in found:
                finding = _finding(analysis, launch.kind, launch.label, first.expr, repeated.expr)
                # merging the arguments is right only where they are the same Ref in every context
                fixable = as_written and not partial
                fix = _merge_fix(analysis, launch, call, first.expr, repeated.expr) if fixable else None
                if fix is not None:
                    finding.fixes.append(fix)
                yield finding


def _duplicates_in_any_context(
    launch: Launch,
    call: ast.Call,
    loc: Loc,
    model: ModuleModel,
    kernel_functions: dict[int, int],
    places: dict[int, tuple[Loc, Env, ModuleModel]] | None,
) -> tuple[list[tuple[RefArgument, RefArgument]], bool]:
    """The call's arguments that are the same Ref as it is written (any caller), or in the
    arguments of one call seen of the function it is in (`launch(r)` of `def launch(src,
    dst=None): dst = src if dst is None else dst; run(src, dst)`), or in one iteration of the
    loop around it: proved for that call or iteration.  With whether they are so as written."""
    iterations = flow.iteration_envs(interpreter_for(model), loc, EMPTY_ENV, model) if places is None else []
    for env in [EMPTY_ENV, *launch.invocation_envs.get(id(call), []), *iterations]:
        found = list(duplicate_refs(call, loc, model, kernel_functions, env=env, places=places))
        if found:
            return found, env is EMPTY_ENV
    return [], True


def _finding(analysis: ModuleAnalysis, kind: str, label: str, first: ast.expr, repeated: ast.expr) -> Finding:
    name = analysis.source.segment(repeated)
    original = analysis.source.segment(first)
    same = f"`{name}` is the same Ref as `{original}`" if name != original else f"Ref `{name}` is passed twice"
    if kind == "pallas_call":
        why = (
            'the jit that pallas_call runs under rejects it ("only one reference to a mutable array '
            'may be passed as an argument")'
        )
    else:
        why = f'{label} raises NotImplementedError ("{_MPMD_ERROR}")'
    message = f"{same} in one call of a kernel made by {label}; {why}"
    first_range = analysis.source.node_range(first)
    return Finding(
        CODE,
        message,
        analysis.source.node_range(repeated),
        analysis.path,
        SEVERITY,
        related=[Related(analysis.path, first_range, "first passed here")],
    )


# ------------------------------------------------------------------------------------- fix
def _merge_fix(
    analysis: ModuleAnalysis, launch: Launch, call: ast.Call, first: ast.expr, repeated: ast.expr
) -> Fix | None:
    """Pass the ref once: drop the repeated argument and merge the kernel parameter it fed into
    the one the first occurrence feeds.  Only when this call is the kernel's only launch, both
    arguments are whole Refs, and the rename is sound for every binding form."""
    if launch.kind == "pallas_call":
        return None  # passing the Ref once fails too: pallas_call takes no Ref arguments (jax 0.10)
    site = _sole_kernel(analysis, launch)
    if site is None or len(launch.invocations) != 1 or not _fix_keeps_layout(launch):
        return None
    if any(isinstance(a, ast.Starred) for a in call.args) or call.keywords:
        return None
    first_index, repeated_index = _index_of(call.args, first), _index_of(call.args, repeated)
    if first_index is None or repeated_index is None or first_index == repeated_index:
        return None  # nested in a pytree: the kernel parameter is a pytree, not one ref
    if not (_one_whole_ref(analysis, call, first) and _one_whole_ref(analysis, call, repeated)):
        return None  # `bufs, bufs["k"]`: one parameter holds a pytree, the other a leaf of it
    params = positional_parameters(site)
    if repeated_index >= len(params) or site.target.bound_keywords & set(params):
        return None
    source = analysis.source
    kept, dropped = params[first_index], params[repeated_index]
    function = site.function
    bound = site.target.bound_positional
    renames = rename_uses(source, function, dropped, kept)
    remove_param = remove_parameter(source, function, bound + repeated_index)
    remove_arg = remove_argument(source, call, repeated_index)
    if renames is None or remove_param is None or remove_arg is None:
        return None
    title = f"Pass `{source.segment(first)}` once and use `{kept}` for `{dropped}`"
    # Unsafe: the kernel's signature changes, and one buffer now plays two roles (a copy from
    # `a_ref` to `b_ref` becomes a self-copy); whether that was meant needs a human.
    return Fix(title, (remove_arg, remove_param, *renames), Applicability.UNSAFE, preferred=True)


def _one_whole_ref(analysis: ModuleAnalysis, call: ast.Call, expr: ast.expr) -> bool:
    """The argument is one Ref itself: not a pytree holding refs, not an `.at[...]` view."""
    if isinstance(expr, (ast.Tuple, ast.List, ast.Dict, ast.Starred)):
        return False
    model = analysis.model
    values = interpreter_for(model).ev(expr, model.loc(call), EMPTY_ENV, model)
    return len(values) == 1 and isinstance(next(iter(values)), (Ref, Param))


def _sole_kernel(analysis: ModuleAnalysis, launch: Launch) -> KernelSite | None:
    """The launch's only kernel, when this launch is the only one of that kernel."""
    sites = [s for s in analysis.sites if s.launch is launch]
    if len(sites) != 1 or isinstance(sites[0].function, ast.Lambda):
        return None
    function = sites[0].function
    if any(s.function is function and s.launch is not launch for s in analysis.all_sites):
        return None
    return sites[0]


def _fix_keeps_layout(launch: Launch) -> bool:
    """Removing an input must not shift anything else the launch states by position."""
    entry = launch.entry
    if entry.keyword("input_output_aliases") is not None or entry.keyword("in_specs") is not None:
        return False
    if entry.keyword("grid_spec") is not None:
        return False
    return launch_layout(launch).prefetch == 0


def _index_of(args: list[ast.expr], node: ast.expr) -> int | None:
    for index, arg in enumerate(args):
        if arg is node:
            return index
    return None

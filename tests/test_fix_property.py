"""Property (issue 14): for generated kernels, a safe fix either makes the kernel run under JAX and
compute its reference result, or is not offered.

Kernels are generated from a fixed seed (a small set, to stay fast): one or two outputs, the
out_shape written literally, as a module constant, a tuple in a variable, a list grown with
`.append`, an array or computed by `jax.tree.map` (known then only from the kernel's signature);
the value returned at the end, on a static early branch, after the outputs were written, as a
constant, or across lines with comments; lines starting with a form feed; launched directly,
through `functools.partial`, a decorator or a wrapper.  Each program asserts its reference result
(output i is `x + i + 1`).  `--fix` (safe fixes only, as the CLI applies them: `fixing.fix_bytes`)
rewrites it; the fast tier checks every fixed text compiles, the jax tier runs them all.
"""

from __future__ import annotations

import importlib.util
import json
import pathlib
import random
import subprocess
import sys

import pytest

from pallas_ls.fixing import fix_bytes

SEED = 14
COUNT = 24

SHAPE_FORMS = ("literal", "constant", "container_var", "appended", "array", "computed")
RETURN_FORMS = ("tail", "early", "written_then_value", "constant", "multiline_comment")
LAUNCHES = ("direct", "partial", "decorator", "wrapper")
OUTPUT_NAMES = (["o_ref"], ["y"], ["result_ref"], ["a_ref", "b_ref"], ["plus", "minus"], ["o1_ref", "o2_ref"])


def _program(rng: random.Random) -> str:
    outputs = rng.choice(OUTPUT_NAMES)
    n = len(outputs)
    shape_form = rng.choice(SHAPE_FORMS if n == 1 else tuple(f for f in SHAPE_FORMS if f != "array"))
    ret = rng.choice(RETURN_FORMS)
    launch = rng.choice(LAUNCHES)
    feed = "\f" if rng.random() < 0.25 else ""
    values = [f"x_ref[...] + {i + 1}.0 + offset" for i in range(n)]
    writes = [f"    {name}[...] = {value}" for name, value in zip(outputs, values, strict=True)]

    struct = "jax.ShapeDtypeStruct(x.shape, x.dtype)"
    prelude = [
        "import functools",
        "",
        "import jax",
        "import jax.numpy as jnp",
        "from jax.experimental import pallas as pl",
        "",
        "x = jnp.arange(8 * 128, dtype=jnp.float32).reshape(8, 128)",
    ]
    if shape_form == "literal":
        out_shape = struct if n == 1 else "(" + ", ".join([struct] * n) + ")"
    elif shape_form == "constant":
        prelude.append(f"SHAPE = {struct}")
        out_shape = "SHAPE" if n == 1 else "(" + ", ".join(["SHAPE"] * n) + ")"
    elif shape_form == "container_var":
        prelude.append(f"shapes = [{', '.join([struct] * n)}]")
        out_shape = "shapes"
    elif shape_form == "appended":
        prelude.append("shapes = []")
        prelude += [f"shapes.append({struct})" for _ in range(n)]
        out_shape = "shapes"
    elif shape_form == "array":
        out_shape = "x"
    else:
        prelude.append(f"shapes = jax.tree.map(lambda a: jax.ShapeDtypeStruct(a.shape, a.dtype), ({'x, ' * n}))")
        out_shape = "shapes" if n > 1 else "shapes[0]"

    returned = ", ".join(values)
    if ret == "tail":
        body = [f"{feed}    return {returned}"]
    elif ret == "early":
        body = ["    if x_ref.shape[0] == 8:", f"{feed}        return {returned}", *writes]
    elif ret == "written_then_value":
        body = [*writes, f"{feed}    return {outputs[0]}[...] * 2"]
    elif ret == "constant":
        body = [*writes, f"{feed}    return {rng.choice(['0', '()', 'None,', 'False'])}"]
    else:
        body = (
            [f"{feed}    return (  # the results"]
            + [f"        {v},  # number {i}" for i, v in enumerate(values)]
            + ["    )"]
        )
    body = [line.replace("return None,", "return (None,)") for line in body]

    params = "x_ref, " + ", ".join(outputs) + ", *, offset"
    kernel = [f"def kernel({params}):", *body]
    check = " and ".join(f"(out[{i}] == x + {i + 1}.0).all()" for i in range(n)) if n > 1 else "(out == x + 1.0).all()"
    if launch == "direct":
        lines = [
            *kernel,
            "",
            "",
            f"out = pl.pallas_call(functools.partial(kernel, offset=0.0), out_shape={out_shape}, interpret=True)(x)",
        ]
    elif launch == "partial":
        lines = [
            *kernel,
            "",
            "",
            "bound = functools.partial(kernel, offset=0.0)",
            f"out = pl.pallas_call(bound, out_shape={out_shape}, interpret=True)(x)",
        ]
    elif launch == "decorator":
        decorated = [
            f"@functools.partial(pl.pallas_call, out_shape={out_shape}, interpret=True)",
            kernel[0].replace(", *, offset", "").replace("def kernel", "def run"),
        ]
        decorated += [line.replace(" + offset", "") for line in kernel[1:]]
        lines = [*decorated, "", "", "out = run(x)"]
    else:
        lines = [
            *kernel,
            "",
            "",
            "def launch(x, out_shape):",
            "    return pl.pallas_call(functools.partial(kernel, offset=0.0), out_shape=out_shape, interpret=True)(x)",
            "",
            "",
            f"out = launch(x, {out_shape})",
        ]
    if shape_form == "appended" and n == 1:
        lines.append("(out,) = out")
    if shape_form == "container_var" and n == 1:
        lines.append("(out,) = out")
    return "\n".join([*prelude, "", "", *lines, f"assert {check}, out", ""])


PROGRAMS = [_program(random.Random(SEED * 1000 + i)) for i in range(COUNT)]


def _fixed(program: str) -> str:
    _, file = fix_bytes(program.encode(), "generated.py", lambda findings: findings, unsafe=False)
    assert file is not None and not file.failed
    return file.text


@pytest.mark.parametrize("index", range(COUNT))
def test_safe_fixes_of_generated_kernels_compile(index):
    program = PROGRAMS[index]
    compile(program, "generated.py", "exec")
    fixed = _fixed(program)
    compile(fixed, "generated-fixed.py", "exec")
    assert _fixed(fixed) == fixed  # a second --fix changes nothing


@pytest.mark.jax
def test_safe_fixes_of_generated_kernels_compute_the_reference(tmp_path):
    if importlib.util.find_spec("jax") is None:
        pytest.skip("jax is not installed")
    from test_jax_examples import RUNNER, _worker_env

    fixed = [_fixed(p) for p in PROGRAMS]
    requests = [{"id": f"{i}", "source": p} for i, p in enumerate(PROGRAMS)]
    requests += [
        {"id": f"{i}-fixed", "source": f} for i, (p, f) in enumerate(zip(PROGRAMS, fixed, strict=True)) if f != p
    ]
    request_file, result_file = tmp_path / "request.json", tmp_path / "result.json"
    request_file.write_text(json.dumps(requests), encoding="utf-8")
    subprocess.run(
        [sys.executable, str(RUNNER), str(request_file), str(result_file)],
        check=True,
        env=_worker_env(),
        timeout=900,
        capture_output=True,
    )
    results = {r["id"]: r for r in json.loads(pathlib.Path(result_file).read_text(encoding="utf-8"))}
    for i, program in enumerate(PROGRAMS):
        original = results[f"{i}"]
        assert not original["ok"] and "should return None" in (original["message"] or ""), (program, original)
        if fixed[i] != program:
            result = results[f"{i}-fixed"]
            assert result["ok"], f"a safe fix broke generated kernel {i}:\n{fixed[i]}\n{result['message']}"
    assert sum(f != p for f, p in zip(fixed, PROGRAMS, strict=True)) >= COUNT // 2  # the property is not vacuous

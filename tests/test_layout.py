"""Kernel parameter roles from the entry point's arguments (pallas-facts §2)."""

from __future__ import annotations

import textwrap

import pytest

from pallas_ls.engine.analysis import analyze
from pallas_ls.engine.layout import launch_layout, output_parameters, parameter_roles
from pallas_ls.engine.source import SourceFile

HEADER = """\
import functools
import jax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
S = jax.ShapeDtypeStruct((8,), jnp.float32)
"""


def roles(code: str) -> list[tuple[str, str | None]]:
    analysis = analyze(SourceFile.from_text(HEADER + textwrap.dedent(code)))
    [site] = analysis.sites
    return [(r.name, r.role) for r in parameter_roles(site, launch_layout(site.launch))]


CASES = {
    "one-in-one-out": ("def k(x, o): pass\npl.pallas_call(k, out_shape=S)(a)\n", [("x", "input"), ("o", "output")]),
    "tuple-outputs": (
        "def k(x, o1, o2): pass\npl.pallas_call(k, out_shape=(S, S))(a)\n",
        [("x", "input"), ("o1", "output"), ("o2", "output")],
    ),
    "scratch": (
        "def k(x, y, o, acc): pass\npl.pallas_call(k, S, scratch_shapes=[pltpu.VMEM((8,), f32)])(a, b)\n",
        [("x", "input"), ("y", "input"), ("o", "output"), ("acc", "scratch")],
    ),
    "prefetch": (
        "def k(n, x, o, acc): pass\n"
        "gs = pltpu.PrefetchScalarGridSpec(num_scalar_prefetch=1, grid=(1,), scratch_shapes=[v])\n"
        "pl.pallas_call(k, out_shape=S, grid_spec=gs)(n, a)\n",
        [("n", "scalar prefetch"), ("x", "input"), ("o", "output"), ("acc", "scratch")],
    ),
    "inputs-unknown-counts-from-the-back": (
        "def k(x, y, o, acc): pass\nf = pl.pallas_call(k, out_shape=S, scratch_shapes=(v,))\n",
        [("x", None), ("y", None), ("o", "output"), ("acc", "scratch")],
    ),
    "in-specs-give-inputs": (
        "def k(x, y, o): pass\npl.pallas_call(k, out_shape=S, in_specs=[b, b])\n",
        [("x", "input"), ("y", "input"), ("o", "output")],
    ),
    "partial-bound-removed": (
        "def k(x, o, *, n): pass\npl.pallas_call(functools.partial(k, n=2), S)(a)\n",
        [("x", "input"), ("o", "output")],
    ),
    "out-shape-through-a-name": (
        "shapes = (S, S)\ndef k(x, o, p): pass\npl.pallas_call(k, shapes)(a)\n",
        [("x", "input"), ("o", "output"), ("p", "output")],
    ),
    "pl-kernel-no-outputs-by-default": (
        "@pl.kernel(mesh=m)\ndef k(a, b): pass\nk(r, s)\n",
        [("a", "input"), ("b", "input")],
    ),
    "pl-kernel-out-type": (
        "@pl.kernel(out_type=S, mesh=m, scratch_types=[v])\ndef k(a, o, t): pass\n",
        [("a", None), ("o", "output"), ("t", "scratch")],
    ),
}


@pytest.mark.parametrize("code,expected", CASES.values(), ids=list(CASES))
def test_roles(code, expected):
    assert roles(code) == expected


def test_output_parameters_unknown_when_out_shape_is_opaque():
    analysis = analyze(
        SourceFile.from_text(HEADER + "def k(x, o): pass\ndef f(shape):\n    pl.pallas_call(k, shape)(a)\n")
    )
    [site] = analysis.sites
    assert output_parameters(site) is None

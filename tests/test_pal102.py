"""PAL102 says nothing where the launch may raise the scoped VMEM limit in a way not read here."""

from __future__ import annotations

import pytest

from pallas_ls.lint import analyze_source

PROGRAM = """\
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def scale(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2.0


x = jnp.ones((4096, 1536), jnp.float32)
spec = pl.BlockSpec((2048, 1536), lambda i: (i, 0))
kw = dict(vmem_limit_bytes=100 * 2**20)
y = pl.pallas_call(
    scale, grid=(2,), in_specs=[spec], out_specs=spec, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
    compiler_params={params},
)(x)
"""


@pytest.mark.parametrize(
    "params, reported",
    [
        ("pltpu.CompilerParams(dimension_semantics=('parallel',))", True),  # 48 MiB over every default
        ("pltpu.CompilerParams(vmem_limit_bytes=64 * 1024 * 1024)", False),
        ("pltpu.CompilerParams(vmem_limit_bytes=40 * 1024 * 1024)", True),
        ("pltpu.CompilerParams(vmem_limit_bytes=40 * 2**20)", True),
        ("pltpu.CompilerParams(vmem_limit_bytes=64 * 2**20)", False),
        ("pltpu.CompilerParams(**kw)", False),  # the limit may be in kw
        ("dict(mosaic=dict(vmem_limit_bytes=100 * 2**20))", False),  # the older dict form
        ("make_params()", False),  # a helper's result
    ],
)
def test_compiler_params_that_may_raise_the_limit(params, reported):
    codes = [f.code for f in analyze_source(PROGRAM.format(params=params), "t.py") if f.code == "PAL102"]
    assert codes == (["PAL102"] if reported else [])

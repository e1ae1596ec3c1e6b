# expect: clean
"""A library binding compiler params through functools.partial, matching a 3-D grid."""
import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def matmul_kernel(a_ref, b_ref, o_ref):
    @pl.when(pl.program_id(2) == 0)
    def _():
        o_ref[...] = jnp.zeros_like(o_ref)

    o_ref[...] += jnp.dot(a_ref[...], b_ref[...], preferred_element_type=jnp.float32)


call = functools.partial(
    pl.pallas_call,
    compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel", "parallel", "arbitrary")),
)
a = jnp.ones((256, 256), jnp.float32)
out = call(
    matmul_kernel,
    grid=(2, 2, 2),
    in_specs=[pl.BlockSpec((128, 128), lambda i, j, k: (i, k)), pl.BlockSpec((128, 128), lambda i, j, k: (k, j))],
    out_specs=pl.BlockSpec((128, 128), lambda i, j, k: (i, j)),
    out_shape=jax.ShapeDtypeStruct((256, 256), jnp.float32),
)(a, a)
print(out.sum())

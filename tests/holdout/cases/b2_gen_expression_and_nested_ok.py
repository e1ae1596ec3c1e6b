"""A kernel that sums column blocks with a generator expression and builds its block list with a
nested generator helper (`yield` lives in the nested def only): the kernel itself is a plain
function.  JAX: runs."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def col_blocks_kernel(x_ref, o_ref, *, width=32):
    def blocks():
        for start in range(0, x_ref.shape[1], width):
            yield x_ref[:, pl.ds(start, width)]

    o_ref[...] = sum(b for b in blocks())
    o_ref[...] += sum(x_ref[:, pl.ds(s, width)] for s in range(0, x_ref.shape[1], width)) * 0.0


x = jnp.ones((8, 128), jnp.float32)
out = pl.pallas_call(col_blocks_kernel, out_shape=jax.ShapeDtypeStruct((8, 32), x.dtype), interpret=True)(x)
assert (out == 4.0).all(), out

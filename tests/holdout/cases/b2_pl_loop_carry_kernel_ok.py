"""A kernel reduces row blocks with `@pl.loop(0, n, init_carry=...)`: the loop body returns the
new carry and the decorated name holds the final carry, which the kernel stores.  Returns inside
the loop body and a `pl.when` body over a Python bool are fine.  JAX: runs."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def row_block_sum_kernel(x_ref, o_ref, *, rows=8):
    n = x_ref.shape[0] // rows

    @pl.loop(0, n, init_carry=jnp.zeros((rows, 128), jnp.float32))
    def total(i, acc):
        return acc + x_ref[pl.ds(i * rows, rows), :]

    o_ref[...] = total

    @pl.when(n > 1)
    def _():
        o_ref[...] = o_ref[...] / n


x = jnp.ones((32, 128), jnp.float32)
out = pl.pallas_call(row_block_sum_kernel, out_shape=jax.ShapeDtypeStruct((8, 128), jnp.float32), interpret=True)(x)
assert (out == 1.0).all(), out

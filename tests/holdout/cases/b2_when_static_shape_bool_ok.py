"""`pl.when` given a Python bool computed from static shapes (`x_ref.shape[0] > 4`) and from a
partial-bound flag: JAX runs the body as a plain `if` and drops what it returns.  A silent
drop, not an error (and the returned value is a no-op here).  JAX: runs."""
import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def kernel(x_ref, o_ref, *, has_bias):
    o_ref[...] = x_ref[...]

    @pl.when(x_ref.shape[0] > 4)
    def _tall():
        o_ref[...] = o_ref[...] * 2.0
        return o_ref.shape

    @pl.when(has_bias)
    def _bias():
        o_ref[...] += 1.0
        return True


x = jnp.ones((8, 128), jnp.float32)
out = pl.pallas_call(
    functools.partial(kernel, has_bias=True),
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
    interpret=True,
)(x)
assert (out == 3.0).all(), out

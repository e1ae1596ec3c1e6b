"""`return lax.fori_loop(..., None)` with a body that returns its None carry, and an
`input_output_aliases` launch.  JAX: runs."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def kernel(x_ref, o_ref):
    def body(i, carry):
        o_ref[pl.ds(i, 1), :] = x_ref[pl.ds(i, 1), :] * 2
        return carry

    return jax.lax.fori_loop(0, x_ref.shape[0], body, None)


x = jnp.ones((8, 128), jnp.float32)
call = pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), input_output_aliases={0: 0}, interpret=True)
print(jax.jit(call)(x).sum())

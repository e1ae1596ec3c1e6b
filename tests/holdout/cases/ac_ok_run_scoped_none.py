"""The kernel returns what pl.run_scoped returns for a body that returns nothing.  JAX: runs."""
import functools, sys
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)
def kernel(x_ref, o_ref):
    def body(tmp_ref):
        tmp_ref[...] = x_ref[...]
        o_ref[...] = tmp_ref[...]
    return pl.run_scoped(body, pltpu.VMEM((8, 128), jnp.float32))
pl.pallas_call(kernel, out_shape=S, interpret=True)(x)

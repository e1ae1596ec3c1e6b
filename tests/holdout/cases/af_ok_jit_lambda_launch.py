"""A jitted lambda launches a writing kernel.  JAX: runs."""
import functools, sys
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)
def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2
run = jax.jit(functools.partial(pl.pallas_call, kernel, out_shape=S, interpret=True))
print(run()(x).sum()) if False else None
print(jax.jit(lambda v: pl.pallas_call(kernel, out_shape=S, interpret=True)(v))(x).sum())

"""`out_shape.append(None)` adds a parameter that receives None; a 2-parameter kernel fails.
JAX: TypeError "kernel() takes 2 positional arguments but 3 were given"."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...]


x = jnp.ones((8, 128), jnp.float32)
out_shape = [jax.ShapeDtypeStruct(x.shape, x.dtype)]
out_shape.append(None)
print(pl.pallas_call(kernel, out_shape=out_shape, interpret=True)(x))  # expect: PAL004

"""pl.when applied to a functools.partial of a body that returns.  JAX: TypeError "cond branch outputs"."""
import dataclasses, functools
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def _accumulate(o_ref, x_ref):
    o_ref[...] += x_ref[...]
    return o_ref[...]  # expect: PAL007

def kernel(x_ref, o_ref):
    o_ref[...] = jnp.zeros(o_ref.shape, o_ref.dtype)
    pl.when(pl.program_id(0) == 0)(functools.partial(_accumulate, o_ref, x_ref))

x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), grid=(1,), interpret=True)(x).sum())

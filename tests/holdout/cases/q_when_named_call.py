"""pl.when(c) applied to jax.named_call(body): the body returns.  JAX: TypeError cond branch outputs."""
import abc, functools, itertools, collections, contextlib, operator, typing, dataclasses, types
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def kernel(x_ref, o_ref):
    def init():
        o_ref[...] = jnp.zeros_like(o_ref)
        return o_ref[...]  # expect: PAL007

    pl.when(pl.program_id(0) == 0)(jax.named_call(init, name="init"))
    o_ref[...] += x_ref[...]

x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), grid=(1,), interpret=True)(x).sum())

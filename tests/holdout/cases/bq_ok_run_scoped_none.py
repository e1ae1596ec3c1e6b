"""The kernel returns pl.run_scoped of a body that returns None.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def kernel(x_ref, o_ref):
    def body(tmp_ref):
        tmp_ref[...] = x_ref[...]
        o_ref[...] = tmp_ref[...]

    return pl.run_scoped(body, pltpu.VMEM((8, 128), jnp.float32))
x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())

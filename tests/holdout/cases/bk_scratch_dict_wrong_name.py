"""scratch_shapes as a dict arrive as keyword arguments; the kernel names its scratch differently.  JAX: TypeError (unexpected keyword)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

def kernel(x_ref, o_ref, scratch_ref):
    scratch_ref[...] = x_ref[...]
    o_ref[...] = scratch_ref[...]

print(pl.pallas_call(kernel, out_shape=S, scratch_shapes={"acc_ref": pltpu.VMEM((8, 128), jnp.float32)}, interpret=True)(x).sum())  # expect: PAL004

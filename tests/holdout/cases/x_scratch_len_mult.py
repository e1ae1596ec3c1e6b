"""scratch_shapes has len(NAMES) buffers; the kernel takes one.  JAX: TypeError (arguments)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

NAMES = ("acc", "tmp")

def kernel(x_ref, o_ref, acc_ref):
    acc_ref[...] = x_ref[...]
    o_ref[...] = acc_ref[...]

x = jnp.ones((8, 128), jnp.float32)
scratch = [pltpu.VMEM((8, 128), jnp.float32)] * len(NAMES)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), scratch_shapes=scratch, interpret=True)(x).sum())  # expect: PAL004

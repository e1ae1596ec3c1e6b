"""a module-level loop defines kernel(mode=mode) per mode into REG; REG['bump'] runs.  JAX: ValueError "should return None"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

REG = {}
for mode in ("copy", "bump"):

    def kernel(x_ref, o_ref, mode=mode):
        o_ref[...] = x_ref[...]
        if mode == "bump":
            return o_ref[...]  # expect: PAL001

    REG[mode] = kernel

kernel = REG['bump']

print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())

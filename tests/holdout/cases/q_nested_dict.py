"""A kernel in a nested table KERNELS["tpu"]["fwd"].  JAX: ValueError "should return None"."""
import abc, functools, itertools, collections, contextlib, operator, typing, dataclasses, types
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def fwd(x_ref, o_ref):
    return x_ref[...] * 2  # expect: PAL001

def bwd(x_ref, o_ref):
    o_ref[...] = x_ref[...] / 2

KERNELS = {"tpu": {"fwd": fwd, "bwd": bwd}, "gpu": {}}
x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(KERNELS["tpu"]["fwd"], out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())

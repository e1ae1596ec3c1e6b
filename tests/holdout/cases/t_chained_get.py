"""CONFIG.get("kernels", {}).get("norm"): nested dict lookups with defaults.  JAX: ValueError "should return None"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def norm(x_ref, o_ref):
    return x_ref[...] / jnp.linalg.norm(x_ref[...])  # expect: PAL001

CONFIG = {"kernels": {"norm": norm}}
x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(CONFIG.get("kernels", {}).get("norm"), out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())

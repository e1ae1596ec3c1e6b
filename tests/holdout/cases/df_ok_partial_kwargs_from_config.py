"""partial(body, **CFG) with CFG['debug'] = False; body returns o_ref[...] when debug.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

CFG = {"debug": False, "scale": 2.0}


def body(x_ref, o_ref, *, debug, scale):
    o_ref[...] = x_ref[...] * scale
    if debug:
        return o_ref[...]


kernel = functools.partial(body, **CFG)

print(pl.pallas_call(kernel, out_shape=S, interpret=True)(x).sum())

# expect: clean
"""A squeezed (None) batch dimension."""
import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 3.0


x = jnp.ones((4, 16, 128), jnp.float32)
spec = pl.BlockSpec((None, 16, 128), lambda b: (b, 0, 0))
print(pl.pallas_call(kernel, grid=(4,), in_specs=[spec], out_specs=spec,
                     out_shape=jax.ShapeDtypeStruct((4, 16, 128), jnp.float32))(x).sum())

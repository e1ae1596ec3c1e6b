"""Python scalars and lists from library functions closed over by a kernel (not jax arrays).  JAX: runs."""

import math
import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl

scale = float(np.sqrt(2.0))
table = list(np.linspace(0, 1, 4))
n = int(jnp.ones(()).sum())
lim = math.pi


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * scale + table[1] + n + lim


x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())

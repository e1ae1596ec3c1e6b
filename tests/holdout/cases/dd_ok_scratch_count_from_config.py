"""scratch_shapes from CONFIG['buffers'] = 1; the kernel takes one scratch ref.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

CONFIG = {"buffers": 1}


def kernel(x_ref, o_ref, buf_ref):
    buf_ref[...] = x_ref[...]
    o_ref[...] = buf_ref[...]


out = pl.pallas_call(
    kernel,
    out_shape=S,
    scratch_shapes=[pltpu.VMEM((8, 128), jnp.float32) for _ in range(CONFIG["buffers"])],
    interpret=True,
)(x)
print(out.sum())

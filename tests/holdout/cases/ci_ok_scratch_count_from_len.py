"""scratch_shapes=[VMEM] * len(NAMES) gives 2 scratch refs; the kernel takes 2.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

NAMES = ("a", "b")


def kernel(x_ref, o_ref, s_ref, t_ref):
    s_ref[...] = x_ref[...]
    t_ref[...] = s_ref[...]
    o_ref[...] = t_ref[...]


print(
    pl.pallas_call(
        kernel,
        out_shape=S,
        scratch_shapes=[pltpu.VMEM((8, 128), jnp.float32)] * len(NAMES),
        interpret=True,
    )(x).sum()
)

"""num_scalar_prefetch read from a frozen dataclass (2); the kernel takes one scalar ref.  JAX: TypeError (arity)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

@dataclasses.dataclass(frozen=True)
class Tiling:
    block: tuple = (8, 128)
    prefetch: int = 2

def grid_spec(t: Tiling):
    spec = pl.BlockSpec(t.block, lambda i, *_: (0, 0))
    return pltpu.PrefetchScalarGridSpec(num_scalar_prefetch=t.prefetch, grid=(1,), in_specs=[spec], out_specs=spec)

def kernel(s_ref, x_ref, o_ref):
    o_ref[...] = x_ref[...]

idx = jnp.zeros((1,), jnp.int32)
print(pl.pallas_call(kernel, out_shape=S, grid_spec=grid_spec(Tiling()), interpret=True)(idx, idx, x).sum())  # expect: PAL004

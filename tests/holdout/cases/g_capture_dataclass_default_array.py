"""A dataclass field replaced by an array; the kernel factory's closure reads `p.weight`.  JAX: ValueError "captures constants"."""
import types, functools, dataclasses
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)

def _copy(src, dst):
    pltpu.sync_copy(src, dst)

@dataclasses.dataclass
class Params:
    weight: object = None

def make_kernel(p):
    def kernel(x_ref, o_ref):
        o_ref[...] = x_ref[...] * p.weight  # expect: PAL003
    return kernel

p = dataclasses.replace(Params(), weight=jnp.full((8, 128), 2.0, jnp.float32))
x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(make_kernel(p), out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())

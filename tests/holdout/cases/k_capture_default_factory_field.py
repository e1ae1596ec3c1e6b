"""A dataclass field with a default_factory making an array; the kernel closes over it.  JAX: ValueError "captures constants"."""
import dataclasses, functools
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

@dataclasses.dataclass
class Params:
    bias: object = dataclasses.field(default_factory=lambda: jnp.full((8, 128), 0.5, jnp.float32))

P = Params()

def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + P.bias  # expect: PAL003
def call(kernel, x):
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

x = jnp.ones((8, 128), jnp.float32)
print(call(kernel, x).sum())

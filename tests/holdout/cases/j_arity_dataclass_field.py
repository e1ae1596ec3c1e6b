"""A dataclass spec carries the kernel; it takes three refs but two are passed.  JAX: TypeError missing argument."""
import dataclasses
import collections, enum, functools
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def kernel(x_ref, y_ref, o_ref):
    o_ref[...] = x_ref[...] + y_ref[...]

@dataclasses.dataclass(frozen=True)
class Spec:
    body: object
    name: str = "add"

SPEC = Spec(body=kernel)
def call(kernel, x):
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)  # expect: PAL004

x = jnp.ones((8, 128), jnp.float32)
print(call(SPEC.body, x).sum())

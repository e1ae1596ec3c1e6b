"""A typing.NamedTuple spec carries the kernel, which returns.  JAX: ValueError "... should return None"."""
import functools, dataclasses, typing
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl

class Spec(typing.NamedTuple):
    kernel: typing.Callable
    block: int = 128

def _k(x_ref, o_ref):
    return x_ref[...] * 4  # expect: PAL001

def run(spec, x):
    return pl.pallas_call(spec.kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

print(run(Spec(_k), jnp.ones((8, 128))).sum())

"""pl.when(c)(functools.partial(helper, o_ref)) where the helper returns the ref's value.  JAX: TypeError cond branch outputs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def _init(o_ref):
    o_ref[...] = jnp.zeros(o_ref.shape, o_ref.dtype)
    return o_ref[...]  # expect: PAL007

def kernel(x_ref, o_ref):
    pl.when(pl.program_id(0) == 0)(functools.partial(_init, o_ref))
    o_ref[...] += x_ref[...]

x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), grid=(1,), interpret=True)(x).sum())

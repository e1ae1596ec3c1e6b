"""`pl.when(cond)(functools.partial(_finalize, o_ref))`: a partial body that returns a value.
JAX: TypeError "cond branch outputs must have the same pytree structure"."""
import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def _finalize(o_ref, scale):
    o_ref[...] = o_ref[...] * scale
    return o_ref[...].sum()  # expect: PAL007


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...]
    pl.when(pl.program_id(0) == pl.num_programs(0) - 1)(functools.partial(_finalize, o_ref, 0.5))


x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), grid=(1,), interpret=True)(x).sum())

"""pl.when applied to a body taken from a dict; the body returns.  JAX: TypeError "cond branch outputs"."""
import types, functools, dataclasses
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def kernel(x_ref, o_ref):
    def init():
        o_ref[...] = jnp.zeros(o_ref.shape, o_ref.dtype)

    def accumulate():
        o_ref[...] += x_ref[...]
        return o_ref[...]  # expect: PAL007

    steps = {"init": init, "acc": accumulate}
    pl.when(pl.program_id(0) == 0)(steps["init"])
    pl.when(pl.program_id(0) >= 0)(steps["acc"])

x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), grid=(2,), interpret=True)(x).sum())

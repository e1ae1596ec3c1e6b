"""A factory's pl.kernel body closes over the non-scalar array it was given.  JAX: "captures non-scalar constants"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)

def make_scaler(w):
    @pl.kernel(out_type=jax.ShapeDtypeStruct((8, 128), jnp.float32), mesh=mesh, interpret=pltpu.InterpretParams())
    def scale(x_ref, o_ref):
        o_ref[...] = x_ref[...] * w  # expect: PAL003
    return scale

scaler = make_scaler(jnp.full((8, 128), 2.0, jnp.float32))
print(scaler(jnp.ones((8, 128), jnp.float32)).sum())

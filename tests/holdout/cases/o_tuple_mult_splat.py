"""(r,) * 2 splatted into the call: one Ref twice.  JAX: NotImplementedError "Cannot pass the same ref"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)

def swap(a_ref, b_ref):
    a_ref[...], b_ref[...] = b_ref[...], a_ref[...]

r = jax.new_ref(jnp.ones((8, 128), jnp.float32))
pair = (r,) * 2
pl.kernel(swap, mesh=mesh, interpret=pltpu.InterpretParams())(*pair)  # expect: PAL002

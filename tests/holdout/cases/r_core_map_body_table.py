"""A core_map body picked from a table of bodies returns a value.  JAX: ValueError "should return None"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)
x = jnp.ones((8, 128), jnp.float32)
ref = jax.new_ref(x)

def _zero():
    ref[...] = jnp.zeros_like(ref[...])

def _read():
    return ref[...]  # expect: PAL001

BODIES = {"zero": _zero, "read": _read}
pl.core_map(mesh, interpret=pltpu.InterpretParams())(BODIES["read"])
print(jax.freeze(ref).sum())

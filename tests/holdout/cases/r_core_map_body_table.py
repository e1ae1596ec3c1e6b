"""A core_map body picked from a table of bodies returns a value.  JAX: ValueError "should return None"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)


@jax.jit
def run(x):
    src = jax.new_ref(x)
    dst = jax.new_ref(jnp.zeros_like(x))

    def _copy():
        pltpu.sync_copy(src, dst)

    def _copy_back():
        pltpu.sync_copy(dst, src)
        return (None,)  # expect: PAL001

    bodies = {"copy": _copy, "copy_back": _copy_back}
    pl.core_map(mesh, interpret=pltpu.InterpretParams())(bodies["copy_back"])
    return jax.freeze(src)


print(run(jnp.ones((8, 128), jnp.float32)).sum())

"""jax.shard_map of a launcher. (the valid twin).  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]

def bump(x_ref, o_ref):
    return x_ref[...] + 1

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

from jax.sharding import Mesh, PartitionSpec as P
devices = Mesh(np.array(jax.devices()[:1]), ("d",))

def launch(v):
    return pl.pallas_call(copy, out_shape=S, interpret=True)(v)

print(jax.shard_map(launch, mesh=devices, in_specs=P(), out_specs=P(), check_vma=False)(x).sum())

"""a dataclass instance holding a ref, copied by reference  JAX: error "only one reference to a mutable array may be passed"."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum, math, bisect, heapq
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)


def _copy(src, dst):
    pltpu.sync_copy(src, dst)


@dataclasses.dataclass
class Bufs:
    a: typing.Any
    b: typing.Any

bufs = Bufs(jax.new_ref(jnp.zeros((8, 128), jnp.float32)), jax.new_ref(jnp.zeros((8, 128), jnp.float32)))
other = bufs

pl.kernel(_copy, mesh=mesh, interpret=pltpu.InterpretParams())(bufs.a, other.a)  # expect: PAL002

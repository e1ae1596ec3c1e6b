"""a dict of lambdas returning refs made once  JAX: error "only one reference to a mutable array may be passed"."""
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


A = jax.new_ref(jnp.zeros((8, 128), jnp.float32))
B = jax.new_ref(jnp.zeros((8, 128), jnp.float32))
GET = {'a': lambda: A, 'b': lambda: B}

pl.kernel(_copy, mesh=mesh, interpret=pltpu.InterpretParams())(GET['a'](), A)  # expect: PAL002

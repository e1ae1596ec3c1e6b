"""pl.kernel without out_type gives no outputs; the body takes an output ref.  JAX: TypeError (arity)."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)

def body(x_ref, o_ref):
    pltpu.sync_copy(x_ref, o_ref)

run = pl.kernel(body, mesh=mesh, interpret=pltpu.InterpretParams())  # expect: PAL004
print(run(x))

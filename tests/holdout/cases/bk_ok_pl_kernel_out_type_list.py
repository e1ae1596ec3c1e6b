"""pl.kernel with out_type=[S, S]: the body takes two outputs.  JAX: runs."""
import functools, itertools, collections, contextlib, operator, typing, dataclasses, types, enum
import numpy as np
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)

mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)

def body(x_ref, o_ref, p_ref):
    pltpu.sync_copy(x_ref, o_ref)
    pltpu.sync_copy(x_ref, p_ref)

run = pl.kernel(body, out_type=[S, S], mesh=mesh, interpret=pltpu.InterpretParams())
print(run(x)[0].sum())

"""refs[0] and refs[-1] of two Refs are two objects.  JAX: runs."""
import functools, sys
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
x = jnp.ones((8, 128), jnp.float32)
S = jax.ShapeDtypeStruct(x.shape, x.dtype)
mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)
def copy(src_ref, dst_ref):
    pltpu.sync_copy(src_ref, dst_ref)
refs = [jax.new_ref(jnp.ones((8, 128), jnp.float32)), jax.new_ref(jnp.zeros((8, 128), jnp.float32))]
pl.kernel(copy, mesh=mesh, interpret=pltpu.InterpretParams())(refs[0], refs[-1])
print(jax.freeze(refs[1]).sum())

"""A helper module makes two Refs; main passes them to one pl.kernel call.  JAX: runs."""
import functools, importlib
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from bufs import pair

mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)


@pl.kernel(mesh=mesh, interpret=pltpu.InterpretParams())
def run(src_ref, dst_ref):
    pltpu.sync_copy(src_ref, dst_ref)

x = jnp.ones((8, 128), jnp.float32)
a, b = pair(x)
run(a, b)
print(jax.freeze(b).sum())

"""A list of buffers, `bufs[0], bufs[0]` passed to one call.
JAX: NotImplementedError "Cannot pass the same ref into a mpmd map multiple times"."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)


@pl.kernel(mesh=mesh, interpret=pltpu.InterpretParams())
def copy_into(src_ref, dst_ref):
    pltpu.sync_copy(src_ref, dst_ref)


x = jnp.ones((8, 128), jnp.float32)

bufs = [jax.new_ref(x), jax.new_ref(x + 1)]
copy_into(bufs[0], bufs[0])  # expect: PAL002

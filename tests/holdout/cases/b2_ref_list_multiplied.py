"""Double-buffer refs made as `[jax.new_ref(x)] * 2`: list multiplication repeats ONE ref, and the
star-unpacked call passes it twice.  JAX: NotImplementedError "Cannot pass the same ref into a mpmd map multiple times"."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)


@pl.kernel(mesh=mesh, interpret=pltpu.InterpretParams())
def ping_pong(src_ref, dst_ref):
    pltpu.sync_copy(src_ref, dst_ref)


x = jnp.ones((8, 128), jnp.float32)
buffers = [jax.new_ref(x)] * 2
ping_pong(*buffers)  # expect: PAL002
print(jax.freeze(buffers[1]).sum())

"""Double-buffer refs made by a list comprehension: each iteration calls `jax.new_ref` again, so
the star-unpacked call passes two distinct refs.  JAX: runs."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)


@pl.kernel(mesh=mesh, interpret=pltpu.InterpretParams())
def ping_pong(src_ref, dst_ref):
    pltpu.sync_copy(src_ref, dst_ref)


x = jnp.ones((8, 128), jnp.float32)
buffers = [jax.new_ref(x) for _ in range(2)]
ping_pong(*buffers)
print(jax.freeze(buffers[1]).sum())

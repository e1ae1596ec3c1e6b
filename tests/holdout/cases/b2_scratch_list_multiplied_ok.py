"""Double-buffered scratch declared as `[pltpu.VMEM(...)] * 2 + [pltpu.SemaphoreType.DMA((2,))]`:
three scratch refs, and the kernel takes all three.  JAX: runs."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

BLOCK = (8, 128)


def db_kernel(x_ref, o_ref, buf0, buf1, sems):
    del sems
    buf0[...] = x_ref[...]
    buf1[...] = buf0[...] * 2.0
    o_ref[...] = buf1[...]


scratch = [pltpu.VMEM(BLOCK, jnp.float32)] * 2 + [pltpu.SemaphoreType.DMA((2,))]
x = jnp.ones(BLOCK, jnp.float32)
out = pl.pallas_call(
    db_kernel,
    out_shape=jax.ShapeDtypeStruct(BLOCK, jnp.float32),
    scratch_shapes=scratch,
    interpret=True,
)(x)
assert (out == 2.0).all(), out

"""A pl.kernel body closes over a 0-d jax array (`jnp.float32(0.5)`): pl.kernel, unlike pallas_call,
accepts captured scalars.  JAX: traces (jax.eval_shape) without error."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

scale = jnp.float32(0.5)


@pl.kernel(
    out_type=jax.ShapeDtypeStruct((8, 128), jnp.float32),
    mesh=pltpu.create_tensorcore_mesh("core", num_cores=1),
    scratch_types=[pltpu.VMEM((8, 128), jnp.float32)],
    interpret=pltpu.InterpretParams(),
)
def scale_rows(x_hbm, o_hbm, buf):
    pltpu.sync_copy(x_hbm, buf)
    buf[...] = buf[...] * scale
    pltpu.sync_copy(buf, o_hbm)


# Traced only: jax 0.10's interpreter mis-types captured scalars when it RUNS the kernel (an
# interpreter bug, not the capture check, which passes at trace time).
print(jax.eval_shape(scale_rows, jnp.ones((8, 128), jnp.float32)))

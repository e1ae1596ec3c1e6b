"""A pl.kernel body closes over a per-lane scale vector made with jnp.linspace (not a scalar).
JAX: ValueError "... captures non-Ref constants" / "non-scalar constants"."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

lane_scale = jnp.linspace(0.0, 1.0, 128, dtype=jnp.float32)


@pl.kernel(
    out_type=jax.ShapeDtypeStruct((8, 128), jnp.float32),
    mesh=pltpu.create_tensorcore_mesh("core", num_cores=1),
    scratch_types=[pltpu.VMEM((8, 128), jnp.float32)],
    interpret=pltpu.InterpretParams(),
)
def scale_rows(x_hbm, o_hbm, buf):
    pltpu.sync_copy(x_hbm, buf)
    buf[...] = buf[...] * lane_scale  # expect: PAL003
    pltpu.sync_copy(buf, o_hbm)


print(scale_rows(jnp.ones((8, 128), jnp.float32)).sum())

"""An `async def` kernel passed to pl.kernel from a dict keyed by name.
JAX: TypeError "object of type 'NoneType' has no len()"."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


async def _copy_body(x_hbm, o_hbm):  # expect: PAL005
    pltpu.sync_copy(x_hbm, o_hbm)


BODIES = {"copy": _copy_body}
mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)
x = jnp.ones((8, 128), jnp.float32)
run = pl.kernel(BODIES["copy"], out_type=jax.ShapeDtypeStruct(x.shape, x.dtype), mesh=mesh, interpret=pltpu.InterpretParams())
print(run(x).sum())

"""`pl.kernel(body=...)` given an `async def` copy body (written as if DMA waits were awaitable)
through a small launcher that forwards `**kwargs`.  JAX: TypeError "object of type 'NoneType' has no len()"."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


async def _copy_body(x_hbm, o_hbm, sem):  # expect: PAL005
    copy = pltpu.make_async_copy(x_hbm, o_hbm, sem)
    copy.start()
    copy.wait()


def launch(body, x, **kwargs):
    return pl.kernel(
        body=body,
        out_type=jax.ShapeDtypeStruct(x.shape, x.dtype),
        mesh=pltpu.create_tensorcore_mesh("core", num_cores=1),
        interpret=pltpu.InterpretParams(),
        **kwargs,
    )(x)


print(launch(_copy_body, jnp.ones((8, 128), jnp.float32), scratch_types=[pltpu.SemaphoreType.DMA]).sum())

"""pl.core_map on a closure body inside a jitted op; the body returns `pltpu.sync_copy(...)`,
which is None.  JAX: runs."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)


@jax.jit
def copy(x):
    x_ref = jax.new_ref(x)
    y_ref = jax.new_ref(jnp.zeros_like(x))

    @pl.core_map(mesh, interpret=pltpu.InterpretParams())
    def _():
        return pltpu.sync_copy(x_ref, y_ref)

    return jax.freeze(y_ref)


print(copy(jnp.ones((8, 128), jnp.float32)).sum())

"""`pl.core_map(mesh, ...)` applied to a named body as a call inside a jitted function; the body
copies with run_scoped staging and its only returns are in nested functions.  JAX: runs."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.create_tensorcore_mesh("core", num_cores=1)


@jax.jit
def copy(x):
    x_ref = jax.new_ref(x)
    y_ref = jax.new_ref(jnp.zeros_like(x))

    def body():
        def staged(tmp):
            pltpu.sync_copy(x_ref, tmp)
            tmp[...] = tmp[...] + 1.0
            pltpu.sync_copy(tmp, y_ref)
            return tmp[...].sum()

        total = pl.run_scoped(staged, pltpu.VMEM(x.shape, x.dtype))
        del total

    run = pl.core_map(mesh, interpret=pltpu.InterpretParams())
    run(body)
    return jax.freeze(y_ref)


assert float(copy(jnp.ones((8, 128), jnp.float32)).sum()) == 2.0 * 8 * 128

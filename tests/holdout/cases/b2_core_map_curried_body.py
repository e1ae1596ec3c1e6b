"""`pl.core_map(mesh, ...)` applied to a named body as a call (not as a decorator) inside a jitted
function; the body returns the destination's shape for a later assert.
JAX: ValueError "... should return None"."""
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
        pltpu.sync_copy(x_ref, y_ref)
        return y_ref.shape  # expect: PAL001

    run = pl.core_map(mesh, interpret=pltpu.InterpretParams())
    run(body)
    return jax.freeze(y_ref)


print(copy(jnp.ones((8, 128), jnp.float32)).sum())

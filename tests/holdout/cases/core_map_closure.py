"""pl.core_map on a closure body inside a jitted op, over closed-over refs; the body returns the
result of a helper that copies and returns its destination ref.
JAX: ValueError "function _ ... traced for pallas_core_map returned a mutable array reference ..., but mutable array references cannot be returned."."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)


def _copy(src, dst):
    pltpu.sync_copy(src, dst)
    return dst


@jax.jit
def copy(x):
    x_ref = jax.new_ref(x)
    y_ref = jax.new_ref(jnp.zeros_like(x))

    @pl.core_map(mesh, interpret=pltpu.InterpretParams())
    def _():
        return _copy(x_ref, y_ref)  # expect: PAL001

    return jax.freeze(y_ref)


print(copy(jnp.ones((8, 128), jnp.float32)).sum())

"""The kernel ends with `return pl.run_scoped(...)` and the scoped body returns the reduced block
(a scoped body may return a value, so run_scoped returns it and the kernel returns it too).
JAX: ValueError "... should return None"."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def row_sum_kernel(x_ref, o_ref):
    def scoped(tmp_ref):
        tmp_ref[...] = x_ref[...] * 2.0
        o_ref[...] = jnp.sum(tmp_ref[...], axis=1, keepdims=True)
        return o_ref[...]

    return pl.run_scoped(scoped, pltpu.VMEM((8, 128), jnp.float32))  # expect: PAL001


x = jnp.ones((8, 128), jnp.float32)
out = pl.pallas_call(row_sum_kernel, out_shape=jax.ShapeDtypeStruct((8, 1), jnp.float32), interpret=True)(x)
print(out.sum())

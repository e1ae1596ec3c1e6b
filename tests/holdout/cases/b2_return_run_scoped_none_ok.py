"""The kernel ends with `return pl.run_scoped(...)`; the scoped body only stores (an early bare
`return` on a static branch), so run_scoped gives None.  The scoped body's own `return acc`
inside a fori_loop body is a carry.  JAX: runs."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def row_sum_kernel(x_ref, o_ref, *, double=True):
    def scoped(tmp_ref):
        tmp_ref[...] = x_ref[...]
        if not double:
            o_ref[...] = jnp.sum(tmp_ref[...], axis=1, keepdims=True)
            return

        def body(i, acc):
            return acc + tmp_ref[pl.ds(i, 1), :]

        acc = jax.lax.fori_loop(0, 8, body, jnp.zeros((1, 128), jnp.float32))
        o_ref[...] = jnp.sum(tmp_ref[...] * 2.0, axis=1, keepdims=True) + 0.0 * jnp.sum(acc)

    return pl.run_scoped(scoped, pltpu.VMEM((8, 128), jnp.float32))


x = jnp.ones((8, 128), jnp.float32)
out = pl.pallas_call(row_sum_kernel, out_shape=jax.ShapeDtypeStruct((8, 1), jnp.float32), interpret=True)(x)
print(out.sum())

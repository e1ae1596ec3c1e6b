"""A `pl.when` inside a `lax.fori_loop` body (the loop body's own return is its carry, fine); the
when body returns the running max as well as storing it.
JAX: TypeError "cond branch outputs must have the same pytree structure"."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def running_max_kernel(x_ref, o_ref):
    o_ref[...] = jnp.full(o_ref.shape, -jnp.inf, jnp.float32)

    def body(i, carry):
        blk = x_ref[pl.ds(i * 8, 8), :]

        @pl.when(jnp.max(blk) > jnp.max(o_ref[...]))
        def _update():
            o_ref[...] = jnp.maximum(o_ref[...], blk)
            return o_ref[...]  # expect: PAL007

        return carry + 1

    jax.lax.fori_loop(0, x_ref.shape[0] // 8, body, 0)


x = jnp.arange(32 * 128, dtype=jnp.float32).reshape(32, 128)
print(pl.pallas_call(running_max_kernel, out_shape=jax.ShapeDtypeStruct((8, 128), jnp.float32), interpret=True)(x).sum())

"""The same inv_freq table, passed as an input with its own BlockSpec instead of captured.
JAX: runs."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def rope_kernel(x_ref, f_ref, o_ref):
    o_ref[...] = x_ref[...] * jnp.cos(f_ref[...])


def rope(x, dim=128):
    inv_freq = 1.0 / (10000.0 ** (jnp.arange(0, dim, dtype=jnp.float32) / dim))
    inv_freq = inv_freq.reshape(1, dim)
    return pl.pallas_call(
        rope_kernel,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid=(1,),
        in_specs=[pl.BlockSpec(x.shape, lambda i: (0, 0)), pl.BlockSpec((1, dim), lambda i: (0, 0))],
        out_specs=pl.BlockSpec(x.shape, lambda i: (0, 0)),
        interpret=True,
    )(x, inv_freq)


print(jax.jit(rope)(jnp.ones((8, 128), jnp.float32)).sum())

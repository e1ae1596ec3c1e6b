"""jax's ops/ style: a `functools.partial(jax.jit, static_argnames=...)` op launching
`functools.partial(kernel, block=...)` on a grid; VALID twin.  JAX: runs."""
import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def _layer_norm_kernel(x_ref, o_ref, *, eps, block):
    x = x_ref[...]
    mean = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.mean((x - mean) ** 2, axis=-1, keepdims=True)
    o_ref[...] = (x - mean) * jax.lax.rsqrt(var + eps)


@functools.partial(jax.jit, static_argnames=["block_rows", "eps", "interpret"])
def layer_norm(x, *, block_rows=8, eps=1e-5, interpret=True):
    kernel = functools.partial(_layer_norm_kernel, eps=eps, block=block_rows)
    spec = pl.BlockSpec((block_rows, x.shape[1]), lambda i: (i, 0))
    return pl.pallas_call(
        kernel,
        grid=(x.shape[0] // block_rows,),
        in_specs=[spec],
        out_specs=spec,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        interpret=interpret,
    )(x)


print(layer_norm(jnp.arange(16 * 128, dtype=jnp.float32).reshape(16, 128)).sum())

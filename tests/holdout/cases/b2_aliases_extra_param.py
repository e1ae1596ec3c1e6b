"""In-place KV-cache update with `input_output_aliases={1: 0}`: the author gave the kernel an extra
parameter for the aliased buffer, as if aliasing added a ref.  It does not: the kernel gets
new_kv, cache (input) and the output, three refs.
JAX: TypeError "update_kernel() missing 1 required positional argument: 'cache_out_ref'"."""
import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def update_kernel(new_ref, cache_ref, out_ref, cache_out_ref):
    del cache_ref
    cache_out_ref[...] = new_ref[...]
    out_ref[...] = new_ref[...]


@functools.partial(jax.jit, donate_argnums=1)
def write_cache(new_kv, cache):
    return pl.pallas_call(
        update_kernel,  # expect: PAL004
        out_shape=jax.ShapeDtypeStruct(cache.shape, cache.dtype),
        input_output_aliases={1: 0},
        interpret=True,
    )(new_kv, cache)


print(write_cache(jnp.ones((8, 128), jnp.float32), jnp.zeros((8, 128), jnp.float32)).sum())

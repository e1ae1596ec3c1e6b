"""PrefetchScalarGridSpec(num_scalar_prefetch=1): the first call argument arrives first, as a
ref; the kernel forgot it.  JAX: TypeError "kernel() takes 2 positional arguments but 3 were given"."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...]


def gather_rows(idx, x):
    grid_spec = pltpu.PrefetchScalarGridSpec(
        num_scalar_prefetch=1,
        grid=(idx.shape[0],),
        in_specs=[pl.BlockSpec((8, 128), lambda i, idx_ref: (idx_ref[i], 0))],
        out_specs=pl.BlockSpec((8, 128), lambda i, idx_ref: (i, 0)),
    )
    out = jax.ShapeDtypeStruct((8 * idx.shape[0], 128), x.dtype)
    return pl.pallas_call(kernel, out_shape=out, grid_spec=grid_spec, interpret=True)(idx, x)  # expect: PAL004


print(gather_rows(jnp.array([1, 0], jnp.int32), jnp.ones((16, 128), jnp.float32)).sum())

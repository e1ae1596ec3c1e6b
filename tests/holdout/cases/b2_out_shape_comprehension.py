"""`out_shape` built by a tuple comprehension over `num_splits` (three outputs); the split kernel
was written for two.  JAX: TypeError "split_kernel() takes 3 positional arguments but 4 were given"."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

NUM_SPLITS = 3


def split_kernel(x_ref, lo_ref, hi_ref):
    lo_ref[...] = x_ref[:, :64]
    hi_ref[...] = x_ref[:, 64:]


def split(x, num_splits=NUM_SPLITS):
    out_shape = tuple(jax.ShapeDtypeStruct((x.shape[0], 64), x.dtype) for _ in range(num_splits))
    return pl.pallas_call(split_kernel, out_shape=out_shape, interpret=True)(x)  # expect: PAL004


print([o.sum() for o in split(jnp.ones((8, 128), jnp.float32))])

"""the kernel in main captures an array defined in pkg.consts  JAX: ValueError "captures constants"."""
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from pkg import consts

x = jnp.ones((8, 128))


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * consts.W  # expect: PAL003


print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())

"""The kernel passed by keyword, `pl.pallas_call(kernel=..., out_shape=...)`, from a tuple
unpacked out of a factory returning (fwd, bwd).  JAX: ValueError "... should return None"."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def make_kernels(slope):
    def fwd(x_ref, o_ref):
        o_ref[...] = x_ref[...] * slope
        return slope  # expect: PAL001

    def bwd(g_ref, o_ref):
        o_ref[...] = g_ref[...] * slope

    return fwd, bwd


fwd_kernel, bwd_kernel = make_kernels(0.5)
x = jnp.ones((8, 128), jnp.float32)
shape = jax.ShapeDtypeStruct(x.shape, x.dtype)
print(pl.pallas_call(kernel=bwd_kernel, out_shape=shape, interpret=True)(x).sum())
print(pl.pallas_call(kernel=fwd_kernel, out_shape=shape, interpret=True)(x).sum())

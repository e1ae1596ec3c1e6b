"""`out_shape` is a dict of two ShapeDtypeStructs (a pytree): the kernel receives ONE parameter
holding both output refs, but it was written with one parameter per entry.
JAX: TypeError "norm_kernel() missing 1 required positional argument: 'rstd_ref'"."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def norm_kernel(x_ref, y_ref, rstd_ref):
    x = x_ref[...]
    rstd = jax.lax.rsqrt(jnp.mean(x * x, axis=-1, keepdims=True) + 1e-6)
    y_ref[...] = x * rstd
    rstd_ref[...] = rstd


def rms_norm(x):
    out_shape = {
        "y": jax.ShapeDtypeStruct(x.shape, x.dtype),
        "rstd": jax.ShapeDtypeStruct((x.shape[0], 1), jnp.float32),
    }
    return pl.pallas_call(norm_kernel, out_shape=out_shape, interpret=True)(x)  # expect: PAL004


print(rms_norm(jnp.ones((8, 128), jnp.float32))["y"].sum())

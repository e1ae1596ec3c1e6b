"""`out_shape` is a dict of two ShapeDtypeStructs: the kernel takes ONE output parameter, a dict
of refs, and writes each entry.  JAX: runs."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def norm_kernel(x_ref, outs):
    x = x_ref[...]
    rstd = jax.lax.rsqrt(jnp.mean(x * x, axis=-1, keepdims=True) + 1e-6)
    outs["y"][...] = x * rstd
    outs["rstd"][...] = rstd


def rms_norm(x):
    out_shape = {
        "y": jax.ShapeDtypeStruct(x.shape, x.dtype),
        "rstd": jax.ShapeDtypeStruct((x.shape[0], 1), jnp.float32),
    }
    return pl.pallas_call(norm_kernel, out_shape=out_shape, interpret=True)(x)


print(rms_norm(jnp.ones((8, 128), jnp.float32))["y"].sum())

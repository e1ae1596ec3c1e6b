"""Layout from names (`out_shapes`, `scratch`) and a kernel that takes input, 2 outputs, scratch.
JAX: runs."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def split_kernel(x_ref, lo_ref, hi_ref, tmp_ref):
    tmp_ref[...] = x_ref[...]
    lo_ref[...] = jnp.minimum(tmp_ref[...], 0)
    hi_ref[...] = jnp.maximum(tmp_ref[...], 0)


def split(x):
    o = jax.ShapeDtypeStruct(x.shape, x.dtype)
    out_shapes = (o, o)
    scratch = [pltpu.VMEM(x.shape, jnp.float32)]
    return pl.pallas_call(split_kernel, out_shape=out_shapes, scratch_shapes=scratch, interpret=True)(x)


print(split(jnp.ones((8, 128), jnp.float32)))

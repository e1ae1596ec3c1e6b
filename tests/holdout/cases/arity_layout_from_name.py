"""The layout comes from names: `out_shapes = (o, o)` and `scratch = [VMEM]` assigned earlier in
the launcher; the kernel lacks the scratch parameter.  JAX: TypeError "takes 3 positional arguments but 4 were given"."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def split_kernel(x_ref, lo_ref, hi_ref):
    lo_ref[...] = jnp.minimum(x_ref[...], 0)
    hi_ref[...] = jnp.maximum(x_ref[...], 0)


def split(x):
    o = jax.ShapeDtypeStruct(x.shape, x.dtype)
    out_shapes = (o, o)
    scratch = [pltpu.VMEM(x.shape, jnp.float32)]
    return pl.pallas_call(split_kernel, out_shape=out_shapes, scratch_shapes=scratch, interpret=True)(x)  # expect: PAL004


print(split(jnp.ones((8, 128), jnp.float32)))

"""`scratch_shapes` given as a dict: the scratch buffers arrive as KEYWORD arguments.
JAX: runs."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def kernel(x_ref, o_ref, *, acc):
    acc[...] = x_ref[...] * 2
    o_ref[...] = acc[...]


x = jnp.ones((8, 128), jnp.float32)
scratch = {"acc": pltpu.VMEM((8, 128), jnp.float32)}
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), scratch_shapes=scratch, interpret=True)(x).sum())

"""Kernels chosen from a module-level dict `KERNELS[op]` inside a launcher.
JAX: ValueError "... should return None" when the `mul` entry is launched."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def _add_kernel(x_ref, y_ref, o_ref):
    o_ref[...] = x_ref[...] + y_ref[...]


def _mul_kernel(x_ref, y_ref, o_ref):
    o_ref[...] = x_ref[...] * y_ref[...]
    return o_ref[...]  # expect: PAL001


KERNELS = {"add": _add_kernel, "mul": _mul_kernel}


def binary(op, x, y):
    return pl.pallas_call(KERNELS[op], out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x, y)


x = jnp.ones((8, 128), jnp.float32)
for op in ("add", "mul"):
    print(op, binary(op, x, x).sum())

"""The out_shape tuple (two outputs) is imported from shapes.py; the kernel takes one output.
JAX: TypeError "kernel() takes 2 positional arguments but 3 were given"."""
import jax.numpy as jnp
from jax.experimental import pallas as pl

from shapes import COLS, OUT_SHAPES, ROWS


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...]


x = jnp.ones((ROWS, COLS), jnp.float32)
print(pl.pallas_call(kernel, out_shape=OUT_SHAPES, interpret=True)(x))  # expect: PAL004

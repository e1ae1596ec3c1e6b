"""The out_shape tuple imported from shapes.py, matched by a kernel with two outputs.
JAX: runs."""
import jax.numpy as jnp
from jax.experimental import pallas as pl

from shapes import COLS, OUT_SHAPES, ROWS


def kernel(x_ref, a_ref, b_ref):
    a_ref[...] = x_ref[...]
    b_ref[...] = -x_ref[...]


x = jnp.ones((ROWS, COLS), jnp.float32)
print(pl.pallas_call(kernel, out_shape=OUT_SHAPES, interpret=True)(x))

"""a launcher module is handed the kernel  JAX: ValueError "should return None"."""
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from launch import run


def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]


def bump(x_ref, o_ref):
    return x_ref[...] + 1  # expect: PAL001


x = jnp.ones((8, 128), jnp.float32)
print(run(bump, x).sum())

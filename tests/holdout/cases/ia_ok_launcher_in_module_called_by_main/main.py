"""a library launcher takes the kernel's name; main calls it  JAX: runs."""
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from lib.run import run

x = jnp.ones((8, 128), jnp.float32)
print(run("copy", x).sum())

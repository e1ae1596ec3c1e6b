"""try: import the fast kernel except ImportError: the safe one  JAX: runs."""
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
try:
    from ops.missing_module import bump as kernel
except ImportError:
    from ops.kernels import copy as kernel

x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())

"""A kernel closes over plain Python values that methods returned: a list built by a method of a
class, a NumPy array's `.tolist()`, a jax array's `.tolist()` and `.item()`.  None is a jax array,
so nothing is captured.  JAX: runs."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl


class Schedule:
    def __init__(self, n):
        self.n = n

    def weights(self):
        return [0.5 * i for i in range(self.n)]

    def table(self):
        return np.arange(self.n).tolist()


schedule = Schedule(4)
weights = schedule.weights()
table = schedule.table()
rows = jnp.ones((2, 3)).tolist()
bias = jnp.float32(0.25).item()


def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * weights[1] + table[2] + rows[0][1] + bias


x = jnp.ones((8, 128), jnp.float32)
print(pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())

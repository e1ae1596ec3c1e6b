"""Two instances each make a Ref in __init__; p.a and q.a are two Refs.  JAX: runs."""
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)

def _copy(src, dst):
    pltpu.sync_copy(src, dst)

class Pool:
    def __init__(self):
        self.a = jax.new_ref(jnp.zeros((8, 128), jnp.float32))

p, q = Pool(), Pool()
pl.kernel(_copy, mesh=mesh, interpret=pltpu.InterpretParams())(p.a, q.a)
print("ok")

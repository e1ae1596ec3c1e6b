"""A generator yields two Refs with `yield from`; the call unpacks them.  JAX: runs."""
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
x = jnp.ones((8, 128), jnp.float32)
mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)

@pl.kernel(mesh=mesh, interpret=pltpu.InterpretParams())
def run(src_ref, dst_ref):
    pltpu.sync_copy(src_ref, dst_ref)

def pair():
    r = jax.new_ref(x)
    s = jax.new_ref(jnp.zeros_like(x))
    yield from (r, s)

run(*pair())

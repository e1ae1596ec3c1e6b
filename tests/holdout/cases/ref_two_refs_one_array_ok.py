"""VALID twin: two refs made from ONE array are distinct objects; `a = b = x` names one array.
JAX: runs."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)


@pl.kernel(mesh=mesh, interpret=pltpu.InterpretParams())
def copy_into(src_ref, dst_ref):
    pltpu.sync_copy(src_ref, dst_ref)


x = jnp.ones((8, 128), jnp.float32)

a = jax.new_ref(x)
b = jax.new_ref(x)
copy_into(a, b)
c = d = x
copy_into(c, d)

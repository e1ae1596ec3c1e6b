"""A tuple of refs held in a variable, passed whole and then one element again.
JAX: NotImplementedError "Cannot pass the same ref into a mpmd map multiple times"."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)


@pl.kernel(mesh=mesh, interpret=pltpu.InterpretParams())
def copy_into(pair, dst_ref):
    pltpu.sync_copy(pair[0], dst_ref)


x = jnp.ones((8, 128), jnp.float32)

refs = (jax.new_ref(x), jax.new_ref(x * 2))
copy_into(refs, refs[1])  # expect: PAL002

"""A ref returned by a helper (`make_scratch`), then passed twice.
JAX: NotImplementedError "Cannot pass the same ref into a mpmd map multiple times"."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)


@pl.kernel(mesh=mesh, interpret=pltpu.InterpretParams())
def copy_into(src_ref, dst_ref):
    pltpu.sync_copy(src_ref, dst_ref)


x = jnp.ones((8, 128), jnp.float32)



def make_scratch(like):
    buf = jax.new_ref(jnp.zeros_like(like))
    return buf


s = make_scratch(x)
copy_into(s, s)  # expect: PAL002

"""`k_buf, v_buf = (r,) * 2`-style mistake: both names bound from one tuple of the SAME ref.
JAX: NotImplementedError "Cannot pass the same ref into a mpmd map multiple times"."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)


def _copy(src, dst):
    pltpu.sync_copy(src, dst)


r = jax.new_ref(jnp.ones((8, 128), jnp.float32))
k_buf, v_buf = r, r
pl.kernel(_copy, mesh=mesh, interpret=pltpu.InterpretParams())(k_buf, v_buf)  # expect: PAL002

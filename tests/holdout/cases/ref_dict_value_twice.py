"""A dict of refs passed whole, then one of its values again (`bufs, bufs["k"]`).
JAX: NotImplementedError "Cannot pass the same ref into a mpmd map multiple times"."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)


def _copy(bufs, dst):
    pltpu.sync_copy(bufs["k"], dst)


kv = jnp.ones((8, 128), jnp.float32)
bufs = {"k": jax.new_ref(kv), "v": jax.new_ref(kv * 2)}
pl.kernel(_copy, mesh=mesh, interpret=pltpu.InterpretParams())(bufs, bufs["k"])  # expect: PAL002

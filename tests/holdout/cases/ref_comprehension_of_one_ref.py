"""A list comprehension repeating one ref made outside it (`[r for _ in range(2)]`): the same Ref
twice.  JAX: NotImplementedError "Cannot pass the same ref into a mpmd map multiple times"."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)


@pl.kernel(mesh=mesh, interpret=pltpu.InterpretParams())
def ping_pong(src_ref, dst_ref):
    pltpu.sync_copy(src_ref, dst_ref)


x = jnp.ones((8, 128), jnp.float32)
r = jax.new_ref(x)
ping_pong(*[r for _ in range(2)])  # expect: PAL002

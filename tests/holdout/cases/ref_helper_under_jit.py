"""A ref from a helper, under jax.jit, passed to one call twice in a pytree and at top level.
JAX: NotImplementedError "Cannot pass the same ref into a mpmd map multiple times"."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)


@pl.kernel(mesh=mesh, interpret=pltpu.InterpretParams())
def copy_into(srcs, dst_ref):
    pltpu.sync_copy(srcs["a"], dst_ref)


x = jnp.ones((8, 128), jnp.float32)



def scratch_like(v):
    return jax.empty_ref(jax.typeof(v))


@jax.jit
def step(v):
    acc = scratch_like(v)
    copy_into({"a": acc}, acc)  # expect: PAL002
    return jax.freeze(acc)


step(x)

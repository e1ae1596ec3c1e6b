"""mpmd_map (private jax._src.pallas.mpmd) callable given one ref through an alias twice.
JAX: NotImplementedError "Cannot pass the same ref into a mpmd map multiple times"."""
import jax
import jax.numpy as jnp
from jax._src.pallas.mpmd import mpmd_map
from jax.experimental.pallas import tpu as pltpu

mesh = pltpu.create_tensorcore_mesh("x", num_cores=1)


def body(src_ref, dst_ref):
    pltpu.sync_copy(src_ref, dst_ref)


run = mpmd_map([(mesh, body)], interpret=pltpu.InterpretParams())
buf = jax.new_ref(jnp.ones((8, 128), jnp.float32))
alias = buf
run(buf, alias)  # expect: PAL002

"""`scratch_shapes` given as a dict passes the scratch buffers by keyword; the dict key `m_scratch`
does not match the kernel's parameter `m_ref`.
JAX: TypeError "online_max_kernel() got an unexpected keyword argument 'm_scratch'"."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def online_max_kernel(x_ref, o_ref, *, m_ref):
    @pl.when(pl.program_id(0) == 0)
    def _():
        m_ref[...] = jnp.full_like(m_ref, -jnp.inf)

    m_ref[...] = jnp.maximum(m_ref[...], x_ref[...])
    o_ref[...] = m_ref[...]


scratch = {"m_scratch": pltpu.VMEM((8, 128), jnp.float32)}
x = jnp.ones((16, 128), jnp.float32)
out = pl.pallas_call(
    online_max_kernel,  # expect: PAL004
    grid=(2,),
    in_specs=[pl.BlockSpec((8, 128), lambda i: (i, 0))],
    out_specs=pl.BlockSpec((8, 128), lambda i: (0, 0)),
    out_shape=jax.ShapeDtypeStruct((8, 128), jnp.float32),
    scratch_shapes=scratch,
    interpret=True,
)(x)
print(out.sum())

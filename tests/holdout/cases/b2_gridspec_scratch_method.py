"""A matmul-accumulate op as a class: `__call__` builds a PrefetchScalarGridSpec whose
scratch_shapes hold a VMEM accumulator and a DMA semaphore, and launches the bound method
`self._kernel`, which has a defaulted `acc_ref=None` but no parameter for the semaphore.  JAX: TypeError "BlockedSum._kernel() takes from 3 to 4 positional arguments but 5 were given"."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


class BlockedSum:
    def __init__(self, block_k=128):
        self.block_k = block_k

    def _kernel(self, x_ref, o_ref, acc_ref=None):
        k = pl.program_id(1)

        @pl.when(k == 0)
        def _init():
            o_ref[...] = jnp.zeros_like(o_ref)

        o_ref[...] += x_ref[...]

    def __call__(self, x):
        m, n = x.shape
        grid_spec = pltpu.PrefetchScalarGridSpec(
            num_scalar_prefetch=0,
            grid=(m // 8, n // self.block_k),
            in_specs=[pl.BlockSpec((8, self.block_k), lambda i, k: (i, k))],
            out_specs=pl.BlockSpec((8, self.block_k), lambda i, k: (i, 0)),
            scratch_shapes=[pltpu.VMEM((8, self.block_k), jnp.float32), pltpu.SemaphoreType.DMA],
        )
        return pl.pallas_call(
            self._kernel,  # expect: PAL004
            grid_spec=grid_spec,
            out_shape=jax.ShapeDtypeStruct((m, self.block_k), x.dtype),
            interpret=True,
        )(x)


print(BlockedSum()(jnp.ones((16, 256), jnp.float32)).sum())

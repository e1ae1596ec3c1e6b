"""An op class dispatches on a mode string with `getattr(self, f"_{mode}_kernel")`; the `_max`
kernel returns the reduced block.  JAX: ValueError "... should return None"."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


class RowReduce:
    def __init__(self, mode="sum"):
        self.mode = mode

    @staticmethod
    def _sum_kernel(x_ref, o_ref):
        o_ref[...] = jnp.sum(x_ref[...], axis=1, keepdims=True)

    @staticmethod
    def _max_kernel(x_ref, o_ref):
        return jnp.max(x_ref[...], axis=1, keepdims=True)  # expect: PAL001

    def __call__(self, x):
        kernel = getattr(self, f"_{self.mode}_kernel")
        return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct((x.shape[0], 1), x.dtype), interpret=True)(x)


x = jnp.ones((8, 128), jnp.float32)
print(RowReduce("sum")(x).sum(), RowReduce("max")(x).sum())

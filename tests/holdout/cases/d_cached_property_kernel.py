"""A `functools.cached_property` builds the kernel closure; it returns the softmax.  JAX: ValueError "... should return None"."""
import functools
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl

class Softmax:
    def __init__(self, axis):
        self.axis = axis

    @functools.cached_property
    def kernel(self):
        axis = self.axis
        def softmax_kernel(x_ref, o_ref):
            x = x_ref[...]
            return jax.nn.softmax(x, axis=axis)  # expect: PAL001
        return softmax_kernel

    def __call__(self, x):
        return pl.pallas_call(self.kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

print(Softmax(-1)(jnp.ones((8, 128))).sum())

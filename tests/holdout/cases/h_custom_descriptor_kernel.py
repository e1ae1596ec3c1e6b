"""A custom descriptor (`__set_name__` / `__get__`) hands out the kernel, which returns.  JAX: ValueError "... should return None"."""
import jax, jax.numpy as jnp
from jax.experimental import pallas as pl

class KernelSlot:
    def __set_name__(self, owner, name):
        self.name = name
    def __get__(self, obj, owner):
        return getattr(owner, "_" + self.name)

class Op:
    kernel = KernelSlot()

    @staticmethod
    def _kernel(x_ref, o_ref):
        return x_ref[...] + 3  # expect: PAL001

def run(x):
    return pl.pallas_call(Op().kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)

print(run(jnp.ones((8, 128))).sum())

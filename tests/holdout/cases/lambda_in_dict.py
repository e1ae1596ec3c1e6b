"""Lambda kernels in a dict; the `neg` one's body is a value, the `copy` one returns None.
JAX: ValueError "... should return None" for `neg`."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

_ALL = (slice(None), slice(None))
KERNELS = {
    "copy": lambda x_ref, o_ref: o_ref.__setitem__(_ALL, x_ref[...]),
    "neg": lambda x_ref, o_ref: -x_ref[...],  # expect: PAL001
}

x = jnp.ones((8, 128), jnp.float32)
for name in ("copy", "neg"):
    print(name, pl.pallas_call(KERNELS[name], out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x).sum())

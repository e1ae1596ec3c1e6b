"""`out_shape = [S]; out_shape.append(None)`: a None element still gives the kernel a parameter
(it receives None), so the kernel takes three.  JAX: runs."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def kernel(x_ref, o_ref, lse_ref):
    o_ref[...] = x_ref[...] * 2
    if lse_ref is not None:
        lse_ref[...] = jnp.zeros(lse_ref.shape, lse_ref.dtype)


x = jnp.ones((8, 128), jnp.float32)
out_shape = [jax.ShapeDtypeStruct(x.shape, x.dtype)]
out_shape.append(None)
o, lse = pl.pallas_call(kernel, out_shape=out_shape, interpret=True)(x)
print(o.sum(), lse)

"""A helper module builds two output structs; the kernel takes one output.  JAX: TypeError (arguments)."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from shapes import pair_like

def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...]

x = jnp.ones((8, 128), jnp.float32)
out = pl.pallas_call(kernel, out_shape=pair_like(x), interpret=True)(x)  # expect: PAL004
print(out[0].sum())

"""`def kernel(*refs)` unpacking inputs/outputs by count (real multi-output kernels do this),
launched with a tuple out_shape.  JAX: runs."""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def kernel(*refs):
    x_ref, *out_refs = refs
    for i, o_ref in enumerate(out_refs):
        o_ref[...] = x_ref[...] * (i + 1)


x = jnp.ones((8, 128), jnp.float32)
s = jax.ShapeDtypeStruct(x.shape, x.dtype)
print([o.sum() for o in pl.pallas_call(kernel, out_shape=(s, s, s), interpret=True)(x)])
